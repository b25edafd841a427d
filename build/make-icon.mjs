/**
 * Writes build/icon.png (1024x1024): a blue rounded square with a white "P". Plain Node (zlib), so it needs no
 * image tools: `node build/make-icon.mjs`.
 */
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const SIZE = 1024;

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
  const dx = x - 520;
  const dy = y - 420;
  const d = Math.sqrt(dx * dx + dy * dy);
  const bowl = x >= 390 && d >= 60 && d < 180;
  return stem || bowl;
}

const rows = [];
for (let y = 0; y < SIZE; y++) {
  const row = Buffer.alloc(1 + SIZE * 4); // filter byte 0, then RGBA
  for (let x = 0; x < SIZE; x++) {
    const at = 1 + x * 4;
    if (!inRoundRect(x, y, 64, 64, 960, 960, 200)) continue; // transparent
    const [r, g, b] = inLetter(x, y) ? [255, 255, 255] : [31, 111, 235];
    row[at] = r;
    row[at + 1] = g;
    row[at + 2] = b;
    row[at + 3] = 255;
  }
  rows.push(row);
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bit depth
header[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk("IHDR", header),
  chunk("IDAT", deflateSync(Buffer.concat(rows), { level: 9 })),
  chunk("IEND", Buffer.alloc(0)),
]);
writeFileSync(new URL("./icon.png", import.meta.url), png);
