import { useEffect, useRef, type KeyboardEvent, type RefObject } from "react";

const TRIGGER = '[aria-haspopup][aria-expanded="true"]';

/**
 * The control that opened a popover: the expanded `[aria-haspopup]` control inside `area` (a panel and its button
 * in one wrapper) or beside it (a menu rendered next to its button). Null when there is none.
 */
export function popoverTrigger(area: HTMLElement | null): HTMLElement | null {
  return area?.querySelector<HTMLElement>(TRIGGER) ?? area?.parentElement?.querySelector<HTMLElement>(TRIGGER) ?? null;
}

/**
 * How every popover (panel or menu) closes: a mouse press outside `area` while `open`, or Esc with the focus
 * anywhere in it (its button included). Esc gives the focus back to the button that opened it (`popoverTrigger`),
 * so a keyboard user is where they were. Returns the Esc handler for the popover's `onKeyDown`; Esc's default is
 * prevented so Esc in a popover never also stops the chat's run or closes what lies under it (the chat view's and
 * the app's Esc). `close` may change identity on every render.
 *
 * However else it closes (its own Save, Cancel or a choice made in it), a focus left inside it would fall to the
 * page's body as the panel goes: it goes back to the button too, unless it has moved on to something else.
 */
export function usePopoverDismiss(open: boolean, area: RefObject<HTMLElement | null>, close: () => void): (e: KeyboardEvent) => void {
  const latest = useRef(close);
  latest.current = close;
  useEffect(() => {
    if (!open) return;
    const trigger = popoverTrigger(area.current);
    let focusInside = area.current?.contains(document.activeElement) ?? false;
    const onFocusIn = (e: FocusEvent) => {
      focusInside = area.current?.contains(e.target as Node) ?? false;
    };
    document.addEventListener("focusin", onFocusIn);
    return () => {
      document.removeEventListener("focusin", onFocusIn);
      const active = document.activeElement;
      if (focusInside && trigger?.isConnected && (active === null || active === document.body || !active.isConnected)) trigger.focus();
    };
  }, [open, area]);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!area.current?.contains(e.target as Node)) latest.current();
    };
    // The panel's own handler sees Esc only with the focus inside the panel: this one takes it on the button too.
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented || e.isComposing || !area.current?.contains(e.target as Node)) return;
      dismiss(e, area.current, latest.current);
    };
    document.addEventListener("mousedown", onDown);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onDown);
      document.removeEventListener("keydown", onKey);
    };
  }, [open, area]);
  return (e) => {
    if (e.key === "Escape") dismiss(e, area.current, latest.current);
  };
}

/** Esc in a popover: taken from what lies under it, the focus back on its button, then closed. */
function dismiss(e: { preventDefault(): void }, area: HTMLElement | null, close: () => void): void {
  e.preventDefault();
  popoverTrigger(area)?.focus();
  close();
}
