/**
 * Files the user attaches, in the page: what kind each is, whether it may be attached (the limits in
 * shared/protocol/attachments.ts, checked here first so the user hears at once, and again by the worker), and their
 * bytes in base64 for the upload. Only APIs browsers and Node share (Blob, TextDecoder, btoa); no React.
 */
import {
  attachmentKind,
  isSendableImageType,
  MAX_ATTACHMENTS,
  MAX_TEXT_FILE_BYTES,
  sizeProblem,
  TEXT_MIME_TYPE,
  TOO_MANY_ATTACHMENTS,
  UNSUPPORTED_FILE,
  type AttachmentKind,
  type AttachmentRef,
} from "../../../shared/protocol/attachments";

/** A file in the composer, not sent yet. */
export interface PendingAttachment {
  /** Unique in the composer (React key, removal). */
  key: string;
  name: string;
  kind: AttachmentKind;
  /** The image's type, or text/plain. */
  mimeType: string;
  size: number;
  file: Blob;
  /** Stored in the session already (a workspace file the worker read for the composer's `@`): sent as it is, not uploaded. */
  stored?: AttachmentRef;
}

/** Enough of a File: tests pass plain Blobs with a name. */
export type FileLike = Blob & { name: string };

let nextKey = 0;

/**
 * The files that may join `already` attachments, and a sentence for each that may not (too large, not an image or
 * text, one too many). Reads a text file's bytes to be sure it is UTF-8; never rejects.
 */
export async function acceptFiles(files: readonly FileLike[], already: number): Promise<{ accepted: PendingAttachment[]; problems: string[] }> {
  const accepted: PendingAttachment[] = [];
  const problems: string[] = [];
  for (const file of files) {
    const kind = await kindOf(file);
    const problem = kind === undefined ? `${file.name || "This file"} cannot be attached: ${UNSUPPORTED_FILE}.` : sizeProblem(kind, file.name, file.size);
    if (problem !== undefined || kind === undefined) problems.push(problem ?? UNSUPPORTED_FILE);
    else if (already + accepted.length >= MAX_ATTACHMENTS) {
      if (!problems.includes(TOO_MANY_ATTACHMENTS)) problems.push(TOO_MANY_ATTACHMENTS);
    } else {
      accepted.push({ key: `a${++nextKey}`, name: file.name || (kind === "image" ? "image" : "file.txt"), kind, mimeType: kind === "image" ? file.type : TEXT_MIME_TYPE, size: file.size, file });
    }
  }
  return { accepted, problems };
}

/** A file the session stored already (`@`'s workspace file) as the composer holds it; `file`: its bytes, for a thumbnail. */
export function storedAttachment(ref: AttachmentRef, file: Blob): PendingAttachment {
  return { key: `a${++nextKey}`, name: ref.name, kind: attachmentKind(ref), mimeType: ref.mimeType, size: ref.size, file, stored: ref };
}

/**
 * "image" for the four image types; "text" for a file whose bytes are UTF-8 without NUL (judged by its start when it
 * is too large to attach anyway, so the size is what the user hears about); undefined for anything else.
 */
export async function kindOf(file: Blob): Promise<AttachmentKind | undefined> {
  if (isSendableImageType(file.type)) return "image";
  const whole = file.size <= MAX_TEXT_FILE_BYTES;
  const bytes = new Uint8Array(await (whole ? file : file.slice(0, 64 * 1024)).arrayBuffer());
  return looksLikeText(bytes, !whole) ? "text" : undefined;
}

/** UTF-8 without NUL bytes; `truncated`: the bytes may end inside a character. */
export function looksLikeText(bytes: Uint8Array, truncated = false): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: truncated });
    return true;
  } catch {
    return false;
  }
}

/** The blob's bytes in base64 (a 10 MB image takes some tens of milliseconds). */
export async function readBase64(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  const parts: string[] = [];
  // In slices: String.fromCharCode takes its arguments on the stack; a multiple of 3 keeps each slice's base64 whole.
  for (let i = 0; i < bytes.length; i += 3 * 16_384) parts.push(btoa(String.fromCharCode(...bytes.subarray(i, i + 3 * 16_384))));
  return parts.join("");
}

/** Bytes from base64 (what getAttachment returns), as a Blob of `mimeType`. */
export function base64Blob(data: string, mimeType: string): Blob {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Blob([bytes], { type: mimeType });
}

/**
 * Stores the files in the session, one call each (a frame carries one large file at most), and returns their refs
 * in order; `stored` learns each file's id with its bytes (so the sent message shows them without a fetch).
 * Rejects with the first refusal (the worker names the file and the reason).
 */
export async function uploadAttachments(
  files: readonly PendingAttachment[],
  put: (name: string, mimeType: string, data: string) => Promise<AttachmentRef>,
  stored?: (id: string, file: Blob) => void,
): Promise<AttachmentRef[]> {
  const refs: AttachmentRef[] = [];
  for (const file of files) {
    if (file.stored) {
      refs.push(file.stored);
      continue;
    }
    const ref = await put(file.name, file.mimeType, await readBase64(file.file));
    stored?.(ref.id, file.file);
    refs.push(ref);
  }
  return refs;
}
