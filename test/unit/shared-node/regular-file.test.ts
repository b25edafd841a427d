/**
 * readRegularFile: the one way main and the workers read a file someone else may have put there. Only a regular
 * file is opened (a FIFO nobody writes to would block the read for good), a link is not followed, and no more than
 * the bound is read.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readRegularFile } from "../../../src/shared-node/regular-file";
import { Fifos, within } from "../../../testkit/fifos";
import { TempFolders } from "../../../testkit/temp-folders";

const folders = new TempFolders("paddock-regular-");
const fifos = new Fifos();
afterEach(() => {
  fifos.releaseAll();
  folders.removeAll();
});

describe("readRegularFile", () => {
  it("reads a regular file, whole or cut at the bound, and refuses a larger one unless told to cut", async () => {
    const root = folders.make({ "a.txt": "0123456789" });
    const path = join(root, "a.txt");
    expect(await readRegularFile(path, { maxBytes: 10 })).toMatchObject({ ok: true, size: 10, cut: false });
    const cut = await readRegularFile(path, { maxBytes: 4, larger: "cut", real: true });
    expect(cut.ok && cut.bytes.toString()).toBe("0123");
    expect(cut).toMatchObject({ ok: true, size: 10, cut: true });
    expect(await readRegularFile(path, { maxBytes: 4 })).toEqual({ ok: false, kind: "too-large", reason: "larger than 4 bytes (10 bytes)" });
  });

  it("never opens a FIFO, a folder or a link, and says what each is", { timeout: 10_000 }, async () => {
    const root = folders.make({ "a.txt": "x" });
    const fifo = fifos.make(join(root, "pipe"));
    mkdirSync(join(root, "dir"));
    symlinkSync(join(root, "a.txt"), join(root, "link"));
    const reads = await within(Promise.all([fifo, join(root, "dir"), join(root, "link"), join(root, "none")].map((p) => readRegularFile(p, { maxBytes: 100 }))), 3_000, "reading a FIFO");
    expect(reads).toEqual([
      { ok: false, kind: "not-a-file", reason: "a FIFO (named pipe), not a regular file" },
      { ok: false, kind: "folder", reason: "a folder, not a file" },
      { ok: false, kind: "link", reason: "a symbolic link" },
      { ok: false, kind: "missing", reason: "not there" },
    ]);
  });

  it("with `real`, refuses a path through a folder that is a link (on Linux, what was opened is checked)", async () => {
    const outside = folders.make({ "AGENTS.md": "outside" });
    const root = folders.make();
    symlinkSync(outside, join(root, "swapped"));
    writeFileSync(join(root, "plain.md"), "inside");
    expect(await readRegularFile(join(root, "plain.md"), { maxBytes: 100, real: true })).toMatchObject({ ok: true });
    const through = await readRegularFile(join(root, "swapped", "AGENTS.md"), { maxBytes: 100, real: true });
    if (process.platform === "linux") expect(through).toEqual({ ok: false, kind: "unreadable", reason: "replaced while being opened" });
  });
});
