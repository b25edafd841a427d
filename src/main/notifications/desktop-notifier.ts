/**
 * When main shows a desktop notification, and what happens when it cannot (Electron-free; the Electron adapter,
 * electron/desktop-notifications.ts, only makes and shows them).
 *
 * A chat that wants the user (a run finished, failed, or waits for an answer) while it is not in front gets one
 * notification, the chat's latest; clicking it brings the chat forward. A notification can fail to show: an unsigned
 * macOS build gets `failed` from every one (UNNotification requires a signed app), a Linux desktop may have no
 * notification server, and some systems have no notifications at all. The user is then told once, in the app (a
 * notice: "Desktop notifications could not be shown: <reason>"); the in-app attention (the sidebar's marks, the page's
 * toast) is main's event and works either way.
 */
import type { AppEvent } from "../../shared/protocol/app-api";
import { attentionText } from "../../shared/protocol/attention";

/** One notification as the system shows it (Electron's Notification). */
export interface ShownNotification {
  onClick(listener: () => void): void;
  onClose(listener: () => void): void;
  /** The system refused to show it; `reason` in its words. */
  onFailed(listener: (reason: string) => void): void;
  show(): void;
  close(): void;
}

/** What the host's notifications are (Electron's `Notification`). */
export interface NotificationSystem {
  isSupported(): boolean;
  create(text: { title: string; body: string }): ShownNotification;
}

export interface DesktopNotifierOptions {
  system: NotificationSystem;
  /** The `background.notifications` setting, read at each event. */
  enabled(): boolean;
  /** Whether the focused window shows the chat (then the user sees it already). */
  isInFront(sessionId: string): boolean;
  reveal(sessionId: string): void;
  /** Tells the user in the app (a warning notice); called at most once. */
  tellUser(text: string): void;
}

export const NOTIFICATIONS_UNSUPPORTED = "this system does not support them";

/** The notice's words for `reason`. */
export function notificationFailureText(reason: string): string {
  const why = reason.trim().replace(/\.$/, "") || "the system gave no reason";
  return `Desktop notifications could not be shown: ${why}. Chats that want you are still marked in Paddock's sidebar.`;
}

/** Returns the handler for main's events. */
export function desktopNotifier(options: DesktopNotifierOptions): (event: AppEvent) => void {
  // One per chat, the latest: kept referenced while shown (one collected by the garbage collector loses its click
  // handler), replaced by the chat's next one. Windows sends no `close` for a notification that times out into the
  // Action Center, so keeping every one shown would grow without end.
  const shown = new Map<string, ShownNotification>();
  let told = false;
  const failed = (reason: string) => {
    if (told) return;
    told = true;
    options.tellUser(notificationFailureText(reason));
  };
  return (event) => {
    if (event.type !== "attention" || !options.enabled() || options.isInFront(event.sessionId)) return;
    if (!options.system.isSupported()) return failed(NOTIFICATIONS_UNSUPPORTED);
    let notification: ShownNotification;
    try {
      notification = options.system.create(attentionText(event));
    } catch (error) {
      return failed(error instanceof Error ? error.message : String(error));
    }
    const forget = () => {
      if (shown.get(event.sessionId) === notification) shown.delete(event.sessionId);
    };
    notification.onClick(() => {
      forget();
      options.reveal(event.sessionId);
    });
    notification.onClose(forget);
    notification.onFailed((reason) => {
      forget();
      failed(reason);
    });
    shown.get(event.sessionId)?.close();
    shown.set(event.sessionId, notification);
    try {
      notification.show();
    } catch (error) {
      forget();
      failed(error instanceof Error ? error.message : String(error));
    }
  };
}
