/**
 * Which format a transcript's records are written in, and the upgrade path the loader runs over older ones.
 *
 * A record may carry `v`, the format it and the records after it are written in; the writer puts today's on the first
 * record of each open (so a file an older version began says where this one's records start), never a line of its
 * own. Records before any `v` are format 1: everything written before formats were numbered, from the first
 * transcripts on. A record's format applies until the next record that declares one.
 *
 * Formats:
 *   1. Unnumbered. Among its shapes, checkpoint patches without their number (`{t: "partial", p}`, written for a day
 *      before `n` was added) are numbered here on the way in; the others (`replace` records, prefix grants such as
 *      `bash:npm test`, replies stopped as `pending`) are shapes the loader still reads as they are.
 *   2. Today's records (transcript-store.ts's TranscriptRecord), with `v: 2` on the first of each open.
 *
 * A file with a record of a newer format than this version knows is refused as a whole (TranscriptFormatError): its
 * records may mean what this version cannot tell, so nothing is replayed, and nothing is appended (every writer loads
 * the file first), so the newer version finds the file as it left it.
 */
/** The format this version writes, and the newest it reads. */
export const TRANSCRIPT_FORMAT = 2;

/** A transcript written by a newer version of Paddock, in a format this one does not know. */
export class TranscriptFormatError extends Error {
  constructor(
    /** The newer format the file declares. */
    readonly format: number,
    /** The line that declares it (1-based). */
    readonly line: number,
  ) {
    super(
      `This chat was saved by a newer version of Paddock (transcript format ${format} at line ${line}; this version reads up to ${TRANSCRIPT_FORMAT}). ` +
        "Update Paddock to open it; the file is left as it is.",
    );
    this.name = "TranscriptFormatError";
  }
}

/** The format a record declares (`v`): undefined when it declares none, a description when `v` is not a format. */
export function declaredFormat(value: Record<string, unknown>): number | undefined | string {
  if (value.v === undefined) return undefined;
  return Number.isInteger(value.v) && (value.v as number) >= 1 ? (value.v as number) : `record with an invalid format version ${JSON.stringify(value.v)}`;
}

/** `record` as the writer stores it first after an open: with today's format, right after its type. */
export function stamped<T extends { t: string }>(record: T): T & { v: number } {
  return Object.assign({ t: record.t, v: TRANSCRIPT_FORMAT }, record);
}

/**
 * Brings records of older formats to today's shapes, in file order: one per load, as an upgrade may depend on the
 * records before (format 1's patches are numbered from their reply's whole checkpoint).
 */
export class TranscriptUpgrade {
  /** Format 1: the number the next unnumbered patch of the reply checkpointed now gets (undefined: no reply). */
  private nextPatch: number | undefined;

  /** The record as today's format writes it (a new object when it changed; `value` itself when not). */
  upgrade(value: Record<string, unknown>, format: number): Record<string, unknown> {
    if (format >= TRANSCRIPT_FORMAT) return value;
    return this.fromFormat1(value);
  }

  private fromFormat1(value: Record<string, unknown>): Record<string, unknown> {
    if (value.t !== "partial") {
      // Only a reply's own records continue its checkpoints (the loader ends it at any other message).
      if (value.t !== "meta" && value.t !== "queues" && value.t !== "grant") this.nextPatch = undefined;
      return value;
    }
    if (value.message !== undefined) {
      this.nextPatch = 1;
      return value;
    }
    if (value.n !== undefined || this.nextPatch === undefined) return value;
    return { ...value, n: this.nextPatch++ };
  }
}
