import type { FileHandle } from "node:fs/promises";
import { Type } from "typebox";
import type { AgentTool, AgentToolResult } from "../../../shared/agent/types";
import { readLineWindow, type LineWindow } from "./file-lines";
import { bmpToPng, dimensionNote, IMAGE_SNIFF_BYTES, prepareImage, sniffImageType, type ReadableImageType } from "./image";
import { formatSize, MAX_BYTES, MAX_LINES } from "./limits";
import { throwIfAborted } from "./abort";
import { openFileForReading } from "./checked-open";
import { UNICODE_SPACES, type WorkspacePaths } from "./workspace-paths";

const parameters = Type.Object({
  path: Type.String({ description: "Path to the file to read (relative or absolute)" }),
  offset: Type.Optional(Type.Number({ description: "Line number to start reading from (1-indexed)" })),
  limit: Type.Optional(Type.Number({ description: "Maximum number of lines to read" })),
});

export interface ReadDetails {
  truncation?: {
    /** Always true: details are only given for truncated output, as pi's. */
    truncated: true;
    truncatedBy: "lines" | "bytes";
    /** Lines shown, and lines in the file (a floor past 1 GB). */
    outputLines: number;
    totalLines: number;
    /** Bytes from the first requested line to the end of the file (pi's, but for a `limit`: pi counts to its end), and bytes shown. */
    totalBytes: number;
    outputBytes: number;
    /** Always false: read shows whole lines only. */
    lastLinePartial: false;
    firstLineExceedsLimit: boolean;
    maxLines: number;
    maxBytes: number;
  };
}

export function readTool(paths: WorkspacePaths): AgentTool<typeof parameters, ReadDetails | undefined> {
  return {
    name: "read",
    label: "read",
    description: `Read the contents of a file. Supports text files and images (jpg, png, gif, webp, bmp). Images are sent as attachments. For text files, output is truncated to ${MAX_LINES} lines or ${MAX_BYTES / 1024}KB (whichever is hit first). Use offset/limit for large files. When you need the full file, continue with offset until complete.`,
    parameters,
    async execute(_id, { path, offset, limit }, signal) {
      throwIfAborted(signal);
      // Only a regular file, opened without blocking, and verified to be where the gate said.
      const file = await openForReading(paths, path);
      try {
        const head = Buffer.alloc(IMAGE_SNIFF_BYTES);
        const { bytesRead } = await file.read(head, 0, head.length, 0);
        const mimeType = sniffImageType(head.subarray(0, bytesRead));
        if (mimeType) {
          const bytes = await file.readFile();
          throwIfAborted(signal);
          return imageResult(bytes, mimeType);
        }
        return await readText(file, path, offset, limit, signal);
      } finally {
        await file.close();
      }
    },
  };
}

/** pi 1.6.0's answer for an image: a note (a BMP says it was converted, a scaled image how) and the image itself. */
function imageResult(bytes: Uint8Array, mimeType: ReadableImageType): AgentToolResult<undefined> {
  const omitted = (why: string) => ({ content: [{ type: "text" as const, text: `Read image file [${mimeType}]\n[Image omitted: ${why}.]` }], details: undefined });
  let sent = bytes;
  const hints: string[] = [];
  if (mimeType === "image/bmp") {
    const png = bmpToPng(bytes);
    if (!png) return omitted("could not be converted to a supported inline image format");
    sent = png;
  }
  const image = prepareImage(sent, mimeType === "image/bmp" ? "image/png" : mimeType);
  if (!image) return omitted("could not be resized below the inline image size limit");
  if (mimeType === "image/bmp") hints.push(`[Image converted from image/bmp to ${image.mimeType}.]`);
  const note = dimensionNote(image);
  if (note) hints.push(note);
  return {
    content: [
      { type: "text", text: [`Read image file [${image.mimeType}]`, ...hints].join("\n") },
      { type: "image", data: image.data, mimeType: image.mimeType },
    ],
    details: undefined,
  };
}

/**
 * Opens `path` as `read` does, through the gate and the checked open. Only when it is missing, pi's other spellings
 * of its name are tried, each through the same gate and checked open (macOS names models mistype): a screenshot's
 * narrow no-break space (U+202F) before AM/PM typed as a plain space, an NFC name for an NFD file and the reverse, a
 * curly apostrophe (U+2019) typed straight and the reverse. The first that exists is read; else the first error.
 */
async function openForReading(paths: WorkspacePaths, path: string): Promise<FileHandle> {
  try {
    return (await openFileForReading(paths, path, await paths.resolveForReading(path))).handle;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    for (const spelling of otherSpellings(path)) {
      try {
        return (await openFileForReading(paths, path, await paths.resolveSpellingForReading(path, spelling))).handle;
      } catch (other) {
        if ((other as NodeJS.ErrnoException).code !== "ENOENT") throw other;
      }
    }
    throw error;
  }
}

/** The spellings `openForReading` tries for a missing `path`, in pi's order (its own, then the reverses), each once. */
export function otherSpellings(path: string): string[] {
  const plain = path.replace(UNICODE_SPACES, " ").replace(/^@/, "");
  const amPm = plain.replace(/ (AM|PM)\./gi, "\u202F$1.");
  const nfd = plain.normalize("NFD");
  const nfc = plain.normalize("NFC");
  const curly = (name: string) => name.replace(/'/g, "\u2019");
  const straight = (name: string) => name.replace(/\u2019/g, "'");
  const spellings = [amPm, nfd, curly(plain), curly(nfd), nfc, straight(plain), straight(nfc), curly(amPm)];
  return [...new Set(spellings)].filter((spelling) => spelling !== plain);
}

async function readText(file: FileHandle, path: string, offset: number | undefined, limit: number | undefined, signal: AbortSignal | undefined) {
  const start = offset ? Math.max(0, Math.floor(offset) - 1) : 0;
  const wanted = limit === undefined ? undefined : Math.max(0, Math.floor(limit));
  const window = await readLineWindow(file, { start, limit: wanted, maxLines: MAX_LINES, maxBytes: MAX_BYTES, signal });
  if (window.totalIsExact && start >= window.totalLines) {
    throw new Error(`Offset ${offset} is beyond end of file (${window.totalLines} lines total)`);
  }
  const size = window.truncatedBy ? (await file.stat()).size : 0;
  return { content: [{ type: "text" as const, text: formatWindow(window, path, start, wanted) }], details: detailsOf(window, size) };
}

/** pi's text for a window of lines: the lines, then what is left and where to continue. */
export function formatWindow(window: LineWindow, path: string, start: number, wanted: number | undefined): string {
  const text = window.lines.join("\n");
  const first = start + 1;
  const last = start + window.lines.length;
  const total = window.totalIsExact ? `${window.totalLines}` : `more than ${window.totalLines}`;
  if (window.firstLineBytes !== undefined) {
    return `[Line ${first} is ${formatSize(window.firstLineBytes)}, exceeds ${formatSize(MAX_BYTES)} limit. Use bash: sed -n '${first}p' ${path} | head -c ${MAX_BYTES}]`;
  }
  if (window.truncatedBy === "lines") return `${text}\n\n[Showing lines ${first}-${last} of ${total}. Use offset=${last + 1} to continue.]`;
  if (window.truncatedBy === "bytes") {
    return `${text}\n\n[Showing lines ${first}-${last} of ${total} (${formatSize(MAX_BYTES)} limit). Use offset=${last + 1} to continue.]`;
  }
  if (wanted !== undefined && (!window.totalIsExact || start + wanted < window.totalLines)) {
    const remaining = window.totalIsExact ? `${window.totalLines - (start + wanted)} more lines` : "More lines";
    return `${text}\n\n[${remaining} in file. Use offset=${start + wanted + 1} to continue.]`;
  }
  return text;
}

function detailsOf(window: LineWindow, size: number): ReadDetails | undefined {
  if (!window.truncatedBy) return undefined;
  return {
    truncation: {
      truncated: true,
      truncatedBy: window.truncatedBy,
      outputLines: window.lines.length,
      totalLines: window.totalLines,
      totalBytes: Math.max(0, size - window.startByte),
      outputBytes: window.outputBytes,
      lastLinePartial: false,
      firstLineExceedsLimit: window.firstLineBytes !== undefined,
      maxLines: MAX_LINES,
      maxBytes: MAX_BYTES,
    },
  };
}
