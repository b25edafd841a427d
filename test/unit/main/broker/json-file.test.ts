import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Type } from "typebox";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { JsonFile } from "../../../../src/main/broker/json-file";

/** A small file of notes: version 2 holds `{ version, notes: string[] }`; version 1 was `{ note: string }`. */
const NotesSchema = Type.Object({ version: Type.Literal(2), notes: Type.Array(Type.String({ minLength: 1 })) }, { additionalProperties: false });

let dir: string;
const path = () => join(dir, "notes.json");
const notes = () =>
  new JsonFile({
    path: path(),
    title: "Your notes file",
    schema: NotesSchema,
    upgrade: (raw) => {
      const old = raw as { version?: unknown; note?: unknown };
      return old?.version === 1 ? { version: 2, notes: [old.note] } : raw;
    },
    rules: (value) => (new Set(value.notes).size === value.notes.length ? [] : ["notes: a note is there twice"]),
    recover: (parsed) => {
      const list = (parsed?.raw as { notes?: unknown })?.notes;
      const kept = Array.isArray(list) ? list.filter((n): n is string => typeof n === "string" && n.length > 0) : [];
      return { value: { version: 2 as const, notes: [...new Set(kept)] }, outcome: `${kept.length} notes were kept` };
    },
  });
const onDisk = () => JSON.parse(readFileSync(path(), "utf8"));
const setAside = () => readdirSync(dir).filter((f) => /^notes\.corrupt-.+\.json$/.test(f));

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "paddock-json-file-"));
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

describe("loading one of main's JSON files", () => {
  it("finds no value and writes nothing when the file is missing", () => {
    expect(notes().load()).toEqual({ value: undefined });
    expect(readdirSync(dir)).toEqual([]);
  });

  it("reads a current file as it is, without rewriting it", () => {
    writeFileSync(path(), '{"version":2,"notes":["a"]}');
    expect(notes().load()).toEqual({ value: { version: 2, notes: ["a"] } });
    expect(readFileSync(path(), "utf8")).toBe('{"version":2,"notes":["a"]}');
  });

  it("upgrades an older layout and writes it back, with no notice", () => {
    writeFileSync(path(), '{"version":1,"note":"old"}');
    expect(notes().load()).toEqual({ value: { version: 2, notes: ["old"] } });
    expect(onDisk()).toEqual({ version: 2, notes: ["old"] });
  });

  it("sets a torn file aside with its bytes, replaces it, and says where the bytes went", () => {
    const torn = '{"version":2,"notes":["a","b"';
    writeFileSync(path(), torn);
    const loaded = notes().load();
    expect(setAside()).toHaveLength(1);
    const backup = join(dir, setAside()[0]);
    expect(readFileSync(backup, "utf8")).toBe(torn);
    expect(loaded).toEqual({
      value: { version: 2, notes: [] },
      notice: { level: "warning", text: `Your notes file was unreadable; it was saved as ${backup} and 0 notes were kept.` },
    });
    expect(onDisk()).toEqual({ version: 2, notes: [] });
    // Told once: the replacement is a good file.
    expect(notes().load().notice).toBeUndefined();
  });

  it("sets a file that fails the schema aside, keeps what the owner recovers, and names the problems", () => {
    const invalid = JSON.stringify({ version: 2, notes: ["keep", 7, ""], extra: true });
    writeFileSync(path(), invalid);
    const loaded = notes().load();
    const backup = join(dir, setAside()[0]);
    expect(readFileSync(backup, "utf8")).toBe(invalid);
    expect(loaded.value).toEqual({ version: 2, notes: ["keep"] });
    expect(loaded.notice?.text).toMatch(/^Your notes file had problems \(/);
    expect(loaded.notice?.text).toContain("file: unknown field(s) extra");
    expect(loaded.notice?.text).toContain("notes.1: must be string");
    expect(loaded.notice?.text).toContain(`; it was saved as ${backup} and 1 notes were kept.`);
    expect(onDisk()).toEqual({ version: 2, notes: ["keep"] });
  });

  it("sets aside a file that breaks the owner's rules, and one from a newer version", () => {
    writeFileSync(path(), JSON.stringify({ version: 2, notes: ["x", "x"] }));
    expect(notes().load()).toMatchObject({ value: { notes: ["x"] }, notice: { text: expect.stringContaining("notes: a note is there twice") } });
    writeFileSync(path(), JSON.stringify({ version: 3, notes: [] }));
    expect(notes().load().notice?.text).toContain("version: must be 2 (this file says 3)");
    expect(setAside()).toHaveLength(2);
  });

  it("never overwrites an earlier set-aside copy", () => {
    vi.useFakeTimers({ now: new Date("2025-01-02T03:04:05.678Z"), toFake: ["Date"] });
    writeFileSync(path(), "first");
    notes().load();
    writeFileSync(path(), "second");
    notes().load();
    expect(setAside().sort()).toEqual(["notes.corrupt-2025-01-02T03-04-05-678Z-1.json", "notes.corrupt-2025-01-02T03-04-05-678Z.json"]);
    expect(readFileSync(join(dir, "notes.corrupt-2025-01-02T03-04-05-678Z.json"), "utf8")).toBe("first");
    expect(readFileSync(join(dir, "notes.corrupt-2025-01-02T03-04-05-678Z-1.json"), "utf8")).toBe("second");
  });
});

describe("writing one of main's JSON files", () => {
  it("writes whole files readable by their user only, leaving no temp file", () => {
    notes().writeSync({ version: 2, notes: ["a"] });
    expect(onDisk()).toEqual({ version: 2, notes: ["a"] });
    expect(readdirSync(dir)).toEqual(["notes.json"]);
    if (process.platform !== "win32") expect(statSync(path()).mode & 0o777).toBe(0o600);
  });

  it("a crash between writing the temp file and renaming it leaves the old file, and the leftover goes at the next load", () => {
    notes().writeSync({ version: 2, notes: ["old"] });
    // What a crash leaves: the next version, complete or torn, in the temp file beside the real one.
    writeFileSync(`${path()}.tmp`, '{"version":2,"notes":["ne');
    expect(notes().load()).toEqual({ value: { version: 2, notes: ["old"] } });
    expect(readdirSync(dir)).toEqual(["notes.json"]);
  });

  it("refuses a value that fails the schema or the rules, writing nothing", async () => {
    const file = notes();
    file.writeSync({ version: 2, notes: ["good"] });
    expect(() => file.writeSync({ version: 2, notes: [""] })).toThrow(/Refused to write notes\.json: notes\.0: must have a minimum length of 1|notes\.0/);
    await expect(file.write({ version: 2, notes: ["a", "a"] })).rejects.toThrow("a note is there twice");
    expect(onDisk()).toEqual({ version: 2, notes: ["good"] });
    expect(readdirSync(dir)).toEqual(["notes.json"]);
  });

  it("runs concurrent writes one after another, in call order, each whole", async () => {
    const file = notes();
    const finished: number[] = [];
    const writes = Array.from({ length: 25 }, (_, i) => file.write({ version: 2, notes: [`note ${i}`, "x".repeat(20_000 * (i % 3))].filter(Boolean) }).then(() => finished.push(i)));
    // A value is taken when the write is asked for: a later change of the caller's object does not leak in.
    const value = { version: 2 as const, notes: ["last"] };
    const last = file.write(value);
    value.notes.push("changed after");
    await Promise.all([...writes, last]);
    expect(finished).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(onDisk()).toEqual({ version: 2, notes: ["last"] });
    expect(readdirSync(dir)).toEqual(["notes.json"]);
  });

  it("a failed write does not stop the next, and a blocking write waits for no one: it refuses while one is in flight", async () => {
    const file = notes();
    writeFileSync(join(dir, "sub"), "a file where the folder should be");
    const blocked = new JsonFile({ path: join(dir, "sub", "notes.json"), title: "x", schema: NotesSchema, recover: () => ({ value: { version: 2 as const, notes: [] }, outcome: "" }) });
    await expect(blocked.write({ version: 2, notes: ["a"] })).rejects.toThrow();
    const pending = file.write({ version: 2, notes: ["a"] });
    expect(() => file.writeSync({ version: 2, notes: ["b"] })).toThrow(/still in flight/);
    await pending;
    await file.write({ version: 2, notes: ["c"] });
    expect(onDisk()).toEqual({ version: 2, notes: ["c"] });
  });
});
