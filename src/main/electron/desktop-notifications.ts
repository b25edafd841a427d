/**
 * Native notifications for chats that want the user (a run finished, failed, or waits for an answer) while they
 * are not in front; clicking one brings the chat forward. The wording is shared with the browser host's page
 * (`attentionText`); whether to notify is decided here because only main knows which window has focus.
 */
import { Notification } from "electron";
import type { AppEvent } from "../../shared/protocol/app-api";
import { attentionText } from "../../shared/protocol/attention";

export interface DesktopNotificationOptions {
  /** The `background.notifications` setting, read at each event. */
  enabled(): boolean;
  /** Whether the focused window shows the chat (then the user sees it already). */
  isInFront(sessionId: string): boolean;
  reveal(sessionId: string): void;
}

/** Returns the handler for main's events; notifications not supported on this system are skipped. */
export function desktopNotifications(options: DesktopNotificationOptions): (event: AppEvent) => void {
  // One per chat, the latest: kept referenced while shown (one collected by the garbage collector loses its click
  // handler), replaced by the chat's next one. Windows sends no `close` for a notification that times out into the
  // Action Center, so keeping every one shown would grow without end.
  const shown = new Map<string, Notification>();
  return (event) => {
    if (event.type !== "attention" || !options.enabled() || options.isInFront(event.sessionId)) return;
    if (!Notification.isSupported()) return;
    const { title, body } = attentionText(event);
    const notification = new Notification({ title, body });
    const forget = () => {
      if (shown.get(event.sessionId) === notification) shown.delete(event.sessionId);
    };
    notification.on("click", () => {
      forget();
      options.reveal(event.sessionId);
    });
    notification.on("close", forget);
    notification.on("failed", forget);
    shown.get(event.sessionId)?.close();
    shown.set(event.sessionId, notification);
    notification.show();
  };
}
