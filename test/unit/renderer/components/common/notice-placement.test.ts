import { describe, expect, it } from "vitest";
import { noticePlacement } from "../../../../../src/renderer/components/common/notice-placement";

// A list from y=60 to y=700; the notices at its top, 100 px tall.
const list = { top: 60, bottom: 700 };
const stack = { top: 68, height: 100 };

describe("the notices' place while a question waits", () => {
  it("stays at the top when no question is under it (none, or scrolled out of the list)", () => {
    expect(noticePlacement(list, stack, [])).toBe(68);
    expect(noticePlacement(list, stack, [{ top: 300, bottom: 360 }])).toBe(68);
    expect(noticePlacement(list, stack, [{ top: -200, bottom: 40 }])).toBe(68);
  });

  it("moves below a question it would cover, and below the buttons then in its way", () => {
    expect(noticePlacement(list, stack, [{ top: 100, bottom: 150 }])).toBe(158);
    // The same panel's buttons, just under its question: below both.
    expect(noticePlacement(list, stack, [{ top: 100, bottom: 150 }, { top: 160, bottom: 200 }])).toBe(208);
    // A question just above the notices' bottom edge counts too (the clearance).
    expect(noticePlacement(list, stack, [{ top: 172, bottom: 220 }])).toBe(228);
  });

  it("is hidden when no room is left below the questions, rather than cover one", () => {
    expect(noticePlacement(list, stack, [{ top: 100, bottom: 620 }])).toBe("hidden");
  });
});
