/**
 * The composer's word on files before anything is uploaded: images of the four types, text files by their bytes,
 * the limits, and one sentence per refusal.
 */
import { describe, expect, it } from "vitest";
import { acceptFiles, kindOf, looksLikeText, readBase64, uploadAttachments, type FileLike } from "../../../../../src/renderer/components/attachments/attachment-files";
import { MAX_IMAGE_BYTES } from "../../../../../src/shared/protocol/attachments";
import { bandsPng } from "../../../../../testkit/png";

const file = (name: string, type: string, bytes: Uint8Array | string): FileLike => Object.assign(new Blob([bytes], { type }), { name });

describe("files the composer takes", () => {
  it("encodes bytes as base64 across slice boundaries", async () => {
    const bytes = new Uint8Array(200_000).map((_, i) => (i * 7919) % 256);
    expect(await readBase64(new Blob([bytes]))).toBe(Buffer.from(bytes).toString("base64"));
    expect(await readBase64(new Blob([]))).toBe("");
  });

  it("takes images of the four types and UTF-8 text files of any type; refuses binaries and other images", async () => {
    expect(await kindOf(file("a.png", "image/png", bandsPng(2, 2)))).toBe("image");
    expect(await kindOf(file("main.rs", "", "fn main() {}\n"))).toBe("text");
    expect(await kindOf(file("logo.svg", "image/svg+xml", "<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBe("text");
    expect(await kindOf(file("a.zip", "application/zip", new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00])))).toBeUndefined();
    expect(await kindOf(file("photo.heic", "image/heic", new Uint8Array([0, 0, 0, 0x18, 0x66, 0x74])))).toBeUndefined();
  });

  it("says why each refused file is refused, and stops at eight", async () => {
    const big = file("huge.png", "image/png", new Uint8Array(MAX_IMAGE_BYTES + 2_000_000));
    const binary = file("tool.exe", "application/octet-stream", new Uint8Array([0x4d, 0x5a, 0x00]));
    const { accepted, problems } = await acceptFiles([file("a.txt", "text/plain", "hi"), big, binary], 0);
    expect(accepted.map((a) => [a.name, a.kind, a.mimeType, a.size])).toEqual([["a.txt", "text", "text/plain", 2]]);
    expect(problems).toEqual([
      "huge.png is 11.9 MB: images can be at most 10 MB.",
      "tool.exe cannot be attached: only PNG, JPEG, GIF and WebP images and text files can be attached.",
    ]);
    const many = Array.from({ length: 5 }, (_, i) => file(`n${i}.txt`, "text/plain", `${i}`));
    const more = await acceptFiles(many, 6);
    expect(more.accepted.map((a) => a.name)).toEqual(["n0.txt", "n1.txt"]);
    expect(more.problems).toEqual(["A message can carry at most 8 attachments."]);
  });

  it("judges a large file's start when it cannot be attached anyway, so the size is what the user hears", async () => {
    const log = file("server.log", "", "x".repeat(2 * 1024 * 1024));
    expect((await acceptFiles([log], 0)).problems).toEqual(["server.log is 2 MB: text files can be at most 1 MB."]);
    // A character cut at the end of the part read is not a reason to call the file binary.
    expect(looksLikeText(Buffer.from("caf\u00e9").subarray(0, 4), true)).toBe(true);
    expect(looksLikeText(Buffer.from("caf\u00e9").subarray(0, 4), false)).toBe(false);
  });

  it("uploads one file per call, in order, and tells the caller each id with its bytes", async () => {
    const { accepted } = await acceptFiles([file("a.txt", "text/plain", "alpha"), file("b.png", "image/png", bandsPng(1, 1))], 0);
    const calls: string[] = [];
    const seen: string[] = [];
    const refs = await uploadAttachments(accepted, async (name, mime, data) => {
      calls.push(`${name} ${mime} ${data}`);
      return { id: `${String(calls.length).repeat(64)}.txt`, name, mimeType: mime, size: 1 };
    }, (id) => seen.push(id));
    expect(calls).toEqual(["a.txt text/plain YWxwaGE=", `b.png image/png ${bandsPng(1, 1).toString("base64")}`]);
    expect(refs.map((r) => r.name)).toEqual(["a.txt", "b.png"]);
    expect(seen).toEqual(refs.map((r) => r.id));
  });
});
