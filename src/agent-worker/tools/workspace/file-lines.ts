import type { FileHandle } from "node:fs/promises";
import { COUNTER_CHUNK, newlineCounter } from "./count-newlines";

/** Past this many bytes the total line count is not worth the wait (a cold 10 GB log): it is reported as a floor. */
export const LINE_COUNT_CAP_BYTES = 1024 * 1024 * 1024;

export interface LineWindowRequest {
  /** First line to show, 0-based. */
  start: number;
  /** Most lines the caller asked for (pi's `limit`); undefined for "to the end". */
  limit?: number;
  /** The head truncation's limits. */
  maxLines: number;
  maxBytes: number;
  /** Bytes past which the total is not counted further (default LINE_COUNT_CAP_BYTES). */
  countCapBytes?: number;
  signal?: AbortSignal;
}

export interface LineWindow {
  /** Lines in the file as pi counts them (newlines + 1); a floor when `totalIsExact` is false. */
  totalLines: number;
  totalIsExact: boolean;
  /** The lines shown, in order, without their "\n". */
  lines: string[];
  /** The requested lines (up to `limit`, or to the end) did not fit the truncation limits. */
  truncatedBy: "lines" | "bytes" | null;
  /** Bytes of the lines shown, joined by "\n" (pi's `outputBytes`). */
  outputBytes: number;
  /** Where the first requested line starts in the file (its size when the file has fewer lines). */
  startByte: number;
  /** Set when the first requested line alone is over `maxBytes` (then `lines` is empty): its size. */
  firstLineBytes?: number;
}

/**
 * Reads only what it shows: the file goes by in 1 MiB chunks, lines are taken until the window is full, and the rest
 * is only counted (for pi's "of N" marker). The first 2,000 lines of a 100 MB file cost a few ms and at most about
 * 100 KB of memory. The window follows pi's head truncation exactly: whole lines, the line limit and the byte limit
 * (newlines between lines included), whichever comes first; a first line over the byte limit shows nothing.
 */
export async function readLineWindow(file: FileHandle, request: LineWindowRequest): Promise<LineWindow> {
  const { start, limit = Number.POSITIVE_INFINITY, maxLines, maxBytes, countCapBytes = LINE_COUNT_CAP_BYTES, signal } = request;
  const counter = newlineCounter();
  const chunk = Buffer.from(counter.buffer.buffer, counter.buffer.byteOffset, COUNTER_CHUNK);

  let line = 0; // newlines passed so far: the index of the line being read
  let position = 0;
  let collecting = false;
  let settled = limit <= 0; // the window is decided; the rest of the file is only counted
  const lines: string[] = [];
  let keptBytes = 0;
  let pieces: Buffer[] = []; // the line being read, while it can still fit
  let lineBytes = 0;
  let truncatedBy: LineWindow["truncatedBy"] = null;
  let firstLineBytes: number | undefined;
  let startByte = start === 0 ? 0 : -1;

  const endLine = () => {
    const cost = lineBytes + (lines.length > 0 ? 1 : 0);
    if (lines.length >= limit) settled = true;
    else if (lines.length === 0 && lineBytes > maxBytes) [settled, truncatedBy, firstLineBytes] = [true, "bytes", lineBytes];
    else if (lines.length >= maxLines) [settled, truncatedBy] = [true, "lines"];
    else if (keptBytes + cost > maxBytes) [settled, truncatedBy] = [true, "bytes"];
    else {
      lines.push(Buffer.concat(pieces, lineBytes).toString("utf8"));
      keptBytes += cost;
    }
    pieces = [];
    lineBytes = 0;
  };

  for (;;) {
    if (signal?.aborted) throw new Error("Operation aborted");
    if (settled && position >= countCapBytes) return { totalLines: line + 1, totalIsExact: false, lines, truncatedBy, firstLineBytes, outputBytes: keptBytes, startByte };
    const { bytesRead } = await file.read(chunk, 0, COUNTER_CHUNK, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const view = chunk.subarray(0, bytesRead);
    let at = 0;

    if (!collecting) {
      const newlines = counter.count(bytesRead);
      if (settled || line + newlines < start) {
        line += newlines;
        continue;
      }
      while (line < start) {
        at = view.indexOf(10, at) + 1;
        line++;
      }
      startByte = position - bytesRead + at;
      collecting = true;
    }
    if (settled) {
      line += counter.count(bytesRead) - counter.count(at);
      continue;
    }
    for (;;) {
      const newline = view.indexOf(10, at);
      const end = newline === -1 ? bytesRead : newline;
      if (lineBytes + (end - at) <= maxBytes) pieces.push(Buffer.from(view.subarray(at, end)));
      lineBytes += end - at;
      if (newline === -1) break;
      endLine();
      line++;
      at = end + 1;
      if (settled) {
        line += counter.count(bytesRead) - counter.count(at);
        break;
      }
    }
  }
  if (collecting && !settled) endLine();
  return { totalLines: line + 1, totalIsExact: true, lines, truncatedBy, firstLineBytes, outputBytes: keptBytes, startByte: startByte < 0 ? position : startByte };
}
