import { useEffect, useRef } from "react";
import { APP_SHORTCUTS, matchesChord, pageHandles, shortcut, shortcutFor, type AppShortcut } from "../../shared/shortcuts";

export interface AppShortcutOptions {
  /** What each of the app's shortcuts (and the desktop menu's command of the same name) does. */
  actions: Record<AppShortcut, () => void>;
  /** The host has a native menu (the desktop app): keys its items own are left to it (`pageHandles`). */
  nativeMenu: boolean;
  /** A modal dialog shows (the shortcut list): only the list's own key acts, to close it again. */
  modal: boolean;
  /** Set while Settings shows: Esc that nothing else took (a menu, a field) closes Settings. */
  closeSettings?: () => void;
}

/**
 * The app shell's keys, matched against the one shortcut table (`shared/shortcuts.ts`): a new chat, the message
 * box, Settings, the shortcut list; and Esc for Settings. Listens on the document in the bubble phase, so a
 * component that handles a key itself (and prevents its default) keeps it; the chat view's Esc-to-stop listens on
 * the window, after this. `options` may change identity on every render.
 */
export function useAppShortcuts(options: AppShortcutOptions): void {
  const latest = useRef(options);
  latest.current = options;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.repeat) return;
      const { actions, nativeMenu, modal, closeSettings } = latest.current;
      const id = shortcutFor(APP_SHORTCUTS, e);
      if (id && pageHandles(id, nativeMenu) && (!modal || id === "show-shortcuts")) {
        e.preventDefault();
        actions[id]();
      } else if (!modal && closeSettings && matchesChord(shortcut("close").keys, e) && !(e.target instanceof Element && e.target.closest("dialog[open]"))) {
        // (Esc in a dialog over Settings is the dialog's: it closes the dialog, not Settings.)
        e.preventDefault();
        closeSettings();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}

/** The message box's id (Composer's textarea): "go to the message box" focuses it. */
const COMPOSER_ID = "composer-input";

/**
 * Focuses the chat's message box once what was just asked for has shown (a closing drawer gives the page back, a
 * chat replacing Settings mounts its composer, which then takes the focus by itself).
 */
export function focusComposerSoon(): void {
  setTimeout(() => document.getElementById(COMPOSER_ID)?.focus(), 0);
}
