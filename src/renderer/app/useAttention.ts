import { useEffect, useState } from "react";
import type { AppEvent } from "../../shared/protocol/app-api";
import type { ToastProps } from "../components/common/Toast";
import type { AppServices } from "../services/app-services";
import { attentionPlace, attentionTag, attentionToastText, shownToast, type Attention } from "./attention";
import { attentionText } from "../../shared/protocol/attention";
import type { UndoDelete } from "./session-list";

/** How long "a chat finished" stays on screen in the page (where no system notification was shown). */
export const ATTENTION_MS = 10_000;

export interface AttentionOptions {
  /** Settings' background notifications are on (false until the settings have loaded). */
  enabled: boolean;
  /** The chat this window shows, and whether it shows it now (not Settings). */
  activeId: string | undefined;
  chatShown: boolean;
  /** Opens a chat in this window (a notification or the toast's Open clicked). */
  open(sessionId: string): void;
  /** The deleted chat Undo would bring back, while its toast shows (useSessionList). */
  undo: UndoDelete | null;
  restore(sessionId: string): void;
  dismissUndo(): void;
}

export interface AttentionShown {
  /** Main's push that a chat wants the user; other events are not attention's business. */
  onEvent(event: AppEvent): void;
  /** The one toast the page shows now, if any: a deleted chat's Undo, else a chat that wants the user. */
  toast: ToastProps | null;
}

/**
 * Tells the user about a chat that wants them, where the page does it (the browser host; Electron's main shows
 * native notifications): nothing when they are looking at that chat, a system notification when the page is in the
 * background and they allowed them, else a note in the page for `ATTENTION_MS` (attention.ts decides which). Also
 * puts the page's one toast together (the undo toast goes first).
 */
export function useAttention(services: AppServices, options: AttentionOptions): AttentionShown {
  const [attention, setAttention] = useState<Attention | null>(null);
  const { undo } = options;

  useEffect(() => {
    if (!attention || undo) return; // its time starts when it shows (an undo toast goes first)
    const timer = setTimeout(() => setAttention(null), ATTENTION_MS);
    return () => clearTimeout(timer);
  }, [attention, undo]);

  const onEvent = (event: AppEvent) => {
    if (event.type !== "attention") return;
    const looking = document.visibilityState === "visible" && document.hasFocus();
    const place = attentionPlace(event, {
      pageNotifies: services.notifications !== undefined, enabled: options.enabled, looking,
      activeId: options.activeId, chatShown: options.chatShown,
    });
    if (place === "none") return;
    if (place === "system" && services.notifications?.show({ ...attentionText(event), tag: attentionTag(event) }, () => options.open(event.sessionId))) return;
    setAttention(event);
  };

  const shown = shownToast(undo, attention);
  const toast: ToastProps | null = shown === "undo" && undo ? {
    text: `Deleted “${undo.title}”${undo.worktreeBranch ? `: its worktree goes with it (${undo.worktreeBranch} is kept if it has changes)` : ""}`, actionLabel: "Undo", onAction: () => options.restore(undo.sessionId), onDismiss: options.dismissUndo,
  } : shown === "attention" && attention ? {
    text: attentionToastText(attention), actionLabel: "Open", testId: "attention-toast",
    onAction: () => {
      setAttention(null);
      options.open(attention.sessionId);
    },
    onDismiss: () => setAttention(null),
  } : null;

  return { onEvent, toast };
}
