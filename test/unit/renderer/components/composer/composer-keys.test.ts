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
});
