/**
 * Who may move the keyboard focus by themselves. A chat that opens focuses its message box; but when the user works
 * in the chat list from the keyboard (deleting the chat they were in, which opens another), the list must keep the
 * focus. The list *holds* it: until the user next presses a key or the pointer, or the focus leaves the held
 * element, `focusIsHeld()` tells components that would take the focus by themselves to leave it alone.
 */

let held: { element: HTMLElement; release: AbortController } | null = null;

/** Focuses `element` and holds the focus there (see above). A later hold replaces an earlier one. */
export function holdFocus(element: HTMLElement): void {
  held?.release.abort();
  element.focus();
  const release = new AbortController();
  const mine = { element, release };
  held = mine;
  const end = () => {
    if (held === mine) held = null;
    release.abort();
  };
  // Capture: the hold ends before the key or click does anything (a Delete on the held item holds afresh after).
  document.addEventListener("keydown", end, { capture: true, signal: release.signal });
  document.addEventListener("pointerdown", end, { capture: true, signal: release.signal });
}

/** Whether a held element has the focus now: then nothing may take it away unasked. */
export function focusIsHeld(): boolean {
  return held !== null && held.element.isConnected && document.activeElement === held.element;
}

/**
 * Whether the focus is in a field the user types in (a text box, a text area, a list box, anything editable), other
 * than `except`: the composer, the find bar, a message being edited, a settings field.
 */
export function typingElsewhere(except?: Element | null): boolean {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || active === except) return false;
  if (active.isContentEditable || active instanceof HTMLTextAreaElement || active instanceof HTMLSelectElement) return true;
  return active instanceof HTMLInputElement && !NOT_TYPED.has(active.type);
}
const NOT_TYPED = new Set(["button", "submit", "reset", "checkbox", "radio", "range", "color", "file", "image", "hidden"]);

/**
 * Whether something that appears without the user asking for it right then (a chat opening, a sign-in's next step)
 * may move the focus to `target` now: only when no element holds the focus and the user is not typing in another
 * field. Nothing new ever takes the keys from a field the user is typing in; a question (approval) has its own,
 * stricter rule (approval-focus.ts).
 */
export function mayFocusUnasked(target?: Element | null): boolean {
  return !focusIsHeld() && !typingElsewhere(target);
}
