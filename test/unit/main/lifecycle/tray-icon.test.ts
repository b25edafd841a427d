import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TRAY_ICON_PNG_BASE64 } from "../../../../src/main/lifecycle/tray-icon";

describe("the tray's icon", () => {
  it("is build/icons' 16 and 32 pixel PNGs, byte for byte (regenerate it when the drawing changes)", () => {
    for (const size of [16, 32] as const) {
      const file = readFileSync(join(__dirname, `../../../../build/icons/${size}x${size}.png`));
      const embedded = Buffer.from(TRAY_ICON_PNG_BASE64[size], "base64");
      expect(embedded.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(embedded.equals(file), `${size}x${size}.png`).toBe(true);
    }
  });
});
