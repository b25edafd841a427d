/**
 * A session's attachment folder: uploads are checked (kind by their bytes, limits, base64) and stored once by
 * content; refs a message brings are checked against what is stored; reads verify the bytes against their hash.
 */
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AttachmentStore, imageType, isText } from "../../../../../src/agent-worker/host/attachments/attachment-store";
import { MAX_ATTACHMENTS, MAX_IMAGE_BYTES, MAX_TEXT_FILE_BYTES, type AttachmentRef } from "../../../../../src/shared/protocol/attachments";
import { bandsPng } from "../../../../../testkit/png";

let dir: string;
let store: AttachmentStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "paddock-attach-"));
  store = new AttachmentStore(join(dir, "attachments"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64");
const sha = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

describe("attachment store: uploads", () => {
  it("stores an image under its hash, typed by its bytes, and the same bytes again under the same id", async () => {
    const png = bandsPng(8, 4);
    const ref = await store.put("shot.png", "image/png", b64(png));
    expect(ref).toEqual({ id: `${sha(png)}.png`, name: "shot.png", mimeType: "image/png", size: png.length });
    expect(await readFile(join(dir, "attachments", ref.id))).toEqual(png);
    // A JPEG claim on PNG bytes: the bytes decide.
    const again = await store.put("copy.jpg", "image/jpeg", b64(png));
    expect(again).toEqual({ ...ref, name: "copy.jpg" });
    expect(await readdir(join(dir, "attachments"))).toEqual([ref.id]); // one file, no temp files left
  });

  it("stores a text file of any declared type as text/plain, and refuses binary bytes as text", async () => {
    const ref = await store.put("/home/me/src/notes.md", "text/markdown", b64("# Notes\n\nünïcode ✓\n"));
    expect(ref).toMatchObject({ name: "notes.md", mimeType: "text/plain", id: expect.stringMatching(/^[0-9a-f]{64}\.txt$/) });
    await expect(store.put("blob.bin", "application/octet-stream", b64(new Uint8Array([1, 2, 0, 3])))).rejects.toThrow(
      "blob.bin cannot be attached: only PNG, JPEG, GIF and WebP images and text files can be attached.",
    );
    await expect(store.put("latin1.txt", "text/plain", b64(new Uint8Array([0x63, 0x61, 0x66, 0xe9])))).rejects.toThrow(/cannot be attached/);
  });

  it("refuses an image whose bytes are not an image, bad base64, and files over the limits, writing nothing", async () => {
    await expect(store.put("fake.png", "image/png", b64("not an image at all"))).rejects.toThrow(
      "fake.png is not a PNG, JPEG, GIF or WebP image (its bytes say otherwise).",
    );
    await expect(store.put("x.png", "image/png", "%%%%")).rejects.toThrow("x.png: the upload is not valid base64.");
    const big = Buffer.alloc(MAX_IMAGE_BYTES + 1);
    big.set(bandsPng(1, 1));
    await expect(store.put("huge.png", "image/png", b64(big))).rejects.toThrow("huge.png is more than 10 MB: images can be at most 10 MB.");
    await expect(store.put("long.log", "text/plain", b64("a".repeat(MAX_TEXT_FILE_BYTES + 1)))).rejects.toThrow(
      "long.log is more than 1 MB: text files can be at most 1 MB.",
    );
    await expect(readdir(join(dir, "attachments"))).rejects.toThrow(/ENOENT/);
  });

  it("keeps only a file's own name, without folders or control characters", async () => {
    const ref = await store.put("C:\\Users\\me\\bad\u0007name.txt", "text/plain", b64("hi"));
    expect(ref.name).toBe("badname.txt");
    expect((await store.put("", "text/plain", b64("hi"))).name).toBe("attachment");
  });

  it("keeps a workspace path as the composer's @ gives it, and only that: nothing that climbs or starts at the root", async () => {
    expect((await store.put("src/csv.ts", "text/plain", b64("hi"))).name).toBe("src/csv.ts");
    expect((await store.put("src/", "text/plain", b64("hi"))).name).toBe("src/");
    expect((await store.put("../../etc/passwd", "text/plain", b64("hi"))).name).toBe("passwd");
    expect((await store.put("/etc/passwd", "text/plain", b64("hi"))).name).toBe("passwd");
    expect((await store.put("src/./x.ts", "text/plain", b64("hi"))).name).toBe("x.ts");
    expect((await store.put("a//b.ts", "text/plain", b64("hi"))).name).toBe("b.ts");
  });
});

describe("attachment store: refs and reads", () => {
  it("checks a message's refs against the folder: stored, same size, at most the limit", async () => {
    const ref = await store.put("a.txt", "text/plain", b64("alpha"));
    expect(await store.check([{ ...ref, mimeType: "image/png", name: "../x/y.txt" }])).toEqual([{ ...ref, name: "y.txt" }]);
    await expect(store.check([{ ...ref, size: 99 }])).rejects.toThrow("a.txt is not stored in this chat: attach it again.");
    const missing: AttachmentRef = { id: `${"0".repeat(64)}.png`, name: "gone.png", mimeType: "image/png", size: 3 };
    await expect(store.check([missing])).rejects.toThrow("gone.png is not stored in this chat");
    await expect(store.check([{ ...ref, id: "../../settings.json" }])).rejects.toThrow(/not stored in this chat/);
    await expect(store.check(Array.from({ length: MAX_ATTACHMENTS + 1 }, () => ref))).rejects.toThrow("at most 8 attachments");
  });

  it("reads the bytes back, and says so when the file is gone or damaged", async () => {
    const png = bandsPng(4, 4);
    const ref = await store.put("p.png", "image/png", b64(png));
    const fresh = new AttachmentStore(join(dir, "attachments")); // another worker: nothing cached
    expect(await fresh.read(ref.id)).toBe(b64(png));
    const other = await store.put("t.txt", "text/plain", b64("text"));
    await writeFile(join(dir, "attachments", other.id), "tampered");
    await expect(new AttachmentStore(join(dir, "attachments")).read(other.id)).rejects.toThrow("The attachment's file is damaged.");
    await rm(join(dir, "attachments", ref.id));
    await expect(new AttachmentStore(join(dir, "attachments")).read(ref.id)).rejects.toThrow("The attachment is missing from this chat's folder.");
    await expect(fresh.read("../x")).rejects.toThrow(/Not an attachment id/);
  });
});

describe("attachment kinds by their bytes", () => {
  it("knows the four image signatures and nothing else", () => {
    expect(imageType(bandsPng(1, 1))).toBe("image/png");
    expect(imageType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(imageType(Buffer.from("GIF89a...."))).toBe("image/gif");
    expect(imageType(Buffer.from("RIFF\0\0\0\0WEBPVP8 "))).toBe("image/webp");
    expect(imageType(Buffer.from("BM bitmap"))).toBeUndefined();
    expect(imageType(Buffer.from("<svg/>"))).toBeUndefined();
  });

  it("takes UTF-8 without NUL as text", () => {
    expect(isText(Buffer.from("plain ✓"))).toBe(true);
    expect(isText(new Uint8Array([0x61, 0x00]))).toBe(false);
    expect(isText(new Uint8Array([0xc3]))).toBe(false);
  });
});
