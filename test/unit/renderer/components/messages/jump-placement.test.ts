import { describe, expect, it } from "vitest";
import { JUMP_GAP, jumpPlacement } from "../../../../../src/renderer/components/messages/jump-placement";

const list = { top: 100, bottom: 700 };
const HEIGHT = 30;

describe("where Jump to latest sits", () => {
  it("at the list's bottom when no question's buttons are there", () => {
    expect(jumpPlacement(list, HEIGHT, [])).toBe(JUMP_GAP);
    expect(jumpPlacement(list, HEIGHT, [{ top: 200, bottom: 400 }])).toBe(JUMP_GAP); // far above
    expect(jumpPlacement(list, HEIGHT, [{ top: 720, bottom: 900 }])).toBe(JUMP_GAP); // below the list, out of view
  });

  it("above an approval panel it would cover, and above the next one that move puts it on", () => {
    // A panel from 600 to 690: the button (658..688) would cover it.
    expect(jumpPlacement(list, HEIGHT, [{ top: 600, bottom: 690 }])).toBe(700 - 600 + 8);
    // Moving above it lands on another panel just above (520..595): above that one too.
    expect(jumpPlacement(list, HEIGHT, [{ top: 520, bottom: 595 }, { top: 600, bottom: 690 }])).toBe(700 - 520 + 8);
  });

  it("hidden when a panel fills the list and no room is left above it", () => {
    expect(jumpPlacement(list, HEIGHT, [{ top: 110, bottom: 720 }])).toBe("hidden");
  });
});
