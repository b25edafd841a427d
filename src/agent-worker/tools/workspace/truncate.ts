import { GREP_MAX_LINE_CHARS, MAX_BYTES, MAX_LINES } from "./limits";

/** What a truncation kept, in pi's shape (tools put it in `details.truncation`). */
export interface Truncation {
  content: string;
  truncated: boolean;
  truncatedBy: "lines" | "bytes" | null;
  totalLines: number;
  totalBytes: number;
  outputLines: number;
  outputBytes: number;
  /** Tail truncation only: the one line shown is the end of a line longer than the byte limit. */
  lastLinePartial: boolean;
  /** Head truncation only: the first line alone is over the byte limit, so nothing is shown. */
  firstLineExceedsLimit: boolean;
  maxLines: number;
  maxBytes: number;
}

export interface TruncationLimits {
  maxLines?: number;
  maxBytes?: number;
}

const byteLength = (text: string) => Buffer.byteLength(text, "utf8");

/**
 * Lines as pi 1.6.0 counts them: a final newline ends the last line rather than starting an empty one, and empty
 * text has none. So "a\nb\n" is two lines, and a command printing 3,000 lines shows lines 1001-3000.
 */
function linesOf(content: string): string[] {
  if (content.length === 0) return [];
  const lines = content.split("\n");
  if (content.endsWith("\n")) lines.pop();
  return lines;
}

function untruncated(content: string, lines: number, bytes: number, maxLines: number, maxBytes: number): Truncation {
  return {
    content,
    truncated: false,
    truncatedBy: null,
    totalLines: lines,
    totalBytes: bytes,
    outputLines: lines,
    outputBytes: bytes,
    lastLinePartial: false,
    firstLineExceedsLimit: false,
    maxLines,
    maxBytes,
  };
}

/** Keeps whole lines from the start: file reads and listings, where the beginning matters. */
export function truncateHead(content: string, limits: TruncationLimits = {}): Truncation {
  const maxLines = limits.maxLines ?? MAX_LINES;
  const maxBytes = limits.maxBytes ?? MAX_BYTES;
  const totalBytes = byteLength(content);
  const lines = linesOf(content);
  if (lines.length <= maxLines && totalBytes <= maxBytes) return untruncated(content, lines.length, totalBytes, maxLines, maxBytes);

  const base = { truncated: true, totalLines: lines.length, totalBytes, lastLinePartial: false, maxLines, maxBytes };
  if (byteLength(lines[0]) > maxBytes) {
    return { ...base, content: "", truncatedBy: "bytes", outputLines: 0, outputBytes: 0, firstLineExceedsLimit: true };
  }
  let bytes = 0;
  let count = 0;
  let truncatedBy: "lines" | "bytes" = "lines";
  while (count < lines.length && count < maxLines) {
    const lineBytes = byteLength(lines[count]) + (count > 0 ? 1 : 0);
    if (bytes + lineBytes > maxBytes) {
      truncatedBy = "bytes";
      break;
    }
    bytes += lineBytes;
    count++;
  }
  if (count >= maxLines) truncatedBy = "lines";
  const kept = lines.slice(0, count).join("\n");
  return { ...base, content: kept, truncatedBy, outputLines: count, outputBytes: byteLength(kept), firstLineExceedsLimit: false };
}

/** Keeps whole lines from the end (the end of a single over-long line if need be): command output. */
export function truncateTail(content: string, limits: TruncationLimits = {}): Truncation {
  const maxLines = limits.maxLines ?? MAX_LINES;
  const maxBytes = limits.maxBytes ?? MAX_BYTES;
  const totalBytes = byteLength(content);
  const lines = linesOf(content);
  if (lines.length <= maxLines && totalBytes <= maxBytes) return untruncated(content, lines.length, totalBytes, maxLines, maxBytes);

  const kept: string[] = [];
  let bytes = 0;
  let truncatedBy: "lines" | "bytes" = "lines";
  let lastLinePartial = false;
  for (let i = lines.length - 1; i >= 0 && kept.length < maxLines; i--) {
    const lineBytes = byteLength(lines[i]) + (kept.length > 0 ? 1 : 0);
    if (bytes + lineBytes > maxBytes) {
      truncatedBy = "bytes";
      if (kept.length === 0) {
        kept.push(endOfStringInBytes(lines[i], maxBytes));
        lastLinePartial = true;
      }
      break;
    }
    kept.unshift(lines[i]);
    bytes += lineBytes;
  }
  if (kept.length >= maxLines && bytes <= maxBytes) truncatedBy = "lines";
  const text = kept.join("\n");
  return {
    content: text,
    truncated: true,
    truncatedBy,
    totalLines: lines.length,
    totalBytes,
    outputLines: kept.length,
    outputBytes: byteLength(text),
    lastLinePartial,
    firstLineExceedsLimit: false,
    maxLines,
    maxBytes,
  };
}

/** The last `maxBytes` bytes of `text`, starting on a whole UTF-8 character. */
function endOfStringInBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  let start = bytes.length - maxBytes;
  while (start < bytes.length && (bytes[start] & 0xc0) === 0x80) start++;
  return bytes.subarray(start).toString("utf8");
}

/** One grep line, cut to `maxChars` with pi's marker. */
export function truncateLine(line: string, maxChars = GREP_MAX_LINE_CHARS): { text: string; wasTruncated: boolean } {
  if (line.length <= maxChars) return { text: line, wasTruncated: false };
  return { text: `${line.slice(0, maxChars)}... [truncated]`, wasTruncated: true };
}
