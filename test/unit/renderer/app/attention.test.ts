/** Where the page tells the user about a chat that wants them, and which toast shows when two wait. */
import { describe, expect, it } from "vitest";
import { attentionPlace, attentionTag, attentionToastText, shownToast, type Attention, type AttentionContext } from "../../../../src/renderer/app/attention";

const event = (sessionId: string, reason: Attention["reason"] = "done", title = "Trip"): Attention => ({ type: "attention", sessionId, title, reason });
const at = (extra: Partial<AttentionContext> = {}): AttentionContext => ({ pageNotifies: true, enabled: true, looking: true, activeId: "a", chatShown: true, ...extra });

describe("attention", () => {
  it("tells nothing where main notifies, when the user turned it off, or when they look at that very chat", () => {
    expect(attentionPlace(event("b"), at({ pageNotifies: false, looking: false }))).toBe("none");
    expect(attentionPlace(event("b"), at({ enabled: false, looking: false }))).toBe("none");
    expect(attentionPlace(event("a"), at())).toBe("none");
  });

  it("notes it in the page while the user looks at the page, and asks the system when the page is in the background", () => {
    expect(attentionPlace(event("b"), at())).toBe("page");
    expect(attentionPlace(event("a"), at({ chatShown: false }))).toBe("page");
    expect(attentionPlace(event("a"), at({ looking: false }))).toBe("system");
  });

  it("words and tags it per chat and reason", () => {
    expect(attentionToastText(event("a", "waiting"))).toBe("“Trip”: The agent is waiting for you.");
    expect(attentionToastText(event("a", "failed", ""))).toBe("“Paddock”: The agent's reply failed.");
    expect(attentionTag(event("a", "done"))).toBe("paddock-a-done");
  });

  it("shows one toast at a time: a deleted chat's Undo before a chat that wants the user", () => {
    const undo = { sessionId: "x", title: "Old" };
    expect(shownToast(undo, event("a"))).toBe("undo");
    expect(shownToast(null, event("a"))).toBe("attention");
    expect(shownToast(undo, null)).toBe("undo");
    expect(shownToast(null, null)).toBeNull();
  });
});
