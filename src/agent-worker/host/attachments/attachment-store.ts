/**
 * A session's attachments on disk: `<sessionDir>/attachments/<sha256>.<ext>`, one file per distinct content, written
 * once and never changed. Messages carry only `AttachmentRef`s (attachments.ts); this store checks what pages upload,
 * checks the refs a message brings, and reads the bytes back (verified against their hash) for the model and pages.
 *
 * Contract: nothing outside the attachment folder is ever opened (ids are checked against one pattern); a file is
 * renamed into place only once it is whole and flushed, so a crash leaves either the whole file or none; bad input
 * is refused with a readable Error and writes nothing.
 */
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomically } from "../../../shared-node/atomic-write";
import {
  attachmentMimeType,
  attachmentName,
  IMAGE_TYPES,
  isAttachmentId,
  isSendableImageType,
  MAX_ATTACHMENTS,
  sizeProblem,
  TEXT_MIME_TYPE,
  TOO_MANY_ATTACHMENTS,
  UNSUPPORTED_FILE,
  type AttachmentRef,
} from "../../../shared/protocol/attachments";

/** Decoded attachments kept in memory for the next model requests (every request sends the whole context). */
const CACHE_BYTES = 64 * 1024 * 1024;

export class AttachmentStore {
  /** base64 of recently read files, by id, oldest first (a Map keeps insertion order). */
  private readonly cache = new Map<string, string>();
  private cachedBytes = 0;

  constructor(readonly folder: string) {}

  /**
   * Checks and stores an upload; see SessionApi.putAttachment. An image must be one of the four types by its bytes
   * (its declared type must be an image type); anything else is a text file and must be UTF-8 without NUL bytes.
   * Storing the same bytes again returns the same id and writes nothing.
   */
  async put(name: string, declaredType: string, base64: string): Promise<AttachmentRef> {
    const shown = attachmentName(name);
    const bytes = Buffer.from(base64, "base64");
    if (!wholeBase64(base64, bytes.length)) throw new Error(`${shown}: the upload is not valid base64.`);
    const image = declaredType.startsWith("image/") && isSendableImageType(declaredType);
    const problem = sizeProblem(image ? "image" : "text", shown, bytes.length);
    if (problem) throw new Error(problem);
    let mimeType: string;
    if (image) {
      const sniffed = imageType(bytes);
      if (!sniffed) throw new Error(`${shown} is not a PNG, JPEG, GIF or WebP image (its bytes say otherwise).`);
      mimeType = sniffed;
    } else {
      if (!isText(bytes)) throw new Error(`${shown} cannot be attached: ${UNSUPPORTED_FILE}.`);
      mimeType = TEXT_MIME_TYPE;
    }
    const id = `${createHash("sha256").update(bytes).digest("hex")}.${mimeType === TEXT_MIME_TYPE ? "txt" : IMAGE_TYPES[mimeType]}`;
    const file = join(this.folder, id);
    if ((await sizeOf(file)) !== bytes.length) await this.write(file, bytes);
    this.remember(id, base64);
    return { id, name: shown, mimeType, size: bytes.length };
  }

  /**
   * The refs a message brings, checked: at most MAX_ATTACHMENTS, each stored here with its size. Returns them as
   * kept (the type the id stands for, the name cleaned); rejects naming the first that is not.
   */
  async check(refs: readonly AttachmentRef[]): Promise<AttachmentRef[]> {
    if (refs.length > MAX_ATTACHMENTS) throw new Error(TOO_MANY_ATTACHMENTS);
    const checked: AttachmentRef[] = [];
    for (const ref of refs) {
      const mimeType = attachmentMimeType(ref.id);
      const size = mimeType ? await sizeOf(join(this.folder, ref.id)) : undefined;
      if (!mimeType || size === undefined || size !== ref.size) {
        throw new Error(`${attachmentName(ref.name)} is not stored in this chat: attach it again.`);
      }
      checked.push({ id: ref.id, name: attachmentName(ref.name), mimeType, size });
    }
    return checked;
  }

  /**
   * A stored attachment's bytes in base64. Rejects when the id is not one, the file is gone, or its bytes no longer
   * match its hash (a damaged file is never sent on as if it were the original).
   */
  async read(id: string): Promise<string> {
    const cached = this.cache.get(id);
    if (cached !== undefined) {
      this.cache.delete(id); // most recently used goes last
      this.cache.set(id, cached);
      return cached;
    }
    if (!isAttachmentId(id)) throw new Error(`Not an attachment id: ${JSON.stringify(id).slice(0, 80)}`);
    let bytes: Buffer;
    try {
      bytes = await readFile(join(this.folder, id));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new Error("The attachment is missing from this chat's folder.", { cause: error });
      throw error;
    }
    if (createHash("sha256").update(bytes).digest("hex") !== id.slice(0, 64)) throw new Error("The attachment's file is damaged.");
    const base64 = bytes.toString("base64");
    this.remember(id, base64);
    return base64;
  }

  /** Writes next to the target, flushes, then renames: readers see the whole file or none. */
  private async write(file: string, bytes: Buffer): Promise<void> {
    await writeFileAtomically(file, bytes);
  }

  private remember(id: string, base64: string): void {
    if (this.cache.has(id) || base64.length > CACHE_BYTES) return;
    this.cache.set(id, base64);
    this.cachedBytes += base64.length;
    for (const [oldest, data] of this.cache) {
      if (this.cachedBytes <= CACHE_BYTES) break;
      this.cache.delete(oldest);
      this.cachedBytes -= data.length;
    }
  }
}

/**
 * Whether `base64` decoded to `decoded` bytes with nothing skipped. Node's decoder passes over characters outside the
 * alphabet (and stops at padding), so any such character leaves fewer bytes than the length promises: checking the
 * count costs nothing, where a regular expression over 14 M characters took ~75 ms.
 */
function wholeBase64(base64: string, decoded: number): boolean {
  if (base64.length % 4 !== 0) return false;
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return decoded === (base64.length / 4) * 3 - padding;
}

/** The image type the bytes are, by their signature; undefined for anything else. */
export function imageType(bytes: Uint8Array): string | undefined {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 8 && bytes[0] === 0x89 && ascii(1, 4) === "PNG" && bytes[4] === 0x0d && bytes[5] === 0x0a && bytes[6] === 0x1a && bytes[7] === 0x0a) return "image/png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (bytes.length >= 6 && (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a")) return "image/gif";
  if (bytes.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  return undefined;
}

/** Whether the bytes are UTF-8 text (no NUL: a binary file that happens to decode is not text). */
export function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

async function sizeOf(file: string): Promise<number | undefined> {
  try {
    const info = await stat(file);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}
