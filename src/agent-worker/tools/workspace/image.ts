import { createRequire } from "node:module";

export type ImageMimeType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";
/** What `read` recognises: the formats sent as they are, and BMP, which is sent converted to PNG (as pi 1.6.0). */
export type ReadableImageType = ImageMimeType | "image/bmp";

/** Bytes pi looks at to tell an image (an animated PNG's acTL comes before its first IDAT, within them in practice). */
export const IMAGE_SNIFF_BYTES = 4100;

/**
 * The image formats `read` returns as images (pi 1.6.0's list and checks), told by their first bytes, not their names:
 * a JPEG-LS file, an animated PNG and a "BM" file whose header is not a bitmap's are not images here, as in pi.
 */
export function sniffImageType(head: Uint8Array): ReadableImageType | undefined {
  const starts = (bytes: number[], at = 0) => head.length >= at + bytes.length && bytes.every((b, i) => head[at + i] === b);
  const ascii = (at: number, text: string) => starts([...text].map((c) => c.charCodeAt(0)), at);
  if (starts([0xff, 0xd8, 0xff])) return head[3] === 0xf7 ? undefined : "image/jpeg";
  if (starts(PNG_SIGNATURE)) return isPng(head) && !isAnimatedPng(head) ? "image/png" : undefined;
  if (ascii(0, "GIF87a") || ascii(0, "GIF89a")) return "image/gif";
  if (ascii(0, "RIFF") && ascii(8, "WEBP")) return "image/webp";
  if (ascii(0, "BM") && isBmp(head)) return "image/bmp";
  return undefined;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const u16le = (b: Uint8Array, at: number) => (b[at] ?? 0) + ((b[at + 1] ?? 0) << 8);
const u32le = (b: Uint8Array, at: number) => u16le(b, at) + u16le(b, at + 2) * 0x10000;
const u32be = (b: Uint8Array, at: number) => (b[at] ?? 0) * 0x1000000 + ((b[at + 1] ?? 0) << 16) + ((b[at + 2] ?? 0) << 8) + (b[at + 3] ?? 0);
const chunkIs = (b: Uint8Array, at: number, type: string) => [...type].every((c, i) => b[at + i] === c.charCodeAt(0));

function isPng(head: Uint8Array): boolean {
  return head.length >= 16 && u32be(head, 8) === 13 && chunkIs(head, 12, "IHDR");
}

/** An APNG says so (acTL) before its first frame's data (IDAT). */
function isAnimatedPng(head: Uint8Array): boolean {
  for (let at = 8; at + 8 <= head.length; ) {
    if (chunkIs(head, at + 4, "acTL")) return true;
    if (chunkIs(head, at + 4, "IDAT")) return false;
    const next = at + 8 + u32be(head, at) + 4;
    if (next <= at || next > head.length) return false;
    at = next;
  }
  return false;
}

/** A bitmap's header holds together: sizes, one colour plane, a bit depth BMP has. */
function isBmp(head: Uint8Array): boolean {
  if (head.length < 26) return false;
  const fileSize = u32le(head, 2);
  const pixelsAt = u32le(head, 10);
  const dibSize = u32le(head, 14);
  if (fileSize !== 0 && fileSize < 26) return false;
  if (pixelsAt < 14 + dibSize) return false;
  if (fileSize !== 0 && pixelsAt >= fileSize) return false;
  let planes: number;
  let bits: number;
  if (dibSize === 12) [planes, bits] = [u16le(head, 22), u16le(head, 24)];
  else if (dibSize >= 40 && dibSize <= 124 && head.length >= 30) [planes, bits] = [u16le(head, 26), u16le(head, 28)];
  else return false;
  return planes === 1 && [1, 4, 8, 16, 24, 32].includes(bits);
}

/**
 * A BMP as PNG (models take no BMP), as pi 1.6.0 converts it; undefined when photon cannot decode it. The PNG then
 * goes through `prepareImage` like any other.
 */
export function bmpToPng(bytes: Uint8Array): Uint8Array | undefined {
  const lib = loadPhoton();
  try {
    const image = lib.PhotonImage.new_from_byteslice(bytes);
    try {
      return new Uint8Array(image.get_bytes());
    } finally {
      image.free();
    }
  } catch {
    return undefined;
  }
}

/** pi's limits for an image sent to a model: at most 2,000 px a side and 4.5 MB of base64. */
export const IMAGE_MAX_SIDE = 2000;
export const IMAGE_MAX_BASE64_BYTES = 4.5 * 1024 * 1024;

export interface PreparedImage {
  data: string;
  mimeType: ImageMimeType;
  originalWidth: number;
  originalHeight: number;
  width: number;
  height: number;
  wasResized: boolean;
}

type Photon = typeof import("@silvia-odwyer/photon-node");
type PhotonImage = InstanceType<Photon["PhotonImage"]>;
let photon: Photon | undefined;

/**
 * Photon (Rust compiled to WebAssembly, pi's choice) decodes, resizes and encodes without a native build or a
 * download. It loads on the first image only (~15 ms), and its memory then stays with the worker.
 */
function loadPhoton(): Photon {
  // CommonJS that reads its .wasm next to itself (Electron's fs reads it inside app.asar too).
  photon ??= createRequire(import.meta.url)("@silvia-odwyer/photon-node") as Photon;
  return photon;
}

/**
 * pi's resizing: an image within the limits goes as it is; a larger one is scaled to fit 2,000 px (EXIF rotation
 * applied first), then sent as the smaller of PNG and JPEG, lowering JPEG quality and then the size by a quarter at a
 * time until it fits. Undefined when even 1x1 does not fit (never in practice) or the image cannot be decoded.
 */
export function prepareImage(bytes: Uint8Array, mimeType: ImageMimeType): PreparedImage | undefined {
  const lib = loadPhoton();
  let image: PhotonImage | undefined;
  try {
    const decoded = lib.PhotonImage.new_from_byteslice(bytes);
    image = applyExifOrientation(lib, decoded, bytes);
    if (image !== decoded) decoded.free();
    const originalWidth = image.get_width();
    const originalHeight = image.get_height();
    const base64 = Buffer.from(bytes).toString("base64");
    if (originalWidth <= IMAGE_MAX_SIDE && originalHeight <= IMAGE_MAX_SIDE && base64.length < IMAGE_MAX_BASE64_BYTES) {
      return { data: base64, mimeType, originalWidth, originalHeight, width: originalWidth, height: originalHeight, wasResized: false };
    }
    const scale = Math.min(1, IMAGE_MAX_SIDE / originalWidth, IMAGE_MAX_SIDE / originalHeight);
    let width = Math.max(1, Math.round(originalWidth * scale));
    let height = Math.max(1, Math.round(originalHeight * scale));
    for (;;) {
      const candidate = encodeSmallEnough(lib, image, width, height);
      if (candidate) return { ...candidate, originalWidth, originalHeight, width, height, wasResized: true };
      if (width === 1 && height === 1) return undefined;
      width = Math.max(1, Math.floor(width * 0.75));
      height = Math.max(1, Math.floor(height * 0.75));
    }
  } catch {
    return undefined;
  } finally {
    image?.free();
  }
}

const JPEG_QUALITIES = [80, 85, 70, 55, 40];

function encodeSmallEnough(lib: Photon, image: PhotonImage, width: number, height: number): { data: string; mimeType: ImageMimeType } | undefined {
  const resized = lib.resize(image, width, height, lib.SamplingFilter.Lanczos3);
  try {
    const png = Buffer.from(resized.get_bytes()).toString("base64");
    if (png.length < IMAGE_MAX_BASE64_BYTES) return { data: png, mimeType: "image/png" };
    for (const quality of JPEG_QUALITIES) {
      const jpeg = Buffer.from(resized.get_bytes_jpeg(quality)).toString("base64");
      if (jpeg.length < IMAGE_MAX_BASE64_BYTES) return { data: jpeg, mimeType: "image/jpeg" };
    }
    return undefined;
  } finally {
    resized.free();
  }
}

/** pi's note telling the model how to map coordinates on a scaled image back to the original. */
export function dimensionNote(image: PreparedImage): string | undefined {
  if (!image.wasResized) return undefined;
  const scale = image.originalWidth / image.width;
  return `[Image: original ${image.originalWidth}x${image.originalHeight}, displayed at ${image.width}x${image.height}. Multiply coordinates by ${scale.toFixed(2)} to map to original image.]`;
}

/** A phone photo stores its rotation in EXIF; decoders ignore it, so the pixels are turned here (JPEG only). */
function applyExifOrientation(lib: Photon, image: PhotonImage, bytes: Uint8Array): PhotonImage {
  const orientation = jpegOrientation(bytes);
  if (orientation <= 1 || orientation > 8) return image;
  const w = image.get_width();
  const h = image.get_height();
  const swap = orientation >= 5;
  const outW = swap ? h : w;
  const src = new Uint32Array(image.get_raw_pixels().slice().buffer); // one RGBA pixel per element
  const dst = new Uint32Array(src.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const [dx, dy] = orientedPosition(orientation, x, y, w, h);
      dst[dy * outW + dx] = src[y * w + x];
    }
  }
  return new lib.PhotonImage(new Uint8Array(dst.buffer), outW, swap ? w : h);
}

/** Where pixel (x, y) of a w x h image lands for EXIF orientations 2-8. */
function orientedPosition(orientation: number, x: number, y: number, w: number, h: number): [number, number] {
  switch (orientation) {
    case 2: return [w - 1 - x, y]; // mirrored
    case 3: return [w - 1 - x, h - 1 - y]; // upside down
    case 4: return [x, h - 1 - y]; // mirrored vertically
    case 5: return [y, x]; // transposed
    case 6: return [h - 1 - y, x]; // turned 90° clockwise
    case 7: return [h - 1 - y, w - 1 - x]; // transversed
    default: return [y, w - 1 - x]; // 8: turned 90° counter-clockwise
  }
}

/** The EXIF orientation tag (0x0112) of a JPEG's APP1 segment; 1 when there is none. */
function jpegOrientation(bytes: Uint8Array): number {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return 1;
  let at = 2;
  while (at + 4 <= bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1];
    const length = (bytes[at + 2] << 8) | bytes[at + 3];
    if (marker === 0xe1 && String.fromCharCode(...bytes.subarray(at + 4, at + 8)) === "Exif") return tiffOrientation(bytes, at + 10);
    if (marker === 0xda) return 1; // image data starts: no EXIF before it
    at += 2 + length;
  }
  return 1;
}

function tiffOrientation(bytes: Uint8Array, tiff: number): number {
  if (tiff + 8 > bytes.length) return 1;
  const little = bytes[tiff] === 0x49;
  const u16 = (at: number) => (little ? bytes[at] | (bytes[at + 1] << 8) : (bytes[at] << 8) | bytes[at + 1]);
  const u32 = (at: number) => (little ? u16(at) + u16(at + 2) * 0x10000 : u16(at) * 0x10000 + u16(at + 2));
  const ifd = tiff + u32(tiff + 4);
  if (ifd + 2 > bytes.length) return 1;
  const entries = u16(ifd);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > bytes.length) return 1;
    if (u16(entry) === 0x0112) return u16(entry + 8);
  }
  return 1;
}
