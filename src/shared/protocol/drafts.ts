/**
 * A chat's draft: what the user typed in its message box and the files attached there, not sent yet. Main keeps it
 * in the chat's folder (`<sessionDir>/draft.json`, shared-node/session-files/draft-store.ts) so it survives switching
 * chats, Settings, reloads and restarts; the attached files' bytes are stored in the chat's attachment folder with
 * the session's `putAttachment` (the draft holds their refs), so sending them later uploads nothing again.
 * Deleting the chat deletes its draft; sending clears it. No typebox here: pages import this module.
 */
import type { AttachmentRef } from "./attachments";

export interface ChatDraft {
  text: string;
  /** Files stored in the chat's attachment folder, in the order the composer shows them. */
  attachments: AttachmentRef[];
}

/**
 * Main's event to every page when a chat's draft was saved (AppEvent): each window showing the chat follows the last
 * edit, whichever window it was made in. `revision` grows with every save (in the order main keeps them), so a page
 * can tell a newer draft from one its own later save replaced; `writer` is the saving page's own id (`saveDraft`'s),
 * so that page does not take its own draft back.
 */
export interface DraftEvent {
  type: "draft";
  sessionId: string;
  draft: ChatDraft;
  revision: number;
  writer?: string;
}

/** A page's id as `saveDraft`'s writer. */
export const DRAFT_WRITER_PATTERN = "^[A-Za-z0-9_-]{1,64}$";

/** The longest draft text kept (characters); a longer one is refused with DRAFT_TOO_LONG and stays in the page. */
export const MAX_DRAFT_TEXT_CHARS = 1_000_000;

export const DRAFT_TOO_LONG = `This draft is too long to keep over a restart (more than ${MAX_DRAFT_TEXT_CHARS.toLocaleString("en-US")} characters): it stays in this window until you send or shorten it.`;

export const EMPTY_DRAFT: ChatDraft = Object.freeze({ text: "", attachments: Object.freeze([]) as unknown as AttachmentRef[] });

export function isEmptyDraft(draft: ChatDraft): boolean {
  return draft.text.length === 0 && draft.attachments.length === 0;
}
