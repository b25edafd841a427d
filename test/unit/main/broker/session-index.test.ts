import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionIndex, type SessionRecord } from "../../../../src/main/broker/session-index";

const summary = (id: string, updated: number, extra: Partial<SessionRecord> = {}): SessionRecord => ({
  id,
  title: `Session ${id}`,
  created: 1,
  updated,
  messageCount: 0,
  ...extra,
});

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "paddock-index-"));
  file = join(dir, "data", "sessions.json");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("session index", () => {
  it("starts empty when the file is missing", async () => {
    const index = await SessionIndex.open(file);
    expect(index.list()).toEqual([]);
    expect(index.notices).toEqual([]);
  });

  it("lists live sessions newest updated first, and persists across open", async () => {
    const index = await SessionIndex.open(file);
    index.upsert(summary("a", 10));
    index.upsert(summary("b", 30, { model: { provider: "custom:local", id: "m" }, messageCount: 4 }));
    index.upsert(summary("c", 20));
    expect(index.list().map((s) => s.id)).toEqual(["b", "c", "a"]);
    await index.flush();

    const reopened = await SessionIndex.open(file);
    expect(reopened.list()).toEqual(index.list());
    expect(reopened.get("b")).toEqual(summary("b", 30, { model: { provider: "custom:local", id: "m" }, messageCount: 4 }));
  });

  it("hands out copies", async () => {
    const index = await SessionIndex.open(file);
    const original = summary("a", 1);
    index.upsert(original);
    original.title = "changed outside";
    index.list()[0].title = "changed outside";
    index.get("a")!.title = "changed outside";
    expect(index.get("a")!.title).toBe("Session a");
  });

  it("updates known sessions and ignores unknown ones", async () => {
    const index = await SessionIndex.open(file);
    index.upsert(summary("a", 1));
    expect(index.update("a", { title: "Renamed", updated: 5, messageCount: 2 })).toEqual(
      summary("a", 5, { title: "Renamed", messageCount: 2 }),
    );
    expect(index.update("zzz", { title: "x" })).toBeUndefined();
    expect(index.get("zzz")).toBeUndefined();
  });

  it("soft-deletes, restores, and purges only sessions deleted before the cut-off", async () => {
    const index = await SessionIndex.open(file);
    for (const id of ["a", "b", "c"]) index.upsert(summary(id, 1));
    expect(index.markDeleted("a", 100)).toBe(true);
    expect(index.markDeleted("b", 200)).toBe(true);
    expect(index.markDeleted("nope")).toBe(false);
    expect(index.list().map((s) => s.id)).toEqual(["c"]);
    expect(index.get("a")?.deleted).toBe(100);

    expect(index.restore("b")).toBe(true);
    expect(index.get("b")).not.toHaveProperty("deleted");
    index.markDeleted("b", 200);

    expect(index.purgeDeleted(200)).toEqual(["a"]);
    expect(index.get("a")).toBeUndefined();
    expect(index.get("b")?.deleted).toBe(200);
    await index.flush();
    expect((await SessionIndex.open(file)).get("b")?.deleted).toBe(200);
  });

  it("saves on its own after the debounce", async () => {
    const index = await SessionIndex.open(file, { debounceMs: 1 });
    index.upsert(summary("a", 1));
    await expect.poll(async () => readFile(file, "utf8").catch(() => ""), { timeout: 5000 }).toContain('"a"');
  });

  it("writes atomically: no temp file is left and the content is the latest", async () => {
    const index = await SessionIndex.open(file);
    index.upsert(summary("a", 1));
    const first = index.flush();
    index.update("a", { title: "during save" });
    await Promise.all([first, index.flush()]);
    expect(await readdir(join(dir, "data"))).toEqual(["sessions.json"]);
    expect(JSON.parse(await readFile(file, "utf8")).sessions[0].title).toBe("during save");
  });

  it("sets a corrupt file aside, starts empty, and says so", async () => {
    await mkdir(join(dir, "data"));
    await writeFile(file, "{ not json");
    const index = await SessionIndex.open(file);
    expect(index.list()).toEqual([]);
    const backups = (await readdir(join(dir, "data"))).filter((name) => /^sessions\.corrupt-.+\.json$/.test(name));
    expect(backups).toHaveLength(1);
    expect(await readFile(join(dir, "data", backups[0]), "utf8")).toBe("{ not json");
    expect(index.notices).toEqual([
      { level: "warning", text: `The list of chats was unreadable; it was saved as ${join(dir, "data", backups[0])} and the list starts empty (the chats' transcripts are untouched).` },
    ]);
  });

  it("treats valid JSON of the wrong shape as corrupt", async () => {
    await mkdir(join(dir, "data"));
    await writeFile(file, JSON.stringify([{ id: "a" }]));
    const index = await SessionIndex.open(file);
    expect(index.list()).toEqual([]);
    expect(index.notices).toEqual([expect.objectContaining({ text: expect.stringMatching(/had problems \(file: must be object\).*starts empty/) })]);
  });

  it("drops invalid and duplicate entries, keeps the rest, and backs up the original", async () => {
    await mkdir(join(dir, "data"));
    const sessions = [summary("a", 1), { id: "bad", title: 3 }, summary("b", 2), summary("a", 9, { title: "later a" })];
    await writeFile(file, JSON.stringify({ version: 1, sessions }));
    const index = await SessionIndex.open(file);
    expect(index.list().map((s) => [s.id, s.title])).toEqual([
      ["a", "later a"],
      ["b", "Session b"],
    ]);
    expect(index.notices).toEqual([expect.objectContaining({ text: expect.stringMatching(/sessions.1.title: must be string.*2 invalid entries were dropped; the other chats were kept/) })]);
    expect((await readdir(join(dir, "data"))).some((name) => /^sessions\.corrupt-.+\.json$/.test(name))).toBe(true);
    await index.flush();
    expect(JSON.parse(await readFile(file, "utf8")).sessions).toHaveLength(2);
  });

  it("drops entries whose id is not a session id (ids become file names: a tampered index must not name other paths)", async () => {
    await mkdir(join(dir, "data"));
    const sessions = [summary("a", 1), summary("../../../etc/passwd", 2), summary("b/../../x", 3), summary("b", 4)];
    await writeFile(file, JSON.stringify({ version: 1, sessions }));
    const index = await SessionIndex.open(file);
    expect(index.list().map((s) => s.id)).toEqual(["b", "a"]);
    expect(index.notices).toEqual([expect.objectContaining({ text: expect.stringMatching(/2 invalid entries were dropped/) })]);
  });

  it("refuses a summary the file could not hold, so one bad entry never blocks every later save", async () => {
    const index = await SessionIndex.open(file);
    index.upsert(summary("a", 1));
    expect(() => index.upsert(summary("../x", 1))).toThrow(/Invalid chat summary: id: must match pattern/);
    expect(() => index.update("a", { messageCount: -1 })).toThrow(/messageCount/);
    expect(index.get("a")?.messageCount).toBe(0);
    await index.flush();
    expect((await SessionIndex.open(file)).list().map((s) => s.id)).toEqual(["a"]);
  });

  it("rejects flush and reports a problem when saving fails, and saves on a later flush", async () => {
    const index = await SessionIndex.open(file);
    const told: string[] = [];
    index.onNotice((n) => told.push(n.text));
    await writeFile(join(dir, "data"), "a file where the folder should be");
    index.upsert(summary("a", 1));
    await expect(index.flush()).rejects.toThrow();
    expect(index.notices).toEqual([expect.objectContaining({ text: expect.stringMatching(/Could not save the list of chats/) })]);
    expect(told).toEqual([index.notices[0].text]);
    await rm(join(dir, "data"));
    await index.flush();
    expect((await SessionIndex.open(file)).get("a")).toBeDefined();
  });
});
