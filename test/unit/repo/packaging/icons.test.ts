/**
 * The installers' icons (build/, drawn by build/icons.mjs): the committed files are what the drawing makes today,
 * and each is a well-formed file of the kind its system reads, at the sizes electron-builder and the OS expect.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ICNS_PNG_TYPES, LINUX_SIZES, iconFiles } from "../../../../build/icons.mjs";

const build = (name: string) => readFileSync(join(process.cwd(), "build", name));

/** Width and height of a PNG, and its pixels (RGBA, unfiltered: the encoder writes filter 0 only). */
function decodePng(png: Buffer): { size: number; pixel: (x: number, y: number) => number[] } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const width = png.readUInt32BE(16);
  expect(png.readUInt32BE(20)).toBe(width);
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString("ascii", at + 4, at + 8) === "IDAT") idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const rows = inflateSync(Buffer.concat(idat));
  const pixel = (x: number, y: number) => [...rows.subarray(y * (1 + width * 4) + 1 + x * 4, y * (1 + width * 4) + 5 + x * 4)];
  return { size: width, pixel };
}

const BLUE = [31, 111, 235, 255];
const TRANSPARENT = [0, 0, 0, 0];

describe("the installers' icons", () => {
  it("are what build/make-icon.mjs draws today (run it after changing the drawing)", () => {
    for (const [name, bytes] of iconFiles()) expect(build(name).equals(bytes), name).toBe(true);
  });

  it("start from a 1024 px master: transparent corners, the blue square, the white letter", () => {
    const { size, pixel } = decodePng(build("icon.png"));
    expect(size).toBe(1024);
    expect(pixel(0, 0)).toEqual(TRANSPARENT);
    expect(pixel(200, 900)).toEqual(BLUE);
    expect(pixel(380, 600)).toEqual([255, 255, 255, 255]);
  });

  it("give Linux the hicolor sizes as NxN.png", () => {
    for (const size of LINUX_SIZES) expect(decodePng(build(`icons/${size}x${size}.png`)).size).toBe(size);
  });

  it("give macOS an ICNS of PNG chunks up to 1024 px (ic10)", () => {
    const icns = build("icon.icns");
    expect(icns.toString("ascii", 0, 4)).toBe("icns");
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const chunks = new Map<string, number>();
    for (let at = 8; at < icns.length; at += icns.readUInt32BE(at + 4)) {
      chunks.set(icns.toString("ascii", at, at + 4), decodePng(icns.subarray(at + 8, at + icns.readUInt32BE(at + 4))).size);
    }
    expect(Object.fromEntries(chunks)).toEqual(Object.fromEntries(ICNS_PNG_TYPES));
    expect(chunks.get("ic10")).toBe(1024);
  });

  it("give Windows an ICO from 16 px bitmaps to a 256 px PNG (electron-builder refuses one without 256 px)", () => {
    const ico = build("icon.ico");
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    const sizes: number[] = [];
    for (let i = 0; i < ico.readUInt16LE(4); i++) {
      const entry = 6 + 16 * i;
      const size = ico[entry] || 256;
      const image = ico.subarray(ico.readUInt32LE(entry + 12), ico.readUInt32LE(entry + 12) + ico.readUInt32LE(entry + 8));
      if (size === 256) {
        expect(decodePng(image).size).toBe(256);
      } else {
        // A bottom-up 32-bit DIB (BGRA): its height counts the AND mask's rows too. Read the right way up, the bowl
        // of the "P" is white and the square below it blue (upside down, it would be the other way round).
        expect([image.readUInt32LE(0), image.readInt32LE(4), image.readInt32LE(8), image.readUInt16LE(14)]).toEqual([40, size, size * 2, 32]);
        const pixel = (fx: number, fy: number) => {
          const at = 40 + ((size - 1 - Math.floor(size * fy)) * size + Math.floor(size * fx)) * 4;
          return [image[at + 2], image[at + 1], image[at], image[at + 3]];
        };
        expect(pixel(0.53, 0.28)).toEqual([255, 255, 255, 255]);
        expect(pixel(0.53, 0.72)).toEqual(BLUE);
      }
      sizes.push(size);
    }
    expect(sizes).toEqual([16, 24, 32, 48, 64, 128, 256]);
  });
});
