/**
 * Native notifications through Electron's `Notification`: the adapter only. When to notify, one per chat, and telling
 * the user once when the system cannot show them (an unsigned macOS build's `failed`) is main/notifications.
 */
import { Notification } from "electron";
import type { AppEvent } from "../../shared/protocol/app-api";
import { desktopNotifier, type DesktopNotifierOptions, type NotificationSystem } from "../notifications/desktop-notifier";

/** Electron's notifications as main/notifications sees them. */
export const electronNotifications: NotificationSystem = {
  isSupported: () => Notification.isSupported(),
  create: ({ title, body }) => {
    const notification = new Notification({ title, body });
    return {
      onClick: (listener) => void notification.on("click", () => listener()),
      onClose: (listener) => void notification.on("close", () => listener()),
      // `failed` (macOS, Windows) carries the system's error text.
      onFailed: (listener) => void notification.on("failed", (_event, error) => listener(error)),
      show: () => notification.show(),
      close: () => notification.close(),
    };
  },
};

/** Returns the handler for main's events. */
export function desktopNotifications(options: Omit<DesktopNotifierOptions, "system">): (event: AppEvent) => void {
  return desktopNotifier({ ...options, system: electronNotifications });
}
