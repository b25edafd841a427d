/**
 * The page's side of chats' drafts (shared/protocol/drafts.ts): each chat's draft held in memory, so switching back
 * to a chat puts it on screen at once, and saved to main a moment after the user stops typing (main keeps it in the
 * chat's folder, for reloads and restarts). Files are stored in the chat's attachment folder first (the session's
 * `putAttachment`, once per file), and the draft names them. One save at a time per chat, the newest draft each time;
 * an empty draft (sent, or emptied by hand) is saved at once.
 *
 * Several windows on one chat follow the last edit: main tells every page of each save (DraftEvent); a page takes
 * another's draft (`remote`) unless it holds a newer edit of its own (not saved yet, or being saved: its save comes
 * after, and the other window then takes it). Its own saves are never taken back, so the window being typed in has
 * no echo and no caret jump. No React here: Node tests drive it.
 */
import type { AppApi } from "../../../shared/protocol/app-api";
import { attachmentKind, type AttachmentRef } from "../../../shared/protocol/attachments";
import type { ChatDraft, DraftEvent } from "../../../shared/protocol/drafts";
import { errorText } from "../../../shared/error-text";
import { base64Blob, readBase64, type PendingAttachment } from "../attachments/attachment-files";

/** A draft as the composer holds it: the text, and the files with their bytes. */
export interface PageDraft {
  text: string;
  items: readonly PendingAttachment[];
  /** Files of the stored draft not fetched yet (the chat was not connected): kept in the draft as they are. */
  unfetched?: readonly AttachmentRef[];
}

/** The chat's session calls a draft's files need (its attachment folder). */
export interface DraftFiles {
  put(name: string, mimeType: string, data: string): Promise<AttachmentRef>;
  get(id: string): Promise<{ mimeType: string; data: string }>;
}

/** How long after the last change a draft is saved. */
export const DRAFT_SAVE_DELAY_MS = 400;

type DraftApi = Pick<AppApi, "getDraft" | "saveDraft">;

let nextKey = 0;

export class DraftCache {
  private readonly drafts = new Map<string, PageDraft>();
  /** Chats whose draft changed since it was last saved, with the calls for their files. */
  private readonly unsaved = new Map<string, DraftFiles | undefined>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly saving = new Map<string, Promise<void>>();
  /** Each file's ref once stored in its chat (content-addressed: storing the same bytes again gives the same ref). */
  private readonly refs = new WeakMap<Blob, AttachmentRef>();
  private readonly problemListeners = new Set<(sessionId: string, problem: string | undefined) => void>();
  private readonly remoteListeners = new Set<(sessionId: string) => void>();
  /** Per chat, the revision of the draft this page holds as saved (its own save's, or one it took); unknown: none. */
  private readonly revisions = new Map<string, number>();
  /** Another window's draft that came while this page had an edit of its own on the way: decided once that is saved. */
  private readonly waiting = new Map<string, DraftEvent>();
  /** This page's id in main's draft events (`saveDraft`'s writer). */
  readonly writer: string;

  constructor(private readonly app: DraftApi, private readonly delayMs = DRAFT_SAVE_DELAY_MS, writer?: string) {
    this.writer = writer ?? `page-${Math.random().toString(36).slice(2, 12)}-${Date.now().toString(36)}`;
  }

  /** The chat's draft if this page holds it (instant), else undefined: `load` it. */
  cached(sessionId: string): PageDraft | undefined {
    return this.drafts.get(sessionId);
  }

  /**
   * The chat's draft from main (its files named, to `fetchFiles` once the chat is connected); held from then on. A
   * draft this page already holds is answered as is.
   */
  async load(sessionId: string): Promise<PageDraft> {
    const held = this.drafts.get(sessionId);
    if (held) return held;
    const stored = await this.app.getDraft(sessionId);
    // The user may have typed meanwhile (a change held first wins: the composer merged it).
    const now = this.drafts.get(sessionId);
    if (now) return now;
    const draft: PageDraft = { text: stored.text, items: [], unfetched: stored.attachments };
    this.drafts.set(sessionId, draft);
    return draft;
  }

  /**
   * Fetches the held draft's files not fetched yet and puts them first in its list; resolves them (none when there
   * were none). A file that cannot be fetched (gone from the chat's folder) is left out.
   */
  async fetchFiles(sessionId: string, files: DraftFiles): Promise<PendingAttachment[]> {
    const refs = this.drafts.get(sessionId)?.unfetched ?? [];
    if (refs.length === 0) return [];
    const fetched: PendingAttachment[] = [];
    for (const ref of refs) {
      const got = await files.get(ref.id).catch(() => undefined);
      if (!got) continue;
      const file = base64Blob(got.data, ref.mimeType);
      this.refs.set(file, ref);
      fetched.push({ key: `d${++nextKey}`, name: ref.name, kind: attachmentKind(ref), mimeType: ref.mimeType, size: ref.size, file });
    }
    const now = this.drafts.get(sessionId);
    if (!now || now.unfetched !== refs) return [];
    this.drafts.set(sessionId, { text: now.text, items: [...fetched, ...now.items] });
    return fetched;
  }

  /**
   * Text typed in a chat's box before its stored draft had loaded, the chat then left: it goes after the stored text
   * and is saved, so neither is lost.
   */
  async keepTyped(sessionId: string, text: string): Promise<void> {
    const held = await this.load(sessionId).catch(() => undefined);
    const now = this.drafts.get(sessionId) ?? held ?? { text: "", items: [] };
    this.change(sessionId, { text: now.text ? `${now.text}\n${text}` : text, items: now.items }, undefined);
    await this.flush(sessionId);
  }

  /** The composer's draft changed: held now, saved a moment later (at once when it is empty). */
  change(sessionId: string, draft: PageDraft, files: DraftFiles | undefined): void {
    const held = this.drafts.get(sessionId);
    if (held && held.text === draft.text && sameItems(held.items, draft.items)) return;
    this.drafts.set(sessionId, held?.unfetched ? { ...draft, unfetched: held.unfetched } : draft);
    this.unsaved.set(sessionId, files);
    clearTimeout(this.timers.get(sessionId));
    if (draft.text === "" && draft.items.length === 0) {
      this.timers.delete(sessionId);
      void this.flush(sessionId);
      return;
    }
    this.timers.set(sessionId, setTimeout(() => void this.flush(sessionId), this.delayMs));
  }

  /** Saves the chat's draft now if it changed (every chat's without an id). Resolves when saved; never rejects. */
  flush(sessionId?: string): Promise<void> {
    if (sessionId === undefined) return Promise.all([...this.unsaved.keys()].map((id) => this.flush(id))).then(() => undefined);
    clearTimeout(this.timers.get(sessionId));
    this.timers.delete(sessionId);
    if (!this.unsaved.has(sessionId)) return this.saving.get(sessionId) ?? Promise.resolve();
    const files = this.unsaved.get(sessionId);
    this.unsaved.delete(sessionId);
    const run = (this.saving.get(sessionId) ?? Promise.resolve()).then(() => this.save(sessionId, files));
    this.saving.set(sessionId, run);
    void run.finally(() => {
      if (this.saving.get(sessionId) !== run) return;
      this.saving.delete(sessionId);
      this.settle(sessionId);
    });
    return run;
  }

  /**
   * Main's word that a chat's draft was saved (by any page): another window's newer draft is held from now on and
   * the composer showing it told (`onRemote`); this page's own is noted only; one older than the draft held is
   * ignored. While this page has an edit of its own on the way, it waits: that edit, saved after it, wins.
   */
  remote(event: DraftEvent): void {
    const { sessionId, revision } = event;
    if (event.writer === this.writer) {
      this.note(sessionId, revision);
      return;
    }
    if (revision <= (this.revisions.get(sessionId) ?? -Infinity)) return;
    if (this.unsaved.has(sessionId) || this.saving.has(sessionId)) {
      this.waiting.set(sessionId, event);
      return;
    }
    this.take(event);
  }

  /** Called with a chat's id when its held draft was replaced by another window's. Returns the unsubscribe. */
  onRemote(listener: (sessionId: string) => void): () => void {
    this.remoteListeners.add(listener);
    return () => this.remoteListeners.delete(listener);
  }

  /** Nothing of this page's own is on the way for the chat: a draft that waited is taken if it is still the newest. */
  private settle(sessionId: string): void {
    if (this.unsaved.has(sessionId) || this.saving.has(sessionId)) return;
    const waiting = this.waiting.get(sessionId);
    this.waiting.delete(sessionId);
    if (waiting && waiting.revision > (this.revisions.get(sessionId) ?? -Infinity)) this.take(waiting);
  }

  private note(sessionId: string, revision: number | undefined): void {
    if (typeof revision === "number" && revision > (this.revisions.get(sessionId) ?? -Infinity)) this.revisions.set(sessionId, revision);
  }

  /** Holds another window's draft: the files this page has already keep their bytes, the others are to fetch. */
  private take({ sessionId, draft, revision }: DraftEvent): void {
    this.note(sessionId, revision);
    const held = this.drafts.get(sessionId);
    const items: PendingAttachment[] = [];
    const unfetched: AttachmentRef[] = [];
    for (const ref of draft.attachments) {
      const have = held?.items.find((item) => this.refs.get(item.file)?.id === ref.id && !items.includes(item));
      if (have) items.push(have.name === ref.name ? have : { ...have, name: ref.name });
      else unfetched.push(ref);
    }
    this.drafts.set(sessionId, { text: draft.text, items, ...(unfetched.length > 0 ? { unfetched } : {}) });
    for (const listener of this.remoteListeners) listener(sessionId);
  }

  /** Called with a chat's saving problem in words, or undefined once a save succeeds. Returns the unsubscribe. */
  onProblem(listener: (sessionId: string, problem: string | undefined) => void): () => void {
    this.problemListeners.add(listener);
    return () => this.problemListeners.delete(listener);
  }

  /** The chat is gone: its draft is forgotten here (main removes its file with the chat). */
  forget(sessionId: string): void {
    clearTimeout(this.timers.get(sessionId));
    this.timers.delete(sessionId);
    this.unsaved.delete(sessionId);
    this.drafts.delete(sessionId);
    this.waiting.delete(sessionId);
  }

  private async save(sessionId: string, files: DraftFiles | undefined): Promise<void> {
    // The newest draft, whatever changed while the previous save ran.
    const draft = this.drafts.get(sessionId);
    if (!draft) return;
    try {
      const attachments: AttachmentRef[] = [...(draft.unfetched ?? [])];
      for (const item of draft.items) {
        let ref = this.refs.get(item.file);
        if (!ref) {
          if (!files) continue; // nowhere to store it (no session): it stays in this page
          ref = await files.put(item.name, item.mimeType, await readBase64(item.file));
          this.refs.set(item.file, ref);
        }
        attachments.push({ ...ref, name: item.name });
      }
      const saved: ChatDraft = { text: draft.text, attachments };
      this.note(sessionId, await this.app.saveDraft(sessionId, saved, this.writer));
      this.tell(sessionId, undefined);
    } catch (error) {
      this.tell(sessionId, errorText(error));
    }
  }

  private tell(sessionId: string, problem: string | undefined): void {
    for (const listener of this.problemListeners) listener(sessionId, problem);
  }
}

function sameItems(a: readonly PendingAttachment[], b: readonly PendingAttachment[]): boolean {
  return a.length === b.length && a.every((item, i) => item.key === b[i].key);
}

const caches = new WeakMap<DraftApi, DraftCache>();

/** The page's one draft cache for this host (the composer saves its drafts when the page is hidden or left). */
export function draftCacheFor(app: DraftApi): DraftCache {
  let cache = caches.get(app);
  if (!cache) {
    cache = new DraftCache(app);
    caches.set(app, cache);
  }
  return cache;
}
