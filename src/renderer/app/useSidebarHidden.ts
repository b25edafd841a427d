import { useCallback, useEffect, useRef, useState } from "react";
import { matchesChord, shortcut } from "../../shared/shortcuts";

/** Where the page remembers that the user hid the sidebar (this origin's storage: both hosts keep it across restarts). */
const STORAGE_KEY = "paddock.sidebarHidden";

export interface SidebarHiding {
  /** The user hid the sidebar (wide windows; a narrow window's drawer is hidden anyway). */
  hidden: boolean;
  hide(): void;
  show(): void;
  toggle(): void;
}

function remembered(): boolean {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) === "1";
  } catch {
    return false; // storage refused (a sandboxed page): start shown
  }
}

function remember(hidden: boolean): void {
  try {
    if (hidden) globalThis.localStorage?.setItem(STORAGE_KEY, "1");
    else globalThis.localStorage?.removeItem(STORAGE_KEY);
  } catch {
    // not remembered: it still hides for now
  }
}

/**
 * The sidebar hidden and shown again, by its own button, the chat header's "Show chats" button or Ctrl/Cmd+B (the
 * shortcut table's "toggle-sidebar"); remembered across reloads and restarts. The focus follows: hiding from inside
 * the sidebar moves it to the header's button that shows it again, showing moves it to the sidebar's hide button.
 * `narrowToggle`: in a narrow window the key opens and closes the drawer instead.
 */
export function useSidebarHidden(narrow: boolean, narrowToggle: () => void): SidebarHiding {
  const [hidden, setHidden] = useState(remembered);
  const moveFocus = useRef<string | null>(null);
  const set = useCallback((next: boolean) => {
    const from = document.activeElement;
    if (next && from?.closest(".sidebar")) moveFocus.current = ".chat-header .sidebar-toggle";
    else if (!next && from?.closest(".sidebar-toggle")) moveFocus.current = ".sidebar .sidebar-hide";
    remember(next);
    setHidden(next);
  }, []);
  useEffect(() => {
    const selector = moveFocus.current;
    moveFocus.current = null;
    if (selector) document.querySelector<HTMLElement>(selector)?.focus();
  }, [hidden]);
  const latest = useRef({ hidden, narrow, narrowToggle });
  latest.current = { hidden, narrow, narrowToggle };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.repeat || !matchesChord(shortcut("toggle-sidebar").keys, e)) return;
      e.preventDefault();
      if (latest.current.narrow) latest.current.narrowToggle();
      else set(!latest.current.hidden);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [set]);
  return { hidden, hide: useCallback(() => set(true), [set]), show: useCallback(() => set(false), [set]), toggle: useCallback(() => set(!latest.current.hidden), [set]) };
}
