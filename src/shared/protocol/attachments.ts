/**
 * Attachments: images and text files a user message carries. The bytes live in the session's folder
 * (`<sessionDir>/attachments/<sha256>.<ext>`, written by the worker's AttachmentStore); a message carries only
 * `AttachmentRef`s, so the journal, the mirrors and the event stream stay small however large the files are. The
 * worker loads the bytes when it builds the model's context; pages fetch them with `getAttachment` to show them.
 *
 * The limits and their wording are here, once: the page checks them before uploading (an early, clear error), the
 * worker checks them again (it trusts no page). No typebox here: pages import this module.
 */
import type { UserMessage } from "@earendil-works/pi-ai";
import type { AgentMessage } from "../agent/types";

/** One attached file, as a message records it. */
export interface AttachmentRef {
  /** The file in the session's attachment folder: the SHA-256 of its bytes (hex) and an extension for its kind. */
  id: string;
  /** The file's name as the user gave it (shown, and named to the model); no folders. */
  name: string;
  /** `image/png`, `image/jpeg`, `image/gif`, `image/webp`, or `text/plain` for every text file. */
  mimeType: string;
  /** Bytes. */
  size: number;
}

/** A user message with its attachments (pi-ai's UserMessage plus one field; absent: none). */
export type UserMessageWithAttachments = UserMessage & { attachments?: AttachmentRef[] };

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const MAX_TEXT_FILE_BYTES = 1024 * 1024;
export const MAX_ATTACHMENTS = 8;
export const MAX_ATTACHMENT_NAME_CHARS = 255;

/** The image types every image-reading provider takes, with the extension their files get. */
export const IMAGE_TYPES: Readonly<Record<string, string>> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
};
export const TEXT_MIME_TYPE = "text/plain";
const EXTENSION_TYPES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(IMAGE_TYPES).map(([mime, ext]) => [ext, mime])),
  txt: TEXT_MIME_TYPE,
};

/** What an attachment id looks like; nothing else is ever opened in the attachment folder. */
export const ATTACHMENT_ID_PATTERN = "^[0-9a-f]{64}\\.(png|jpg|gif|webp|txt)$";
const ATTACHMENT_ID = new RegExp(ATTACHMENT_ID_PATTERN);

/** Base64 characters of the largest upload (an image at the limit): what the session channel must carry at once. */
export const MAX_ATTACHMENT_BASE64_CHARS = 4 * Math.ceil(MAX_IMAGE_BYTES / 3);

export type AttachmentKind = "image" | "text";

export function isAttachmentId(id: unknown): id is string {
  return typeof id === "string" && ATTACHMENT_ID.test(id);
}

/** The mime type an attachment id stands for (its extension decides); undefined for anything not an id. */
export function attachmentMimeType(id: string): string | undefined {
  return isAttachmentId(id) ? EXTENSION_TYPES[id.slice(id.lastIndexOf(".") + 1)] : undefined;
}

export function attachmentKind(ref: Pick<AttachmentRef, "mimeType">): AttachmentKind {
  return ref.mimeType === TEXT_MIME_TYPE ? "text" : "image";
}

/** Whether `mimeType` is an image type that can be sent as an image (others are refused or read as text). */
export function isSendableImageType(mimeType: string): boolean {
  return Object.prototype.hasOwnProperty.call(IMAGE_TYPES, mimeType);
}

/**
 * The attachments a message carries (none for anything but a user message with some). Entries that are not refs (a
 * damaged transcript) are left out, so callers can trust every field.
 */
export function attachmentsOf(message: AgentMessage | undefined): readonly AttachmentRef[] {
  if (message?.role !== "user") return NONE;
  const list: unknown = (message as UserMessageWithAttachments).attachments;
  if (!Array.isArray(list)) return NONE;
  return list.every(isAttachmentRef) ? list : list.filter(isAttachmentRef);
}
const NONE: readonly AttachmentRef[] = Object.freeze([]);

export function isAttachmentRef(value: unknown): value is AttachmentRef {
  if (typeof value !== "object" || value === null) return false;
  const ref = value as Record<string, unknown>;
  return isAttachmentId(ref.id) && typeof ref.name === "string" && typeof ref.mimeType === "string" && Number.isInteger(ref.size);
}

/** Why a file of this kind and size cannot be attached, or undefined when it can. */
export function sizeProblem(kind: AttachmentKind, name: string, size: number): string | undefined {
  const limit = kind === "image" ? MAX_IMAGE_BYTES : MAX_TEXT_FILE_BYTES;
  if (size <= limit) return undefined;
  // Just over the limit rounds to it: "is 10 MB: ... at most 10 MB" would read as no problem at all.
  const shown = formatBytes(size) === formatBytes(limit) ? `more than ${formatBytes(limit)}` : formatBytes(size);
  return `${name} is ${shown}: ${kind === "image" ? "images" : "text files"} can be at most ${formatBytes(limit)}.`;
}

export const TOO_MANY_ATTACHMENTS = `A message can carry at most ${MAX_ATTACHMENTS} attachments.`;
export const UNSUPPORTED_FILE = "only PNG, JPEG, GIF and WebP images and text files can be attached";

/** The refusal when a message with images goes to a model that reads text only. */
export function imagesRefused(modelName: string): string {
  return `${modelName} does not read images: remove the images, or choose a model that does.`;
}

/** Whether a model reads images (pi-ai's `input`). */
export function readsImages(model: { input?: readonly string[] } | undefined): boolean {
  return Array.isArray(model?.input) && model.input.includes("image");
}

/**
 * A file name as attachments keep it, without control characters, at most 255 characters: a workspace path as the
 * composer's `@` gives it (relative, "/" separators, no "." or ".." parts: "src/csv.ts", a folder "src/") is kept
 * whole, so the model is told where the file is; anything else keeps its last path segment only.
 */
export function attachmentName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  const parts = clean.split("/");
  const relative = !clean.includes("\\") && parts.length > 1 && parts[0] !== "" && parts.every((p, i) => (p !== "" || i === parts.length - 1) && p !== "." && p !== "..");
  const base = relative ? clean.slice(-MAX_ATTACHMENT_NAME_CHARS) : (clean.split(/[\\/]/).pop() ?? "").trim();
  return base.slice(0, MAX_ATTACHMENT_NAME_CHARS) || "attachment";
}

/** "812 bytes", "14.2 KB", "3.4 MB" (binary units, as file managers show sizes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
  if (bytes < 1024 * 1024) return `${trim(bytes / 1024)} KB`;
  return `${trim(bytes / (1024 * 1024))} MB`;
}

function trim(value: number): string {
  return value >= 100 || Number.isInteger(value) ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, "");
}
