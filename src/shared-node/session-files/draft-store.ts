/**
 * Chats' drafts on disk (shared/protocol/drafts.ts): `<sessionDir>/draft.json`, written by main only. The page saves
 * a chat's draft a moment after each change (debounced there); this store checks it, writes it atomically (a temp
 * file flushed, then renamed: a crash leaves the old draft or the new one, never half of one) and one write after
 * another per chat (the last save wins, whatever order the disk finishes in). An empty draft removes the file.
 *
 * Reading never fails: a missing, unreadable, oversized or corrupt file is an empty draft (the user's other chats,
 * and this one's messages, are untouched), and refs to attachment files that are gone are dropped.
 */
import { rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { attachmentMimeType, attachmentName, isAttachmentRef, MAX_ATTACHMENTS, TOO_MANY_ATTACHMENTS, type AttachmentRef } from "../../shared/protocol/attachments";
import { DRAFT_TOO_LONG, EMPTY_DRAFT, isEmptyDraft, MAX_DRAFT_TEXT_CHARS, type ChatDraft } from "../../shared/protocol/drafts";
import { readRegularFile } from "../regular-file";
import { writeFileAtomically } from "../atomic-write";
import { attachmentsDir } from "./session-folder";

/** The draft's file in the session's folder. */
export const draftFile = (sessionDir: string): string => join(sessionDir, "draft.json");

/** The largest draft file read (text at its limit is at most ~6 MB as JSON, refs are small). */
export const MAX_DRAFT_FILE_BYTES = 8 * 1024 * 1024;

export class DraftStore {
  /** The write in progress (or last) per draft file: the next waits for it. */
  private readonly writes = new Map<string, Promise<void>>();

  /** The session's draft; EMPTY_DRAFT when there is none or it cannot be read. Never rejects. */
  async read(sessionDir: string): Promise<ChatDraft> {
    const file = draftFile(sessionDir);
    await this.writes.get(file)?.catch(() => undefined);
    const found = await readRegularFile(file, { maxBytes: MAX_DRAFT_FILE_BYTES }).catch(() => undefined);
    if (!found?.ok) return EMPTY_DRAFT;
    let value: unknown;
    try {
      value = JSON.parse(found.bytes.toString("utf8"));
    } catch {
      return EMPTY_DRAFT;
    }
    if (typeof value !== "object" || value === null) return EMPTY_DRAFT;
    const { text, attachments } = value as Record<string, unknown>;
    const refs = Array.isArray(attachments) ? attachments.filter(isAttachmentRef).slice(0, MAX_ATTACHMENTS) : [];
    const kept: AttachmentRef[] = [];
    for (const ref of refs) if (await storedSize(sessionDir, ref.id) === ref.size) kept.push(cleanRef(ref));
    return { text: typeof text === "string" ? text.slice(0, MAX_DRAFT_TEXT_CHARS) : "", attachments: kept };
  }

  /**
   * Keeps `draft` as the session's draft (empty: removes it). Rejects with a readable Error, keeping the draft saved
   * before, when the text is too long, there are too many files, or a file is not stored in the chat's attachment
   * folder with that size.
   */
  async write(sessionDir: string, draft: ChatDraft): Promise<void> {
    const file = draftFile(sessionDir);
    // In call order, checks included: the draft saved last is the one kept.
    const next = (this.writes.get(file) ?? Promise.resolve()).catch(() => undefined).then(async () => {
      const refs = await checkedDraft(sessionDir, draft);
      if (isEmptyDraft({ text: draft.text, attachments: refs })) await rm(file, { force: true });
      else await writeFileAtomically(file, JSON.stringify({ text: draft.text, attachments: refs }));
    });
    this.writes.set(file, next);
    try {
      await next;
    } finally {
      if (this.writes.get(file) === next) this.writes.delete(file);
    }
  }
}

/** The draft's refs as kept; rejects naming the first problem. */
async function checkedDraft(sessionDir: string, draft: ChatDraft): Promise<AttachmentRef[]> {
  if (draft.text.length > MAX_DRAFT_TEXT_CHARS) throw new Error(DRAFT_TOO_LONG);
  if (draft.attachments.length > MAX_ATTACHMENTS) throw new Error(TOO_MANY_ATTACHMENTS);
  const refs: AttachmentRef[] = [];
  for (const ref of draft.attachments) {
    if (!attachmentMimeType(ref.id) || (await storedSize(sessionDir, ref.id)) !== ref.size) {
      throw new Error(`${attachmentName(ref.name)} is not stored in this chat: attach it again.`);
    }
    refs.push(cleanRef(ref));
  }
  return refs;
}

function cleanRef(ref: AttachmentRef): AttachmentRef {
  return { id: ref.id, name: attachmentName(ref.name), mimeType: attachmentMimeType(ref.id)!, size: ref.size };
}

async function storedSize(sessionDir: string, id: string): Promise<number | undefined> {
  if (!attachmentMimeType(id)) return undefined;
  try {
    const info = await stat(join(attachmentsDir(sessionDir), id));
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}

