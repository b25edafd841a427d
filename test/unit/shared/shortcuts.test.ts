import { describe, expect, it } from "vitest";
import {
  APP_SHORTCUTS, SHORTCUT_SECTIONS, SHORTCUTS, accelerator, chordLabel, matchesChord, menuAccelerator, pageHandles, shortcut, shortcutFor,
  type KeyPress, type Shortcut, type ShortcutId,
} from "../../../src/shared/shortcuts";
import { PAGE_COMMANDS } from "../../../src/shared/protocol/desktop-bridge";
import { composerIntent } from "../../../src/renderer/components/composer/composerKeys";

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, isComposing: false, ...mods,
});
const keysOf = (id: ShortcutId) => shortcut(id).keys;

describe("the shortcut table", () => {
  it("names each shortcut once, in a section the list shows", () => {
    const ids = SHORTCUTS.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const s of SHORTCUTS) expect(SHORTCUT_SECTIONS).toContain(s.section);
  });

  it("gives no two shortcuts that work anywhere the same keys", () => {
    const anywhere = SHORTCUTS.filter((s) => s.section === "Anywhere").map((s) => accelerator(s.keys));
    expect(new Set(anywhere).size).toBe(anywhere.length);
  });

  it("has a shortcut for a new chat and for the message box that a browser lets a page have (not Ctrl+N, Ctrl+T, Ctrl+W)", () => {
    const reserved = ["CmdOrCtrl+N", "CmdOrCtrl+T", "CmdOrCtrl+W", "CmdOrCtrl+Shift+N", "CmdOrCtrl+Shift+T", "CmdOrCtrl+Shift+W"];
    expect(reserved).not.toContain(accelerator(keysOf("new-chat")));
    expect(reserved).not.toContain(accelerator(keysOf("focus-composer")));
    expect(accelerator(keysOf("new-chat"))).toBe("CmdOrCtrl+Shift+O");
    expect(accelerator(keysOf("focus-composer"))).toBe("CmdOrCtrl+L");
    expect(accelerator(keysOf("show-shortcuts"))).toBe("CmdOrCtrl+/");
  });

  it("goes to a waiting question with keys no other shortcut, browser or desktop menu uses", () => {
    const keys = accelerator(keysOf("go-to-question"));
    expect(keys).toBe("CmdOrCtrl+Shift+A");
    const others = SHORTCUTS.filter((s) => s.id !== "go-to-question").flatMap((s: Shortcut) => [s.keys, ...(s.menuKeys ? [s.menuKeys] : [])]);
    expect(others.map(accelerator)).not.toContain(keys);
    // The desktop menu's own items (File: New Window, Close) and the browsers' reserved keys.
    expect(["CmdOrCtrl+Shift+N", "CmdOrCtrl+W", "CmdOrCtrl+N", "CmdOrCtrl+T", "CmdOrCtrl+Shift+T", "CmdOrCtrl+Shift+W"]).not.toContain(keys);
  });

  it("gives every menu command of the desktop app an accelerator, Ctrl/Cmd+N staying the menu's New Chat", () => {
    for (const command of PAGE_COMMANDS) expect(menuAccelerator(command)).toBeTruthy();
    expect(menuAccelerator("new-chat")).toBe("CmdOrCtrl+N");
    expect(menuAccelerator("open-settings")).toBe("CmdOrCtrl+,");
    expect(menuAccelerator("show-shortcuts")).toBe("CmdOrCtrl+/");
    expect(menuAccelerator("focus-composer")).toBe("CmdOrCtrl+L");
  });

  it("leaves the desktop menu's own keys to it, and handles everything itself in the browser", () => {
    for (const id of APP_SHORTCUTS) expect(pageHandles(id, false)).toBe(true);
    // The menu's New Chat is Ctrl/Cmd+N: Ctrl/Cmd+Shift+O stays the page's in the desktop app too.
    expect(pageHandles("new-chat", true)).toBe(true);
    expect(pageHandles("open-settings", true)).toBe(false);
    expect(pageHandles("show-shortcuts", true)).toBe(false);
    expect(pageHandles("focus-composer", true)).toBe(false);
  });

  it("lists the message box's keys as the composer reads them", () => {
    const intent = (id: ShortcutId, running: boolean) => {
      const k = keysOf(id);
      return composerIntent({ key: k.key, shiftKey: !!k.shift, altKey: !!k.alt, ctrlKey: !!k.mod, metaKey: false, isComposing: false }, running);
    };
    expect(intent("send", false)).toBe("send");
    expect(intent("send", true)).toBe("steer");
    expect(intent("newline", false)).toBe("newline");
    expect(intent("follow-up", true)).toBe("follow-up");
    expect(intent("stop", true)).toBe("escape");
    expect(intent("cycle-mode", false)).toBe("cycle-mode");
  });
});

describe("matchesChord", () => {
  it("takes Ctrl or Cmd for the platform key, and the other modifiers exactly", () => {
    expect(matchesChord(keysOf("new-chat"), press("O", { ctrlKey: true, shiftKey: true }))).toBe(true);
    expect(matchesChord(keysOf("new-chat"), press("O", { metaKey: true, shiftKey: true }))).toBe(true);
    expect(matchesChord(keysOf("new-chat"), press("o", { ctrlKey: true }))).toBe(false);
    expect(matchesChord(keysOf("new-chat"), press("O", { ctrlKey: true, shiftKey: true, altKey: true }))).toBe(false);
    expect(matchesChord(keysOf("new-chat"), press("O", { shiftKey: true }))).toBe(false);
    expect(matchesChord(keysOf("focus-composer"), press("l", { ctrlKey: true }))).toBe(true);
    expect(matchesChord(keysOf("focus-composer"), press("L", { ctrlKey: true, shiftKey: true }))).toBe(false);
  });

  it("finds a letter by its place on a non-Latin layout, and by its letter on a Latin one", () => {
    expect(matchesChord(keysOf("new-chat"), press("Щ", { code: "KeyO", ctrlKey: true, shiftKey: true }))).toBe(true);
    // Dvorak: the key marked O sits where QWERTY has S; the letter wins.
    expect(matchesChord(keysOf("new-chat"), press("O", { code: "KeyS", ctrlKey: true, shiftKey: true }))).toBe(true);
    expect(matchesChord(keysOf("new-chat"), press("S", { code: "KeyO", ctrlKey: true, shiftKey: true }))).toBe(false);
  });

  it("ignores Shift for punctuation, which some layouts type with it (a German / is Shift+7)", () => {
    expect(matchesChord(keysOf("show-shortcuts"), press("/", { ctrlKey: true }))).toBe(true);
    expect(matchesChord(keysOf("show-shortcuts"), press("/", { ctrlKey: true, shiftKey: true, code: "Digit7" }))).toBe(true);
    expect(matchesChord(keysOf("show-shortcuts"), press("?", { ctrlKey: true, shiftKey: true }))).toBe(false);
  });

  it("compares Shift for named keys, and never matches while an input method composes", () => {
    expect(matchesChord(keysOf("close"), press("Escape"))).toBe(true);
    expect(matchesChord(keysOf("close"), press("Escape", { shiftKey: true }))).toBe(false);
    expect(matchesChord(keysOf("rename-chat"), press("F2"))).toBe(true);
    expect(matchesChord(keysOf("delete-chat"), press("Delete"))).toBe(true);
    expect(matchesChord(keysOf("delete-chat"), press("Backspace"))).toBe(false);
    expect(matchesChord(keysOf("close"), press("Escape", { isComposing: true }))).toBe(false);
  });

  it("shortcutFor picks the app's shortcut a key press is, if any", () => {
    expect(shortcutFor(APP_SHORTCUTS, press(",", { metaKey: true }))).toBe("open-settings");
    expect(shortcutFor(APP_SHORTCUTS, press("/", { ctrlKey: true }))).toBe("show-shortcuts");
    expect(shortcutFor(APP_SHORTCUTS, press("f", { ctrlKey: true }))).toBeUndefined();
  });
});

describe("how keys are written", () => {
  it("as keycaps: Ctrl and words elsewhere, the menu symbols on macOS", () => {
    expect(chordLabel(keysOf("new-chat"), false)).toEqual(["Ctrl", "Shift", "O"]);
    expect(chordLabel(keysOf("new-chat"), true)).toEqual(["⌘", "⇧", "O"]);
    expect(chordLabel(keysOf("follow-up"), false)).toEqual(["Alt", "Enter"]);
    expect(chordLabel(keysOf("follow-up"), true)).toEqual(["⌥", "Enter"]);
    expect(chordLabel(keysOf("close"), false)).toEqual(["Esc"]);
    expect(chordLabel(keysOf("show-shortcuts"), false)).toEqual(["Ctrl", "/"]);
  });

  it("as Electron accelerators", () => {
    expect(accelerator({ key: "o", mod: true, shift: true })).toBe("CmdOrCtrl+Shift+O");
    expect(accelerator({ key: "Enter", alt: true })).toBe("Alt+Enter");
    expect(accelerator({ key: "F2" })).toBe("F2");
  });
});
