import { useCallback, useEffect, useRef, useState, useSyncExternalStore, type RefObject } from "react";
import { matchesChord, shortcut } from "../../shared/shortcuts";

/** Below this width the sidebar is a drawer over the chat. layout.css's `@media (max-width: 760px)` says the same. */
const NARROW_WINDOW = "(max-width: 760px)";

const subscribeNarrow = (onChange: () => void) => {
  const query = window.matchMedia(NARROW_WINDOW);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
};
const isNarrow = () => window.matchMedia(NARROW_WINDOW).matches;

/** Whether the window is narrow (the sidebar is a drawer), following resizes. */
function useNarrowWindow(): boolean {
  return useSyncExternalStore(subscribeNarrow, isNarrow);
}

export interface Drawer {
  /** The window is narrow: the sidebar is a drawer, out of reach while closed. */
  narrow: boolean;
  /** The drawer shows (only ever in a narrow window): the rest of the page is out of reach meanwhile. */
  open: boolean;
  /** The drawer's element (the sidebar's `<nav>`). */
  ref: RefObject<HTMLElement | null>;
  show(): void;
  hide(): void;
}

/**
 * The narrow window's sidebar drawer, as a modal: opening it moves the focus into it (the current chat, else its
 * first control), Tab and Shift+Tab go round inside it, Esc closes it, and closing it gives the focus back to what
 * had it before (the button that opened it) if that is still there, else to the heading of what the main area now
 * shows (Settings, or another chat, opened from the drawer): never to nowhere. The caller makes the rest of the page inert
 * while `open` and the drawer inert while closed in a narrow window. A window widened past the breakpoint has no
 * drawer: it closes.
 */
export function useDrawer(): Drawer {
  const narrow = useNarrowWindow();
  const [shown, setShown] = useState(false);
  const open = shown && narrow;
  const ref = useRef<HTMLElement>(null);
  const opener = useRef<HTMLElement | null>(null);

  const show = useCallback(() => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setShown(true);
  }, []);
  const hide = useCallback(() => setShown(false), []);

  useEffect(() => {
    if (!narrow) setShown(false);
  }, [narrow]);

  const wasOpen = useRef(false);
  useEffect(() => {
    if (open) {
      wasOpen.current = true;
      const nav = ref.current;
      const target = nav?.querySelector<HTMLElement>('[aria-current="page"]') ?? focusables(nav)[0];
      target?.focus();
      return;
    }
    if (!wasOpen.current) return;
    wasOpen.current = false;
    const back = opener.current;
    opener.current = null;
    if (back?.isConnected) back.focus();
    else document.querySelector<HTMLElement>("main h1[tabindex]")?.focus();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      // Esc that something inside took (the search box clearing, a menu closing) is theirs.
      if (e.defaultPrevented) return;
      if (matchesChord(shortcut("close").keys, e)) {
        e.preventDefault();
        setShown(false);
      } else if (e.key === "Tab" && !e.altKey && !e.ctrlKey && !e.metaKey) {
        keepTabInside(e, ref.current);
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  return { narrow, open, ref, show, hide };
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The elements Tab stops at inside `root`, in order (those not rendered, like a hidden file input, left out). */
function focusables(root: HTMLElement | null): HTMLElement[] {
  if (!root) return [];
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
}

/**
 * Tab from the last stop goes to the first, Shift+Tab from the first to the last; from nowhere (the body), to the
 * first. Focus anywhere else (in the shortcut list's modal dialog above the drawer) is left alone.
 */
function keepTabInside(e: KeyboardEvent, root: HTMLElement | null): void {
  const stops = focusables(root);
  if (stops.length === 0) return;
  const at = stops.indexOf(document.activeElement as HTMLElement);
  if (at === -1 && document.activeElement && document.activeElement !== document.body) return;
  const wrapTo = at === -1 ? stops[0] : e.shiftKey && at === 0 ? stops[stops.length - 1] : !e.shiftKey && at === stops.length - 1 ? stops[0] : null;
  if (!wrapTo) return;
  e.preventDefault();
  wrapTo.focus();
}
