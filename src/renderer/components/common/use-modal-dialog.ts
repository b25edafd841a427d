import { useEffect, useLayoutEffect, type RefObject } from "react";

/**
 * Shows `dialog` as a modal <dialog> while the component is mounted (the rest of the page is inert), focusing
 * `initialFocus`; a request to close it (Esc, the platform's back gesture) calls `onCancel` and leaves the deciding to
 * the component, so React's state and the dialog always agree. On unmount it closes while still in the document, so
 * the browser gives the focus back to what had it before.
 */
export function useModalDialog(dialog: RefObject<HTMLDialogElement | null>, initialFocus: RefObject<HTMLElement | null>, onCancel: () => void): void {
  // A layout effect: its clean-up runs before React removes the element.
  useLayoutEffect(() => {
    const element = dialog.current;
    if (!element) return;
    element.showModal();
    initialFocus.current?.focus();
    return () => {
      if (element.open) element.close();
    };
  }, [dialog, initialFocus]);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const onCancelEvent = (event: Event) => {
      event.preventDefault();
      onCancel();
    };
    element.addEventListener("cancel", onCancelEvent);
    return () => element.removeEventListener("cancel", onCancelEvent);
  }, [dialog, onCancel]);
}
