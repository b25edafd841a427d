/**
 * Every keyboard shortcut, in one table: the page's shortcut list shows it, the page's key handlers match key
 * presses against it (`matchesChord`), and the desktop app's menu takes its accelerators from it (`accelerator`).
 * No DOM or Electron imports: main, the page and Node tests all load it.
 */
import type { PageCommand } from "./protocol/desktop-bridge";

/**
 * A key with its modifiers. `key` is a `KeyboardEvent.key`: one character ("o", "/", ","; letters in lower case)
 * or a named key ("Enter", "Escape", "Delete", "F2"). `mod` is Cmd on macOS and Ctrl elsewhere.
 */
export interface Chord {
  readonly key: string;
  readonly mod?: boolean;
  readonly shift?: boolean;
  readonly alt?: boolean;
}

/** The groups the shortcut list shows, in its order. */
export const SHORTCUT_SECTIONS = ["Anywhere", "In a chat", "In the message box", "In the chat list"] as const;
export type ShortcutSection = (typeof SHORTCUT_SECTIONS)[number];

export interface Shortcut {
  readonly id: string;
  /** What it does, in the list's words. */
  readonly label: string;
  readonly section: ShortcutSection;
  /** The keys, the same in both hosts. */
  readonly keys: Chord;
  /**
   * The desktop app's menu has an item for it, which sends the page this command. Its accelerator is `menuKeys`,
   * or else `keys`: then the menu owns those keys in the desktop app and the page leaves them to it.
   */
  readonly menu?: PageCommand;
  /** The desktop menu's keys, where they differ from `keys` (the page handles `keys` itself in both hosts). */
  readonly menuKeys?: Chord;
}

/**
 * The table. Ctrl/Cmd+N stays the desktop menu's New Chat, but browsers keep Ctrl+N (a new window) from pages, so
 * the key that works in both hosts is Ctrl/Cmd+Shift+O; Ctrl/Cmd+L focuses the message box (a page may take it
 * from the browser's address bar). A question (an approval) never takes the focus from a field one types in, so
 * Ctrl/Cmd+Shift+A goes to it from there.
 */
export const SHORTCUTS = [
  { id: "new-chat", label: "New chat", section: "Anywhere", keys: { key: "o", mod: true, shift: true }, menu: "new-chat", menuKeys: { key: "n", mod: true } },
  { id: "focus-composer", label: "Go to the message box", section: "Anywhere", keys: { key: "l", mod: true }, menu: "focus-composer" },
  { id: "open-settings", label: "Settings", section: "Anywhere", keys: { key: ",", mod: true }, menu: "open-settings" },
  { id: "show-shortcuts", label: "Keyboard shortcuts (this list)", section: "Anywhere", keys: { key: "/", mod: true }, menu: "show-shortcuts" },
  { id: "toggle-sidebar", label: "Hide or show the chat list", section: "Anywhere", keys: { key: "b", mod: true } },
  { id: "close", label: "Close Settings, a menu, a dialog or the chat list", section: "Anywhere", keys: { key: "Escape" } },
  { id: "find-in-chat", label: "Find in the chat", section: "In a chat", keys: { key: "f", mod: true } },
  { id: "stop", label: "Stop the reply", section: "In a chat", keys: { key: "Escape" } },
  { id: "go-to-question", label: "Go to the question waiting for you", section: "In a chat", keys: { key: "a", mod: true, shift: true } },
  { id: "send", label: "Send (while a reply runs: steer it)", section: "In the message box", keys: { key: "Enter" } },
  { id: "newline", label: "New line", section: "In the message box", keys: { key: "Enter", shift: true } },
  { id: "follow-up", label: "Queue a follow-up while a reply runs", section: "In the message box", keys: { key: "Enter", alt: true } },
  { id: "cycle-mode", label: "Switch mode: plan this message → Plan mode → back", section: "In the message box", keys: { key: "Tab", shift: true } },
  { id: "rename-chat", label: "Rename the chat", section: "In the chat list", keys: { key: "F2" } },
  { id: "delete-chat", label: "Delete the chat (Undo brings it back)", section: "In the chat list", keys: { key: "Delete" } },
] as const satisfies readonly Shortcut[];

export type ShortcutId = (typeof SHORTCUTS)[number]["id"];

/** The shortcuts the page's app shell carries out anywhere; each is also a desktop menu command of the same name. */
export const APP_SHORTCUTS = ["new-chat", "focus-composer", "open-settings", "show-shortcuts"] as const satisfies readonly (ShortcutId & PageCommand)[];
export type AppShortcut = (typeof APP_SHORTCUTS)[number];

const BY_ID = new Map<string, Shortcut>(SHORTCUTS.map((s) => [s.id, s]));

/** The table's entry for `id`. */
export function shortcut(id: ShortcutId): Shortcut {
  return BY_ID.get(id)!;
}

/** What `matchesChord` reads of a key press (a DOM `KeyboardEvent` has all of it). */
export interface KeyPress {
  key: string;
  code?: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  isComposing?: boolean;
}

const LETTER = /^[a-z]$/;

/**
 * Whether `press` is `chord`. Ctrl and Cmd both count as `mod`, on every platform. Shift is compared for letters
 * and named keys only: punctuation sits under Shift on many layouts (a German "/" is Shift+7). A letter typed on a
 * non-Latin layout (Ctrl+Shift+O on a Russian keyboard reports "щ") matches by the key's position. Never matches
 * while an input method composes.
 */
export function matchesChord(chord: Chord, press: KeyPress): boolean {
  if (press.isComposing) return false;
  if (Boolean(chord.mod) !== (press.ctrlKey || press.metaKey)) return false;
  if (Boolean(chord.alt) !== press.altKey) return false;
  const wanted = chord.key.length === 1 ? chord.key.toLowerCase() : chord.key;
  const letter = LETTER.test(wanted);
  if ((letter || wanted.length > 1) && Boolean(chord.shift) !== press.shiftKey) return false;
  const key = press.key.length === 1 ? press.key.toLowerCase() : press.key;
  if (key === wanted) return true;
  return letter && key.length === 1 && !LETTER.test(key) && press.code === `Key${wanted.toUpperCase()}`;
}

/** The id of the first of `ids` whose keys `press` is, if any. */
export function shortcutFor<Id extends ShortcutId>(ids: readonly Id[], press: KeyPress): Id | undefined {
  return ids.find((id) => matchesChord(shortcut(id).keys, press));
}

const NAMED_KEYS: Record<string, string> = { Escape: "Esc", ArrowUp: "↑", ArrowDown: "↓", " ": "Space" };

/** The keys as the list shows them, one string per key: ["Ctrl", "Shift", "O"], or on macOS ["⌘", "⇧", "O"]. */
export function chordLabel(chord: Chord, mac: boolean): string[] {
  const keys: string[] = [];
  if (chord.mod) keys.push(mac ? "⌘" : "Ctrl");
  if (chord.alt) keys.push(mac ? "⌥" : "Alt");
  if (chord.shift) keys.push(mac ? "⇧" : "Shift");
  keys.push(NAMED_KEYS[chord.key] ?? (chord.key.length === 1 ? chord.key.toUpperCase() : chord.key));
  return keys;
}

/** The chord as an Electron accelerator ("CmdOrCtrl+Shift+O", "CmdOrCtrl+/"). */
export function accelerator(chord: Chord): string {
  const parts: string[] = [];
  if (chord.mod) parts.push("CmdOrCtrl");
  if (chord.alt) parts.push("Alt");
  if (chord.shift) parts.push("Shift");
  parts.push(chord.key === " " ? "Space" : chord.key.length === 1 ? chord.key.toUpperCase() : chord.key);
  return parts.join("+");
}

/** The desktop menu's accelerator for the item that sends `command`; undefined if no shortcut names it. */
export function menuAccelerator(command: PageCommand): string | undefined {
  const entry = SHORTCUTS.find((s: Shortcut) => s.menu === command) as Shortcut | undefined;
  return entry ? accelerator(entry.menuKeys ?? entry.keys) : undefined;
}

/**
 * Whether the page handles `id`'s keys itself. Everywhere it does, except in the desktop app (`nativeMenu`) for
 * keys its menu item owns: the menu then sends the command instead, and the page must not do it twice.
 */
export function pageHandles(id: ShortcutId, nativeMenu: boolean): boolean {
  const entry = shortcut(id);
  return !nativeMenu || entry.menu === undefined || entry.menuKeys !== undefined;
}
