/** Types for icons.mjs (plain JavaScript, so `node build/make-icon.mjs` runs without a build step). */
export function renderRgba(size: number): Buffer;
export function encodePng(rgba: Buffer, size: number): Buffer;
export function encodeIco(images: Map<number, Buffer>): Buffer;
export function encodeIcns(pngs: Map<number, Buffer>): Buffer;
export const ICNS_PNG_TYPES: ReadonlyArray<readonly [type: string, size: number]>;
export const LINUX_SIZES: readonly number[];
export function iconFiles(): Map<string, Buffer>;
