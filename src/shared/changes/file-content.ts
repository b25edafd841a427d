/**
 * A file's content as the changes view sees one version of it: its bytes (or text), absent (the file did not exist
 * then), or too large to have been kept (the checkpoint store records that it changed, not what it held). Text is
 * what decodes as UTF-8 and holds no NUL byte; anything else is binary and shown by its size only.
 */

/** A version of a file the store kept no copy of (over the size limit): its size, and nothing else. */
export interface TooLarge {
  tooLarge: true;
  size: number;
}

/** One version of a file: bytes or text, `null` when it did not exist, or too large to have been kept. */
export type FileContent = Uint8Array | string | null | TooLarge;

/** What a version holds, once looked at: text (split into lines), binary bytes, nothing, or no copy. */
export type ReadContent =
  | { kind: "text"; text: string }
  | { kind: "binary"; size: number }
  | { kind: "absent" }
  | { kind: "too-large"; size: number };

const DECODER = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export function isTooLarge(content: FileContent): content is TooLarge {
  return typeof content === "object" && content !== null && !(content instanceof Uint8Array) && content.tooLarge === true;
}

/** Reads a version: text when its bytes are UTF-8 without NUL, else binary; strings are text as given. */
export function readContent(content: FileContent): ReadContent {
  if (content === null) return { kind: "absent" };
  if (typeof content === "string") return { kind: "text", text: content };
  if (isTooLarge(content)) return { kind: "too-large", size: content.size };
  if (content.includes(0)) return { kind: "binary", size: content.byteLength };
  try {
    return { kind: "text", text: DECODER.decode(content) };
  } catch {
    return { kind: "binary", size: content.byteLength };
  }
}

/** The size in bytes of a version (0 when absent). */
export function contentSize(content: FileContent): number {
  if (content === null) return 0;
  if (typeof content === "string") return new TextEncoder().encode(content).byteLength;
  return isTooLarge(content) ? content.size : content.byteLength;
}

/**
 * Whether two versions are the same file content. Two versions without a copy count as the same when their sizes
 * match (the store compares their stat and hash; without bytes, the size is all this side knows). Text and bytes
 * compare by their UTF-8 bytes.
 */
export function sameContent(a: FileContent, b: FileContent): boolean {
  if (a === null || b === null) return a === b;
  if (isTooLarge(a) || isTooLarge(b)) return isTooLarge(a) && isTooLarge(b) && a.size === b.size;
  const x = typeof a === "string" ? new TextEncoder().encode(a) : a;
  const y = typeof b === "string" ? new TextEncoder().encode(b) : b;
  if (x.byteLength !== y.byteLength) return false;
  for (let i = 0; i < x.byteLength; i++) if (x[i] !== y[i]) return false;
  return true;
}

/**
 * A text's lines, each with its own line ending ("\n" or "\r\n"; the last one may have none), so that joining them
 * gives back the text exactly: CRLF files and a missing final newline survive a revert byte for byte.
 */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines: string[] = [];
  let start = 0;
  for (;;) {
    const end = text.indexOf("\n", start);
    if (end === -1) {
      if (start < text.length) lines.push(text.slice(start));
      return lines;
    }
    lines.push(text.slice(start, end + 1));
    start = end + 1;
  }
}

/** A line without its line ending. */
export function lineText(line: string): string {
  if (line.endsWith("\r\n")) return line.slice(0, -2);
  return line.endsWith("\n") ? line.slice(0, -1) : line;
}
