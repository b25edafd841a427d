/**
 * Which Settings section the index highlights as the user scrolls: the last heading past the reading line, the
 * last section at the very end, and a section chosen in the index while any of it is on screen.
 */
import { describe, expect, it } from "vitest";
import { currentSection, type SectionBox } from "../../../../../src/renderer/components/settings/section-spy";

/** Sections 500 px tall, except a short last one, scrolled by `scroll` px in a 600 px view. */
const boxes = (scroll: number): SectionBox[] =>
  [["models", 0, 500], ["chats", 500, 1000], ["tools", 1000, 1500], ["appearance", 1500, 1600]].map(([id, top, bottom]) => ({
    id: id as string, top: (top as number) - scroll, bottom: (bottom as number) - scroll,
  }));
const view = (atBottom = false) => ({ height: 600, readingLine: 180, atBottom });

describe("currentSection", () => {
  it("is the first section at the top", () => {
    expect(currentSection(boxes(0), view())).toBe("models");
  });

  it("is the last section whose heading has passed the reading line", () => {
    expect(currentSection(boxes(310), view())).toBe("models");
    expect(currentSection(boxes(330), view())).toBe("chats");
    expect(currentSection(boxes(900), view())).toBe("tools");
  });

  it("is the last section at the very end, though its heading never reaches the line", () => {
    expect(currentSection(boxes(1000), view(true))).toBe("appearance");
  });

  it("keeps the section chosen in the index while any of it is on screen, even at the end", () => {
    expect(currentSection(boxes(1000), view(true), "tools")).toBe("tools");
    expect(currentSection(boxes(1000), view(true), "models")).toBe("appearance");
  });

  it("has no current section when there are none", () => {
    expect(currentSection([], view())).toBeUndefined();
  });
});
