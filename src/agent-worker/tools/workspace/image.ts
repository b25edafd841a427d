import { createRequire } from "node:module";

export type ImageMimeType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

/** The image formats `read` returns as images (pi's list), told by their first bytes, not their names. */
export function sniffImageType(head: Uint8Array): ImageMimeType | undefined {
  const starts = (bytes: number[], at = 0) => bytes.every((b, i) => head[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  if (starts([0x47, 0x49, 0x46, 0x38]) && (head[4] === 0x37 || head[4] === 0x39) && head[5] === 0x61) return "image/gif";
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return undefined;
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
