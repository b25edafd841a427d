/**
 * Chats' drafts on disk: kept and read back, an empty draft removes the file, a corrupt or oversized file reads as an
 * empty draft (no throw), bad drafts are refused with words and keep the draft saved before, and concurrent saves
 * end with the last one called, the file whole.
 */
import { mkdirSync, readdirSync, readFileSync, existsSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DraftStore, draftFile, MAX_DRAFT_FILE_BYTES } from "../../../../src/shared-node/session-files/draft-store";
import { attachmentsDir } from "../../../../src/shared-node/session-files/session-folder";
import { MAX_DRAFT_TEXT_CHARS } from "../../../../src/shared/protocol/drafts";
import type { AttachmentRef } from "../../../../src/shared/protocol/attachments";
import { TempFolders } from "../../../../testkit/temp-folders";

const folders = new TempFolders("paddock-drafts-");
afterEach(() => folders.removeAll());

/** A text file stored in the session's attachment folder, as the worker's store does. */
function stored(sessionDir: string, text: string, name = "notes.md"): AttachmentRef {
  const bytes = Buffer.from(text);
  const id = `${createHash("sha256").update(bytes).digest("hex")}.txt`;
  mkdirSync(attachmentsDir(sessionDir), { recursive: true });
  writeFileSync(join(attachmentsDir(sessionDir), id), bytes);
  return { id, name, mimeType: "text/plain", size: bytes.length };
}

describe("DraftStore", () => {
  it("keeps a draft with its files and reads it back; an empty draft removes the file", async () => {
    const dir = folders.make();
    const store = new DraftStore();
    expect(await store.read(dir)).toEqual({ text: "", attachments: [] });
    const ref = stored(dir, "# Notes\n");
    await store.write(dir, { text: "half a thought", attachments: [ref] });
    expect(await new DraftStore().read(dir)).toEqual({ text: "half a thought", attachments: [ref] });
    await store.write(dir, { text: "", attachments: [] });
    expect(existsSync(draftFile(dir))).toBe(false);
    expect(await store.read(dir)).toEqual({ text: "", attachments: [] });
  });

  it("a corrupt, oversized or odd file reads as an empty draft, and the next save replaces it", async () => {
    const dir = folders.make();
    const store = new DraftStore();
    for (const junk of ["{not json", "null", "[1,2]", '{"text":42,"attachments":"x"}', "\u0000\u0001"]) {
      writeFileSync(draftFile(dir), junk);
      expect(await store.read(dir)).toEqual({ text: "", attachments: [] });
    }
    writeFileSync(draftFile(dir), JSON.stringify({ text: "x".repeat(MAX_DRAFT_FILE_BYTES + 10), attachments: [] }));
    expect(await store.read(dir)).toEqual({ text: "", attachments: [] });
    await store.write(dir, { text: "again", attachments: [] });
    expect(await store.read(dir)).toEqual({ text: "again", attachments: [] });
  });

  it("drops refs whose file is gone or of another size, and refs that are not refs", async () => {
    const dir = folders.make();
    const ref = stored(dir, "kept");
    const gone = { ...stored(folders.make(), "elsewhere"), name: "gone.md" };
    writeFileSync(draftFile(dir), JSON.stringify({ text: "t", attachments: [ref, gone, { ...ref, size: 99 }, { id: "../../etc/passwd", name: "x", mimeType: "text/plain", size: 1 }, 7] }));
    expect(await new DraftStore().read(dir)).toEqual({ text: "t", attachments: [ref] });
  });

  it("refuses a too long text, too many files or a file not stored in the chat, keeping the draft saved before", async () => {
    const dir = folders.make();
    const store = new DraftStore();
    await store.write(dir, { text: "before", attachments: [] });
    await expect(store.write(dir, { text: "x".repeat(MAX_DRAFT_TEXT_CHARS + 1), attachments: [] })).rejects.toThrow(/too long to keep/);
    const ref = stored(dir, "one");
    await expect(store.write(dir, { text: "t", attachments: Array.from({ length: 9 }, () => ref) })).rejects.toThrow(/at most 8 attachments/);
    const missing = { ...stored(folders.make(), "not here"), name: "missing.md" };
    await expect(store.write(dir, { text: "t", attachments: [missing] })).rejects.toThrow("missing.md is not stored in this chat: attach it again.");
    await expect(store.write(dir, { text: "t", attachments: [{ ...ref, id: "../draft.json" }] })).rejects.toThrow(/not stored in this chat/);
    expect(await store.read(dir)).toEqual({ text: "before", attachments: [] });
  });

  it("concurrent saves end with the last one called, the file whole, no temporary files left", async () => {
    const dir = folders.make();
    const store = new DraftStore();
    const ref = stored(dir, "file");
    // Slower checks first (a file to stat) must not let an earlier save land after a later one.
    const saves = Array.from({ length: 40 }, (_, i) => store.write(dir, { text: `draft ${i} ${"x".repeat(i * 500)}`, attachments: i % 2 === 0 ? [ref] : [] }));
    saves.push(store.write(dir, { text: "x".repeat(MAX_DRAFT_TEXT_CHARS + 1), attachments: [] }).catch(() => undefined));
    await Promise.all(saves);
    const last = JSON.parse(readFileSync(draftFile(dir), "utf8")) as { text: string };
    expect(last.text.startsWith("draft 39 ")).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    // Two stores (two windows' calls through one main are one store; this is the worst case): the file stays whole.
    await Promise.all([new DraftStore().write(dir, { text: "a".repeat(100_000), attachments: [] }), new DraftStore().write(dir, { text: "b".repeat(100_000), attachments: [] })]);
    expect(["a", "b"]).toContain((await store.read(dir)).text[0]);
    expect((await store.read(dir)).text).toHaveLength(100_000);
  });
});
