import { useEffect, useRef, type KeyboardEvent, type RefObject } from "react";

/**
 * How every popover (panel or menu) closes: a mouse press outside `area` while `open`, or Esc inside it. Returns the
 * Esc handler for the popover's `onKeyDown`; it prevents Esc's default so Esc in a popover never also stops the
 * chat's run (the chat view's Esc). `close` may change identity on every render.
 */
export function usePopoverDismiss(open: boolean, area: RefObject<HTMLElement | null>, close: () => void): (e: KeyboardEvent) => void {
  const latest = useRef(close);
  latest.current = close;
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!area.current?.contains(e.target as Node)) latest.current();
    };
    document.addEventListener("mousedown", onDown);
    return () => document.removeEventListener("mousedown", onDown);
  }, [open, area]);
  return (e) => {
    if (e.key !== "Escape") return;
    e.preventDefault();
    latest.current();
  };
}
