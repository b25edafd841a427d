import { open, truncate } from "node:fs/promises";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LINE_COUNT_CAP_BYTES, readLineWindow } from "../../../../../src/agent-worker/tools/workspace/file-lines";
import { formatWindow } from "../../../../../src/agent-worker/tools/workspace/read-tool";
import { createWorkspace, type WorkspaceFixture } from "./workspace-fixture";

let ws: WorkspaceFixture;
beforeEach(() => {
  ws = createWorkspace();
});
afterEach(() => ws.remove());

const lines = (count: number, make = (i: number) => `line ${i}`) => Array.from({ length: count }, (_, i) => make(i + 1)).join("\n");
const file = (name: string, content: string | Buffer) => writeFileSync(join(ws.root, name), content);

describe("read", () => {
  it("returns a small file whole, with no marker", async () => {
    file("a.txt", "one\ntwo\n");
    expect(await ws.run("read", { path: "a.txt" })).toBe("one\ntwo\n");
  });

  it("stops at 2,000 lines with pi's continuation marker", async () => {
    file("long.txt", lines(2500));
    const text = await ws.run("read", { path: "long.txt" });
    expect(text.split("\n\n")[0].split("\n")).toHaveLength(2000);
    expect(text.endsWith("line 2000\n\n[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]")).toBe(true);
  });

  it("stops at 50 KB of whole lines with the byte-limit marker", async () => {
    file("wide.txt", lines(1000, (i) => `${i}:${"x".repeat(97)}`)); // ~100 bytes a line
    const text = await ws.run("read", { path: "wide.txt" });
    const shown = text.slice(0, text.indexOf("\n\n["));
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(50 * 1024);
    const count = shown.split("\n").length;
    expect(text).toContain(`[Showing lines 1-${count} of 1000 (50.0KB limit). Use offset=${count + 1} to continue.]`);
    expect(shown.split("\n").at(-1)).toBe(`${count}:${"x".repeat(97)}`); // whole lines only
  });

  it("continues from offset, and honours limit with the remaining-lines marker", async () => {
    file("long.txt", lines(2500));
    const rest = await ws.run("read", { path: "long.txt", offset: 2001 });
    expect(rest.startsWith("line 2001\n")).toBe(true);
    expect(rest.endsWith("line 2500")).toBe(true);
    expect(await ws.run("read", { path: "long.txt", offset: 10, limit: 3 })).toBe("line 10\nline 11\nline 12\n\n[2488 more lines in file. Use offset=13 to continue.]");
    expect(await ws.run("read", { path: "long.txt", offset: 2499, limit: 5 })).toBe("line 2499\nline 2500");
  });

  it("counts lines as pi does (a final newline starts an empty last line)", async () => {
    file("t.txt", `${lines(2001)}\n`);
    expect(await ws.run("read", { path: "t.txt" })).toContain("[Showing lines 1-2000 of 2002. Use offset=2001 to continue.]");
  });

  it("refuses an offset beyond the end", async () => {
    file("a.txt", "one\ntwo");
    expect(await ws.failure("read", { path: "a.txt", offset: 5 })).toBe("Offset 5 is beyond end of file (2 lines total)");
  });

  it("points at bash for a first line over 50 KB", async () => {
    file("min.js", `${"x".repeat(60 * 1024)}\nsecond`);
    expect(await ws.run("read", { path: "min.js" })).toBe("[Line 1 is 60.0KB, exceeds 50.0KB limit. Use bash: sed -n '1p' min.js | head -c 51200]");
  });

  it("keeps CRLF and multi-byte text intact", async () => {
    file("w.txt", "héllo\r\nwörld ✓\r\n");
    expect(await ws.run("read", { path: "w.txt" })).toBe("héllo\r\nwörld ✓\r\n");
  });

  it("reads in chunks: what it shows, then only counts, and past the cap not even that", async () => {
    // 3 lines, then 256 MB of zeros (sparse): read whole, it would cost 256 MB of memory.
    file("huge.log", "a\nb\nc\n");
    await truncate(join(ws.root, "huge.log"), 256 * 1024 * 1024);
    const handle = await open(join(ws.root, "huge.log"));
    const before = process.memoryUsage().rss;
    try {
      const window = await readLineWindow(handle, { start: 0, limit: 2, maxLines: 2000, maxBytes: 50 * 1024, countCapBytes: 8 * 1024 * 1024 });
      expect(window).toMatchObject({ lines: ["a", "b"], totalIsExact: false, totalLines: 4, truncatedBy: null });
    } finally {
      await handle.close();
    }
    expect(process.memoryUsage().rss - before).toBeLessThan(32 * 1024 * 1024);
  });

  it("says how many lines there are at least when it stopped counting (files over 1 GB)", () => {
    expect(LINE_COUNT_CAP_BYTES).toBe(1024 * 1024 * 1024);
    const window = { totalLines: 5000, totalIsExact: false, lines: ["a", "b"], truncatedBy: "lines" as const, outputBytes: 3, startByte: 0 };
    expect(formatWindow(window, "x.log", 0, undefined)).toBe("a\nb\n\n[Showing lines 1-2 of more than 5000. Use offset=3 to continue.]");
    expect(formatWindow({ ...window, truncatedBy: null }, "x.log", 0, 2)).toBe("a\nb\n\n[More lines in file. Use offset=3 to continue.]");
  });

  it("returns images as image content, and downscales large ones to 2,000 px", async () => {
    const photon = createRequire(import.meta.url)("@silvia-odwyer/photon-node") as typeof import("@silvia-odwyer/photon-node");
    const png = (w: number, h: number) => {
      const image = new photon.PhotonImage(new Uint8Array(w * h * 4).fill(200), w, h);
      const bytes = Buffer.from(image.get_bytes());
      image.free();
      return bytes;
    };
    file("small.dat", png(40, 30)); // told by content, not name
    const small = await ws.result("read", { path: "small.dat" });
    expect(small.content[0]).toEqual({ type: "text", text: "Read image file [image/png]" });
    expect(small.content[1]).toMatchObject({ type: "image", mimeType: "image/png" });

    file("big.png", png(3000, 1000));
    const big = await ws.result("read", { path: "big.png" });
    expect(big.content[0]).toEqual({
      type: "text",
      text: "Read image file [image/png]\n[Image: original 3000x1000, displayed at 2000x667. Multiply coordinates by 1.50 to map to original image.]",
    });
    const data = (big.content[1] as { data: string }).data;
    const shown = photon.PhotonImage.new_from_byteslice(new Uint8Array(Buffer.from(data, "base64")));
    expect([shown.get_width(), shown.get_height()]).toEqual([2000, 667]);
    shown.free();
  });

  it("sends a BMP as PNG, as pi 1.6.0, with its pixels; a file only starting with BM is text", async () => {
    const photon = createRequire(import.meta.url)("@silvia-odwyer/photon-node") as typeof import("@silvia-odwyer/photon-node");
    // 1x1, 24-bit, BITMAPINFOHEADER: one red pixel (BGR) padded to 4 bytes.
    const header = Buffer.alloc(54);
    header.write("BM", 0, "latin1");
    header.writeUInt32LE(58, 2);
    header.writeUInt32LE(54, 10);
    header.writeUInt32LE(40, 14);
    header.writeInt32LE(1, 18);
    header.writeInt32LE(1, 22);
    header.writeUInt16LE(1, 26);
    header.writeUInt16LE(24, 28);
    file("red.bmp", Buffer.concat([header, Buffer.from([0x00, 0x00, 0xff, 0x00])]));
    const result = await ws.result("read", { path: "red.bmp" });
    expect(result.content[0]).toEqual({ type: "text", text: "Read image file [image/png]\n[Image converted from image/bmp to image/png.]" });
    const png = Buffer.from((result.content[1] as { data: string; mimeType: string }).data, "base64");
    expect(result.content[1]).toMatchObject({ type: "image", mimeType: "image/png" });
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    const decoded = photon.PhotonImage.new_from_byteslice(new Uint8Array(png));
    expect([...decoded.get_raw_pixels().subarray(0, 3)]).toEqual([255, 0, 0]);
    decoded.free();

    file("notes.txt", "BM is a band's name, not a bitmap header\n");
    expect(await ws.run("read", { path: "notes.txt" })).toBe("BM is a band's name, not a bitmap header\n");
    // A bitmap header that photon cannot decode: said so, as pi says it.
    file("broken.bmp", Buffer.concat([header, Buffer.from([0x00])]).subarray(0, 40));
    expect(await ws.run("read", { path: "broken.bmp" })).toBe("Read image file [image/bmp]\n[Image omitted: could not be converted to a supported inline image format.]");
  });

  it("takes an animated PNG for text, as pi 1.6.0 does (models take still images)", async () => {
    const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const chunk = (type: string, data: Buffer) => {
      const length = Buffer.alloc(4);
      length.writeUInt32BE(data.length);
      return Buffer.concat([length, Buffer.from(type, "latin1"), data, Buffer.alloc(4)]);
    };
    const ihdr = chunk("IHDR", Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]));
    file("anim.png", Buffer.concat([signature, ihdr, chunk("acTL", Buffer.alloc(8)), chunk("IDAT", Buffer.alloc(2))]));
    const result = await ws.result("read", { path: "anim.png" });
    expect(result.content.every((c) => c.type === "text")).toBe(true);
  });

  it("turns a photo by its EXIF orientation before scaling it", async () => {
    const photon = createRequire(import.meta.url)("@silvia-odwyer/photon-node") as typeof import("@silvia-odwyer/photon-node");
    const image = new photon.PhotonImage(new Uint8Array(3000 * 1000 * 4).fill(128), 3000, 1000);
    const jpeg = Buffer.from(image.get_bytes_jpeg(60));
    image.free();
    // An APP1 segment right after the SOI marker: Exif, big-endian TIFF, one IFD entry: orientation (0x0112) = 6.
    const tiff = Buffer.from([0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]);
    const exif = Buffer.concat([Buffer.from("Exif\0\0", "binary"), tiff]);
    const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, (exif.length + 2) >> 8, (exif.length + 2) & 0xff]), exif]);
    file("photo.jpg", Buffer.concat([jpeg.subarray(0, 2), app1, jpeg.subarray(2)]));
    const result = await ws.result("read", { path: "photo.jpg" });
    expect((result.content[0] as { text: string }).text).toContain("original 1000x3000, displayed at 667x2000");
  });

  it("refuses escapes: .., absolute, ~, and symlinks leading out", async () => {
    writeFileSync(join(ws.outside, "secret.txt"), "secret");
    mkdirSync(join(ws.outside, "dir"));
    writeFileSync(join(ws.outside, "dir", "s.txt"), "secret");
    symlinkSync(join(ws.outside, "secret.txt"), join(ws.root, "file-link"));
    symlinkSync(join(ws.outside, "dir"), join(ws.root, "dir-link"));
    for (const path of ["../outside/secret.txt", join(ws.outside, "secret.txt"), "~/.bashrc", "file-link", "dir-link/s.txt"]) {
      expect(await ws.failure("read", { path })).toMatch(/^Refused/);
    }
  });

  it("says a folder is a folder", async () => {
    mkdirSync(join(ws.root, "sub"));
    expect(await ws.failure("read", { path: "sub" })).toBe("sub is a directory. Use ls to list it.");
  });

  it("stops when aborted", async () => {
    file("a.txt", "x");
    expect(await ws.failure("read", { path: "a.txt" }, AbortSignal.abort())).toBe("Operation aborted");
  });

  it("gives pi's truncation details: truncated, totalBytes and outputBytes of the lines from the offset on, lastLinePartial", async () => {
    const content = lines(2500);
    file("long.txt", content);
    const { details } = await ws.result("read", { path: "long.txt", offset: 11 });
    const from11 = content.split("\n").slice(10);
    expect(details.truncation).toEqual({
      truncated: true,
      truncatedBy: "lines",
      outputLines: 2000,
      totalLines: 2500,
      totalBytes: Buffer.byteLength(from11.join("\n")),
      outputBytes: Buffer.byteLength(from11.slice(0, 2000).join("\n")),
      lastLinePartial: false,
      firstLineExceedsLimit: false,
      maxLines: 2000,
      maxBytes: 50 * 1024,
    });
  });

  describe("finds a missing file under the name macOS gave it, as pi does", () => {
    it("a screenshot's narrow no-break space (U+202F) before PM, typed as a plain space", async () => {
      file("Screenshot 2026-01-02 at 3.04.05\u202FPM.png.txt", "shot");
      expect(await ws.run("read", { path: "Screenshot 2026-01-02 at 3.04.05 PM.png.txt" })).toBe("shot");
    });

    it("an NFD name (as macOS stores it) asked for in NFC, and an NFC name asked for in NFD", async () => {
      file("cafe\u0301.txt", "decomposed");
      file("r\u00e9sum\u00e9.txt", "composed");
      expect(await ws.run("read", { path: "caf\u00e9.txt" })).toBe("decomposed");
      expect(await ws.run("read", { path: "re\u0301sume\u0301.txt" })).toBe("composed");
    });

    it("a curly apostrophe (U+2019) typed straight, and the reverse, also with an NFD name", async () => {
      file("Capture d\u2019e\u0301cran.txt", "curly");
      file("don't.txt", "straight");
      expect(await ws.run("read", { path: "Capture d'\u00e9cran.txt" })).toBe("curly");
      expect(await ws.run("read", { path: "don\u2019t.txt" })).toBe("straight");
    });

    it("still through the path gate: another spelling that leads out through a symlink is refused", async () => {
      writeFileSync(join(ws.outside, "secret\u2019s.txt"), "outside");
      symlinkSync(join(ws.outside, "secret\u2019s.txt"), join(ws.root, "link\u2019s.txt"));
      expect(await ws.failure("read", { path: "link's.txt" })).toMatch(/^Refused "link's.txt"/);
    });

    it("says the name as asked when no spelling exists", async () => {
      expect(await ws.failure("read", { path: "nowhere's caf\u00e9 PM.txt" })).toContain("ENOENT");
    });
  });
});
