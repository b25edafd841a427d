import { describe, expect, it } from "vitest";
import { composerIntent, type ComposerKey } from "../../../../../src/renderer/components/composer/composerKeys";

const key = (k: string, mods: Partial<ComposerKey> = {}): ComposerKey => ({
  key: k, shiftKey: false, altKey: false, ctrlKey: false, metaKey: false, isComposing: false, ...mods,
});

describe("composerIntent", () => {
  it("idle: Enter sends, Shift+Enter is a newline", () => {
    expect(composerIntent(key("Enter"), false)).toBe("send");
    expect(composerIntent(key("Enter", { shiftKey: true }), false)).toBe("newline");
    expect(composerIntent(key("Enter", { altKey: true }), false)).toBe("send");
  });

  it("running: Enter steers, Alt+Enter queues a follow-up, Shift+Enter is still a newline", () => {
    expect(composerIntent(key("Enter"), true)).toBe("steer");
    expect(composerIntent(key("Enter", { altKey: true }), true)).toBe("follow-up");
    expect(composerIntent(key("Enter", { shiftKey: true }), true)).toBe("newline");
  });

  it("Esc is escape; IME composition and other keys do nothing", () => {
    expect(composerIntent(key("Escape"), true)).toBe("escape");
    expect(composerIntent(key("Enter", { isComposing: true }), false)).toBe("none");
    expect(composerIntent(key("a"), false)).toBe("none");
  });

  it("Shift+Tab cycles the chat's mode, idle or running; Tab alone and with other keys is left to the page", () => {
    for (const running of [false, true]) {
      expect(composerIntent(key("Tab", { shiftKey: true }), running)).toBe("cycle-mode");
      expect(composerIntent(key("Tab"), running)).toBe("none");
      expect(composerIntent(key("Tab", { shiftKey: true, ctrlKey: true }), running)).toBe("none");
      expect(composerIntent(key("Tab", { shiftKey: true, isComposing: true }), running)).toBe("none");
    }
  });
});
