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
  // Kept referenced until closed: a notification collected by the garbage collector loses its click handler.
  const shown = new Set<Notification>();
  return (event) => {
    if (event.type !== "attention" || !options.enabled() || options.isInFront(event.sessionId)) return;
    if (!Notification.isSupported()) return;
    const { title, body } = attentionText(event);
    const notification = new Notification({ title, body });
    shown.add(notification);
    notification.on("click", () => options.reveal(event.sessionId));
    notification.on("close", () => shown.delete(notification));
    notification.show();
  };
}
