import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { dirname } from "node:path";
import { finished } from "node:stream/promises";
import { countNewlinesIn, newlineCounter } from "./count-newlines";
import { MAX_BYTES, MAX_LINES } from "./limits";
import { truncateTail, type Truncation } from "./truncate";

export interface OutputSnapshot {
  /** The last lines (pi's tail truncation). */
  content: string;
  truncation: Truncation;
  /** Where the whole output is, once it outgrew the limits (undefined if it could not be saved). */
  fullOutputPath?: string;
}

/** Bytes of output kept in memory: twice the byte limit, so the tail always holds whole lines up to the limit. */
const ROLLING_BYTES = MAX_BYTES * 2;
/** What the file may buffer before the command is paused (backpressure). */
const FILE_BUFFER_BYTES = 1 << 20;

/**
 * A command's output with bounded memory, however much it prints: a rolling tail of the last ~100 KB for results and
 * live updates, counters for pi's markers, and (once the output outgrows the limits) everything streamed to a file.
 * `append` returns false while the file is behind: the caller pauses the command's pipes until `drained()`, so a
 * fast printer waits for the disk instead of filling memory.
 */
export class OutputCapture {
  private tail: Buffer[] = [];
  private tailBytes = 0;
  /** Whether the bytes before the tail ended with a newline (or there were none): the tail starts on a line. */
  private tailStartsLine = true;
  private beforeFile: Buffer[] = [];
  private file: WriteStream | undefined;
  private fileError: Error | undefined;
  private readonly counter = newlineCounter();
  totalBytes = 0;
  /** Lines as pi 1.6.0 counts them: the newlines, and one more for a last line that has no newline yet. */
  totalLines = 0;
  private newlines = 0;
  /** Bytes since the last newline. */
  lastLineBytes = 0;

  constructor(private readonly fullOutputPath: string) {}

  append(chunk: Buffer): boolean {
    this.totalBytes += chunk.length;
    this.newlines += countNewlinesIn(this.counter, chunk);
    const lastNewline = chunk.lastIndexOf(10);
    this.lastLineBytes = lastNewline === -1 ? this.lastLineBytes + chunk.length : chunk.length - lastNewline - 1;
    this.totalLines = this.newlines + (this.lastLineBytes > 0 ? 1 : 0);

    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes - this.tail[0].length >= ROLLING_BYTES) {
      const dropped = this.tail.shift()!;
      this.tailBytes -= dropped.length;
      this.tailStartsLine = dropped[dropped.length - 1] === 10;
    }

    if (this.file) return this.file.write(chunk);
    this.beforeFile.push(chunk);
    return this.overLimits() ? this.openFile().writableLength < FILE_BUFFER_BYTES : true;
  }

  /** Resolves once the file has caught up (at once when there is none). */
  drained(): Promise<void> {
    const file = this.file;
    if (!file || !file.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        file.off("drain", done);
        file.off("close", done);
        resolve();
      };
      file.on("drain", done);
      file.on("close", done);
    });
  }

  snapshot(): OutputSnapshot {
    const tail = Buffer.concat(this.tail, this.tailBytes);
    let start = 0;
    if (!this.tailStartsLine) {
      const newline = tail.indexOf(10);
      if (newline !== -1) start = newline + 1;
      else while (start < tail.length && (tail[start] & 0xc0) === 0x80) start++; // one long line: whole characters only
    }
    const kept = truncateTail(tail.subarray(start).toString("utf8"), { maxLines: MAX_LINES, maxBytes: MAX_BYTES });
    const truncated = this.overLimits();
    const truncatedBy = truncated ? (kept.truncatedBy ?? (this.totalBytes > MAX_BYTES ? "bytes" : "lines")) : null;
    return {
      content: kept.content,
      truncation: { ...kept, truncated, truncatedBy, totalLines: this.totalLines, totalBytes: this.totalBytes },
      fullOutputPath: this.file && !this.fileError ? this.fullOutputPath : undefined,
    };
  }

  /** Writes out what the file still buffers; the snapshot after this is final. A failed save only loses the file. */
  async finish(): Promise<void> {
    const file = this.file;
    if (!file || file.closed) return;
    file.end();
    await finished(file).catch((error: Error) => {
      this.fileError = error;
    });
  }

  private overLimits(): boolean {
    return this.totalBytes > MAX_BYTES || this.totalLines > MAX_LINES;
  }

  private openFile(): WriteStream {
    // In the chat's folder, inside Paddock's data folder: the user's alone.
    mkdirSync(dirname(this.fullOutputPath), { recursive: true, mode: 0o700 });
    const file = createWriteStream(this.fullOutputPath, { flags: "wx", mode: 0o600, highWaterMark: FILE_BUFFER_BYTES });
    file.on("error", (error) => {
      this.fileError = error;
    });
    for (const chunk of this.beforeFile) file.write(chunk);
    this.beforeFile = [];
    this.file = file;
    return file;
  }
}
