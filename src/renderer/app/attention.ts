import type { AppEvent } from "../../shared/protocol/app-api";
import { attentionText } from "../../shared/protocol/attention";
import type { UndoDelete } from "./session-list";

/**
 * Where the page tells the user about a chat that wants them, and which of its notes shows when two wait
 * (useAttention.ts acts on these). No React here: Node tests load this file.
 */

export type Attention = Extract<AppEvent, { type: "attention" }>;

/** What the page knows when a chat wants the user. */
export interface AttentionContext {
  /** The page shows system notifications itself (the browser host; Electron's main shows its own). */
  pageNotifies: boolean;
  /** Settings' background notifications are on (off until the settings have loaded). */
  enabled: boolean;
  /** The page is visible and has the focus. */
  looking: boolean;
  /** The chat this window shows, and whether it shows it now (not Settings). */
  activeId: string | undefined;
  chatShown: boolean;
}

/**
 * "none": nothing (the page does not notify, the user turned it off, or they are looking at that very chat);
 * "system": a system notification, the page being in the background (the page's note if the system shows none);
 * "page": a note in the page.
 */
export type AttentionPlace = "none" | "system" | "page";

export function attentionPlace(event: Attention, at: AttentionContext): AttentionPlace {
  if (!at.pageNotifies || !at.enabled) return "none";
  if (at.looking && event.sessionId === at.activeId && at.chatShown) return "none";
  return at.looking ? "page" : "system";
}

/** The system notification's tag: one per chat and reason, so a repeat replaces the last. */
export function attentionTag(event: Attention): string {
  return `paddock-${event.sessionId}-${event.reason}`;
}

/** The page's note about `event`. */
export function attentionToastText(event: Attention): string {
  const { title, body } = attentionText(event);
  return `“${title}”: ${body}`;
}

/** One toast at a time: an undo goes first, a chat wanting attention waits behind it (its time starts when it shows). */
export function shownToast(undo: UndoDelete | null, attention: Attention | null): "undo" | "attention" | null {
  return undo ? "undo" : attention ? "attention" : null;
}
