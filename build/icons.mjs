/**
 * Paddock's icon in every format the installers need, drawn and encoded in plain Node (zlib only, no image tools):
 * - `icon.png`: 1024 px, the master;
 * - `icon.icns` (macOS): PNG chunks from 32 to 1024 px;
 * - `icon.ico` (Windows): 16 to 128 px as 32-bit bitmaps, 256 px as PNG (what NSIS and Explorer expect);
 * - `icons/NxN.png` (Linux): the hicolor theme's sizes.
 * electron-builder 26 uses .icns and .ico files as they are; from a PNG it would have to download a converter.
 * `iconFiles()` is pure and deterministic, so a test can check that the committed files match this drawing.
 */
import { deflateSync } from "node:zlib";

const MASTER = 1024;
const BLUE = [31, 111, 235];
const WHITE = [255, 255, 255];

/** Whether (x, y) lies inside the rounded rectangle [x0, x1) x [y0, y1) with corner radius r. */
function inRoundRect(x, y, x0, y0, x1, y1, r) {
  if (x < x0 || x >= x1 || y < y0 || y >= y1) return false;
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

/** The "P": a stem plus a bowl (a ring, open nowhere). */
function inLetter(x, y) {
  const stem = x >= 330 && x < 450 && y >= 240 && y < 790;
  const d = Math.hypot(x - 520, y - 420);
  return stem || (x >= 390 && d >= 60 && d < 180);
}

/** The drawing at one point of the 1024-unit master square: an RGB colour, or null where it is transparent. */
function colourAt(x, y) {
  if (!inRoundRect(x, y, 64, 64, 960, 960, 200)) return null;
  return inLetter(x, y) ? WHITE : BLUE;
}

/** RGBA pixels (row-major, top row first) of the icon at `size` px, each pixel the average of 4x4 samples. */
export function renderRgba(size) {
  const n = 4;
  const scale = MASTER / size;
  const pixels = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let covered = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const colour = colourAt((px + (sx + 0.5) / n) * scale, (py + (sy + 0.5) / n) * scale);
          if (!colour) continue;
          r += colour[0];
          g += colour[1];
          b += colour[2];
          covered++;
        }
      }
      if (covered === 0) continue;
      const at = (py * size + px) * 4;
      pixels[at] = Math.round(r / covered);
      pixels[at + 1] = Math.round(g / covered);
      pixels[at + 2] = Math.round(b / covered);
      pixels[at + 3] = Math.round((255 * covered) / (n * n));
    }
  }
  return pixels;
}

const crcTable = Array.from({ length: 256 }, (_, k) => {
  let c = k;
  for (let i = 0; i < 8; i++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGBA PNG of `size` x `size` pixels. */
export function encodePng(rgba, size) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (1 + size * 4)); // each row: filter byte 0, then the pixels
  for (let y = 0; y < size; y++) rgba.copy(rows, y * (1 + size * 4) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(rows, { level: 9 })),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A 32-bit bottom-up DIB with its AND mask, the form ICO files have always held (for sizes below 256). */
function encodeIcoBitmap(rgba, size) {
  const maskRow = Math.ceil(size / 32) * 4;
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(size, 4);
  header.writeInt32LE(size * 2, 8); // colour rows plus mask rows
  header.writeUInt16LE(1, 12); // planes
  header.writeUInt16LE(32, 14); // bits per pixel
  header.writeUInt32LE(size * size * 4 + maskRow * size, 20);
  const colour = Buffer.alloc(size * size * 4);
  const mask = Buffer.alloc(maskRow * size);
  for (let y = 0; y < size; y++) {
    const row = size - 1 - y;
    for (let x = 0; x < size; x++) {
      const from = (y * size + x) * 4;
      const to = (row * size + x) * 4;
      colour[to] = rgba[from + 2];
      colour[to + 1] = rgba[from + 1];
      colour[to + 2] = rgba[from];
      colour[to + 3] = rgba[from + 3];
      if (rgba[from + 3] === 0) mask[row * maskRow + (x >> 3)] |= 0x80 >> (x & 7);
    }
  }
  return Buffer.concat([header, colour, mask]);
}

/** An ICO holding `images` (size -> RGBA): bitmaps below 256 px, PNG at 256. */
export function encodeIco(images) {
  const sizes = [...images.keys()].sort((a, b) => a - b);
  const bodies = sizes.map((size) => (size >= 256 ? encodePng(images.get(size), size) : encodeIcoBitmap(images.get(size), size)));
  const head = Buffer.alloc(6 + 16 * sizes.length);
  head.writeUInt16LE(1, 2); // type: icon
  head.writeUInt16LE(sizes.length, 4);
  let offset = head.length;
  sizes.forEach((size, i) => {
    const entry = 6 + 16 * i;
    head[entry] = size >= 256 ? 0 : size; // 0 means 256
    head[entry + 1] = size >= 256 ? 0 : size;
    head.writeUInt16LE(1, entry + 4); // planes
    head.writeUInt16LE(32, entry + 6); // bits per pixel
    head.writeUInt32LE(bodies[i].length, entry + 8);
    head.writeUInt32LE(offset, entry + 12);
    offset += bodies[i].length;
  });
  return Buffer.concat([head, ...bodies]);
}

/** ICNS chunk types that hold a PNG, by the pixel size of their image (Apple's "@2x" types included). */
export const ICNS_PNG_TYPES = [
  ["ic11", 32],
  ["ic12", 64],
  ["ic07", 128],
  ["ic13", 256],
  ["ic08", 256],
  ["ic14", 512],
  ["ic09", 512],
  ["ic10", 1024],
];

/** An ICNS whose chunks are the PNGs in `pngs` (pixel size -> PNG). */
export function encodeIcns(pngs) {
  const chunks = ICNS_PNG_TYPES.map(([type, size]) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, "ascii");
    head.writeUInt32BE(8 + pngs.get(size).length, 4);
    return Buffer.concat([head, pngs.get(size)]);
  });
  const head = Buffer.alloc(8);
  head.write("icns", 0, "ascii");
  head.writeUInt32BE(8 + chunks.reduce((sum, chunk) => sum + chunk.length, 0), 4);
  return Buffer.concat([head, ...chunks]);
}

/** Sizes of the Linux icon set (`icons/NxN.png`). */
export const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512];
const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];

/** Every icon file, by its path relative to build/. */
export function iconFiles() {
  const sizes = [...new Set([MASTER, ...LINUX_SIZES, ...ICO_SIZES, ...ICNS_PNG_TYPES.map(([, size]) => size)])];
  const rgba = new Map(sizes.map((size) => [size, renderRgba(size)]));
  const png = new Map(sizes.map((size) => [size, encodePng(rgba.get(size), size)]));
  return new Map([
    ["icon.png", png.get(MASTER)],
    ["icon.icns", encodeIcns(png)],
    ["icon.ico", encodeIco(new Map(ICO_SIZES.map((size) => [size, rgba.get(size)])))],
    ...LINUX_SIZES.map((size) => [`icons/${size}x${size}.png`, png.get(size)]),
  ]);
}
