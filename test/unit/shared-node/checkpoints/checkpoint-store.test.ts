/**
 * The checkpoint store on real folders (no mocks): what a shell command can do to a workspace recorded and put back
 * byte for byte, the conflict rule, the user's repository left alone, ignored and too-large files, links never
 * followed, dedup, clean-up, two processes at once, and a FIFO or socket in the tree.
 */
import { execFileSync, fork } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openCheckpointStore, type CheckpointStore } from "../../../../src/shared-node/checkpoints/checkpoint-store";
import { checkpointStoreBytes, enforceCheckpointSizeLimit, removeCheckpointSession } from "../../../../src/shared-node/checkpoints/maintenance";
import { listTree } from "./tree-listing";

let base: string;
let ws: string;
let data: string;
const stores: CheckpointStore[] = [];

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "paddock-checkpoints-"));
  ws = join(base, "workspace");
  data = join(base, "data");
  mkdirSync(ws);
  mkdirSync(data);
});

afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  rmSync(base, { recursive: true, force: true });
});

function open(session = "chat-1", options: Parameters<typeof openCheckpointStore>[3] = {}): CheckpointStore {
  const store = openCheckpointStore(data, ws, session, options);
  stores.push(store);
  return store;
}

function write(rel: string, content: string | Buffer): void {
  mkdirSync(join(ws, rel, ".."), { recursive: true });
  writeFileSync(join(ws, rel), content);
}

function objectIds(): string[] {
  const dir = join(data, "checkpoints", "objects");
  return readdirSync(dir).flatMap((fan) => readdirSync(join(dir, fan)).map((rest) => fan + rest));
}

function blobOf(content: string | Buffer): string {
  return createHash("sha256").update(content).digest("hex");
}

describe("checkpoints: a shell command's changes, recorded and restored", () => {
  it("records deletes, renames, binary files, modes, a file turned symlink and an empty folder, and puts every byte back", async () => {
    write("a/one.txt", "one\n");
    write("a/two.txt", "two\n");
    write("gone/sub/deep.txt", "deep\n");
    write("gone/top.txt", "top\n");
    write("script.sh", "#!/bin/sh\necho hi\n");
    write("becomes-link.txt", "I am a file\n");
    symlinkSync("a/two.txt", join(ws, "link-to-two"));
    const before = listTree(ws);
    const store = open();
    const start = await store.baseline();

    // What `rm -rf gone && mv a/one.txt a/uno.txt && head -c 4096 /dev/urandom > bin.dat && chmod +x script.sh && ...` does.
    rmSync(join(ws, "gone"), { recursive: true });
    renameSync(join(ws, "a/one.txt"), join(ws, "a/uno.txt"));
    const binary = randomBytes(4096);
    write("bin.dat", binary);
    chmodSync(join(ws, "script.sh"), 0o755);
    unlinkSync(join(ws, "becomes-link.txt"));
    symlinkSync("a/two.txt", join(ws, "becomes-link.txt"));
    mkdirSync(join(ws, "empty"));
    const after = listTree(ws);
    const end = await store.snapshot();

    const changes = store.changes(start, end);
    const byPath = Object.fromEntries(changes.map((c) => [c.path, c]));
    expect(byPath["gone"]).toMatchObject({ status: "deleted", kind: "dir" });
    expect(byPath["gone/sub"]).toMatchObject({ status: "deleted", kind: "dir" });
    expect(byPath["gone/sub/deep.txt"]).toMatchObject({ status: "deleted", kind: "file", before: blobOf("deep\n") });
    expect(byPath["a/uno.txt"]).toMatchObject({ status: "renamed", from: "a/one.txt", kind: "file" });
    expect(byPath["a/one.txt"]).toBeUndefined();
    expect(byPath["bin.dat"]).toMatchObject({ status: "added", kind: "file", sizeAfter: 4096, after: blobOf(binary) });
    expect(store.read(byPath["bin.dat"].after!).equals(binary)).toBe(true);
    expect(byPath["script.sh"]).toMatchObject({ status: "modified", modeBefore: 0o644 & ~process.umask(), modeAfter: 0o755 });
    expect(byPath["becomes-link.txt"]).toMatchObject({ status: "modified", kind: "symlink", kindBefore: "file", after: "a/two.txt" });
    expect(byPath["empty"]).toMatchObject({ status: "added", kind: "dir" });
    expect(byPath["gone/top.txt"]).toMatchObject({ status: "deleted", kind: "file" });
    expect(changes.length).toBe(9);

    const undo = await store.restore(start, { expectedId: end });
    expect(undo.conflicts).toEqual([]);
    expect(undo.skipped).toEqual([]);
    expect(listTree(ws)).toEqual(before);

    // The restore is itself checkpointed, and undone (redo).
    const restoredAt = await store.snapshot({ paths: undo.paths });
    expect(store.changes(start, restoredAt)).toEqual([]);
    const redo = await store.restore(end, { expectedId: restoredAt });
    expect(redo.conflicts).toEqual([]);
    expect(listTree(ws)).toEqual(after);
  });

  it("re-examines only the paths named (write/edit), new folders on the way and deletions included", async () => {
    write("src/a.ts", "a\n");
    write("src/old/b.ts", "b\n");
    const store = open();
    const start = await store.baseline();
    write("src/a.ts", "a changed\n");
    write("src/new/deeper/c.ts", "c\n");
    rmSync(join(ws, "src/old"), { recursive: true });
    write("unnamed.txt", "not named, not seen\n");
    const end = await store.snapshot({ paths: ["src/a.ts", join(ws, "src/new/deeper/c.ts"), "src/old/b.ts"] });
    const changes = store.changes(start, end).map((c) => `${c.status} ${c.path}`);
    expect(changes.sort()).toEqual(["added src/new", "added src/new/deeper", "added src/new/deeper/c.ts", "deleted src/old", "deleted src/old/b.ts", "modified src/a.ts"]);
    const full = await store.snapshot();
    expect(store.changes(end, full).map((c) => `${c.status} ${c.path}`)).toEqual(["added unnamed.txt"]);
  });
});

describe("checkpoints: the watcher", () => {
  it("records after each command exactly what a full scan records", async () => {
    write(".gitignore", "out/\n");
    write("a/b/c/deep.txt", "deep\n");
    write("a/keep.txt", "keep\n");
    write("x/y.txt", "y\n");
    write("out/ignored.txt", "ignored\n");
    const watching = open("watching");
    await watching.baseline();
    const rootOf = (store: CheckpointStore) => store.list().at(-1)!.root;
    const commands: (() => void)[] = [
      () => write("a/b/c/deep.txt", "deep changed\n"),
      () => {
        rmSync(join(ws, "a/b"), { recursive: true });
        write("a/b/c/deep.txt", "made again\n"); // the folder removed and made again, a new inode
      },
      () => write("a/b/c/deep.txt", "then changed inside the new folder\n"),
      () => {
        write("new/one/two/three.txt", "3\n");
        write("new/one/four.txt", "4\n");
        mkdirSync(join(ws, "new/empty"));
      },
      () => {
        renameSync(join(ws, "x"), join(ws, "new/one/moved-x"));
        chmodSync(join(ws, "a/keep.txt"), 0o700);
      },
      () => write("new/one/moved-x/y.txt", "changed after the move\n"),
      () => {
        write(".gitignore", "\n"); // out/ is tracked from now on
        unlinkSync(join(ws, "a/keep.txt"));
        symlinkSync("b/c/deep.txt", join(ws, "a/keep.txt"));
      },
      () => write("out/ignored.txt", "no longer ignored, changed\n"),
    ];
    for (const [i, command] of commands.entries()) {
      command();
      await watching.snapshot();
      const scanning = open(`scanning-${i}`, { watch: false });
      await scanning.baseline();
      expect(rootOf(watching), `after command ${i}`).toBe(rootOf(scanning));
    }
  });

  it("takes a full scan when asked, which sees a write through a hard link from outside the tree", async () => {
    write("linked.txt", "one\n");
    (await import("node:fs")).linkSync(join(ws, "linked.txt"), join(base, "outside-link.txt"));
    const store = open();
    const start = await store.baseline();
    await store.snapshot();
    writeFileSync(join(base, "outside-link.txt"), "changed from outside, through the other link\n");
    const full = await store.snapshot({ full: true });
    expect(store.changes(start, full).map((c) => c.path)).toEqual(["linked.txt"]);
  });
});

describe("checkpoints: the conflict rule", () => {
  it("returns a conflict instead of overwriting a file changed outside since the agent's checkpoint; force restores it", async () => {
    write("notes.md", "original\n");
    write("other.md", "other\n");
    const store = open();
    const start = await store.baseline();
    write("notes.md", "the agent's version\n");
    write("other.md", "the agent changed this too\n");
    const agentLeft = await store.snapshot({ paths: ["notes.md", "other.md"] });
    write("notes.md", "the user's own edit\n"); // in their editor, after the agent

    const result = await store.restore(start, { expectedId: agentLeft });
    expect(result.conflicts.map((c) => c.path)).toEqual(["notes.md"]);
    expect(result.conflicts[0].expected?.ref).toBe(blobOf("the agent's version\n"));
    expect(result.conflicts[0].actual?.ref).toBe(blobOf("the user's own edit\n"));
    expect(result.restored).toEqual([]);
    expect(readFileSync(join(ws, "notes.md"), "utf8")).toBe("the user's own edit\n");
    expect(readFileSync(join(ws, "other.md"), "utf8")).toBe("the agent changed this too\n");

    const onlyOther = await store.restore(start, { expectedId: agentLeft, paths: ["other.md"] });
    expect(onlyOther.conflicts).toEqual([]);
    expect(readFileSync(join(ws, "other.md"), "utf8")).toBe("other\n");

    const forced = await store.restore(start, { expectedId: agentLeft, force: ["notes.md"] });
    expect(forced.conflicts).toEqual([]);
    expect(readFileSync(join(ws, "notes.md"), "utf8")).toBe("original\n");
  });

  it("neither reads nor reverts a file the agent never touched, changed outside meanwhile", async () => {
    write("agent.txt", "before\n");
    write("user.txt", "user before\n");
    const store = open();
    const start = await store.baseline();
    write("agent.txt", "agent's\n");
    const agentLeft = await store.snapshot({ paths: ["agent.txt"] });
    write("user.txt", "the user's edit\n");
    const result = await store.restore(start, { expectedId: agentLeft });
    expect(result.conflicts).toEqual([]);
    expect(result.paths).toEqual(["agent.txt"]);
    expect(readFileSync(join(ws, "agent.txt"), "utf8")).toBe("before\n");
    expect(readFileSync(join(ws, "user.txt"), "utf8")).toBe("the user's edit\n");
  });
});

describe("checkpoints: the user's repository", () => {
  it("works in a folder without git", async () => {
    write("plain.txt", "x\n");
    const store = open();
    const start = await store.baseline();
    write("plain.txt", "y\n");
    const end = await store.snapshot();
    expect(store.changes(start, end).map((c) => c.path)).toEqual(["plain.txt"]);
    await store.restore(start, { expectedId: end });
    expect(readFileSync(join(ws, "plain.txt"), "utf8")).toBe("x\n");
  });

  it("works in a linked git worktree, whose .git is a file", async () => {
    write(".git", "gitdir: /elsewhere/.git/worktrees/feature\n");
    write("a.txt", "x\n");
    const store = open();
    const start = await store.baseline();
    write("a.txt", "y\n");
    const end = await store.snapshot();
    expect(store.changes(start, end).map((c) => c.path)).toEqual(["a.txt"]);
    expect(readFileSync(join(ws, ".git"), "utf8")).toBe("gitdir: /elsewhere/.git/worktrees/feature\n");
  });

  it("never reads or writes .git: index, HEAD, refs and stash are byte-identical after snapshots and a restore", async () => {
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: ws, stdio: "pipe" });
    git("init", "-q");
    write("tracked.txt", "v1\n");
    git("add", ".");
    git("commit", "-qm", "one");
    write("tracked.txt", "stashed change\n");
    git("stash", "-q");
    git("branch", "feature");
    write("sub/.git", "gitdir: /nowhere\n"); // a worktree's or submodule's .git file, skipped too
    const gitFiles = () => {
      const out: Record<string, string> = {};
      const walk = (rel: string) => {
        for (const name of readdirSync(join(ws, rel))) {
          const path = join(rel, name);
          if (statSync(join(ws, path)).isDirectory()) walk(path);
          else out[path] = readFileSync(join(ws, path)).toString("base64");
        }
      };
      walk(".git");
      out["sub/.git"] = readFileSync(join(ws, "sub/.git"), "utf8");
      return out;
    };
    const gitBefore = gitFiles();
    expect(Object.keys(gitBefore)).toEqual(expect.arrayContaining([".git/index", ".git/HEAD", ".git/refs/stash", ".git/refs/heads/feature"]));
    const store = open();
    const start = await store.baseline();
    write("tracked.txt", "agent\n");
    rmSync(join(ws, "sub"), { recursive: true, force: true });
    mkdirSync(join(ws, "sub"));
    write("sub/.git", "gitdir: /nowhere\n");
    const end = await store.snapshot();
    expect(store.changes(start, end).map((c) => c.path)).toEqual(["tracked.txt"]);
    await store.restore(start, { expectedId: end });
    expect(readFileSync(join(ws, "tracked.txt"), "utf8")).toBe("v1\n");
    expect(gitFiles()).toEqual(gitBefore);
    const stored = objectIds().map((id) => readFileSync(join(data, "checkpoints", "objects", id.slice(0, 2), id.slice(2))));
    expect(stored.some((b) => b.toString("utf8").includes("gitdir: /nowhere"))).toBe(false);
  });
});

describe("checkpoints: what is not tracked", () => {
  it("leaves what .gitignore (root, nested) and .git/info/exclude ignore untouched and unreported", async () => {
    write(".gitignore", "*.log\nbuild/\n");
    write("pkg/.gitignore", "!keep.log\ncache\n");
    write(".git/info/exclude", "secret.txt\n");
    write("app.log", "log 1\n");
    write("pkg/keep.log", "kept 1\n");
    write("pkg/cache/blob.bin", "cache 1\n");
    write("build/out.js", "built 1\n");
    write("secret.txt", "secret 1\n");
    write("src/main.ts", "main 1\n");
    const store = open();
    const start = await store.baseline();
    write("app.log", "log 2\n");
    write("pkg/keep.log", "kept 2\n");
    write("pkg/cache/blob.bin", "cache 2\n");
    write("build/out.js", "built 2\n");
    write("build/new.js", "new\n");
    write("secret.txt", "secret 2\n");
    rmSync(join(ws, "src"), { recursive: true });
    const end = await store.snapshot();
    expect(store.changes(start, end).map((c) => `${c.status} ${c.path}`).sort()).toEqual(["deleted src", "deleted src/main.ts", "modified pkg/keep.log"]);
    write("src/ignored-inside.log", "ignored, inside a folder the restore removes\n");
    await store.restore(start, { expectedId: end, force: [""] });
    expect(readFileSync(join(ws, "pkg/keep.log"), "utf8")).toBe("kept 1\n");
    expect(readFileSync(join(ws, "src/main.ts"), "utf8")).toBe("main 1\n");
    for (const [path, text] of [["app.log", "log 2\n"], ["pkg/cache/blob.bin", "cache 2\n"], ["build/out.js", "built 2\n"], ["build/new.js", "new\n"], ["secret.txt", "secret 2\n"]]) {
      expect(readFileSync(join(ws, path), "utf8")).toBe(text);
    }
    const stored = new Set(objectIds());
    for (const text of ["log 1\n", "cache 1\n", "built 1\n", "secret 1\n", "secret 2\n"]) expect(stored.has(blobOf(text))).toBe(false);
  });

  it("records a file over the size limit as changed (size, mtime, too large) without storing it", async () => {
    write("small.txt", "small\n");
    write("big.bin", Buffer.alloc(5000, 1));
    const store = open("chat-1", { maxFileBytes: 1000 });
    const start = await store.baseline();
    write("big.bin", Buffer.alloc(5000, 2)); // same size, new content and mtime
    const utimes = new Date(Date.now() + 5000);
    (await import("node:fs")).utimesSync(join(ws, "big.bin"), utimes, utimes);
    write("huge.bin", Buffer.alloc(8000, 3));
    const end = await store.snapshot();
    const changes = store.changes(start, end);
    expect(changes).toEqual([
      expect.objectContaining({ path: "big.bin", status: "modified", tooLargeBefore: true, tooLargeAfter: true, sizeAfter: 5000 }),
      expect.objectContaining({ path: "huge.bin", status: "added", tooLargeAfter: true, sizeAfter: 8000 }),
    ]);
    expect(changes[0].after).toBeUndefined();
    expect(objectIds()).not.toContain(blobOf(Buffer.alloc(5000, 1)));
    const result = await store.restore(start, { expectedId: end });
    expect(result.skipped).toEqual([{ path: "big.bin", reason: "too-large" }]);
    expect(existsSync(join(ws, "huge.bin"))).toBe(false);
  });

  it("skips a FIFO and a socket in the tree, without hanging", async () => {
    write("real.txt", "real\n");
    execFileSync("mkfifo", [join(ws, "pipe")]);
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(join(ws, "sock"), resolve));
    try {
      const store = open();
      const start = await store.baseline();
      write("real.txt", "changed\n");
      const end = await store.snapshot();
      expect(store.changes(start, end).map((c) => c.path)).toEqual(["real.txt"]);
      const named = await store.snapshot({ paths: ["pipe", "sock"] });
      expect(store.changes(start, named).map((c) => c.path)).toEqual(["real.txt"]);
    } finally {
      server.close();
    }
  });
});

describe("checkpoints: links", () => {
  it("records a link out of the workspace as a link, and restoring never writes through one", async () => {
    const outside = join(base, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "f.txt"), "outside, must stay\n");
    writeFileSync(join(outside, "secret.txt"), "outside secret\n");
    symlinkSync(join(outside, "secret.txt"), join(ws, "to-secret"));
    symlinkSync(outside, join(ws, "to-outside-dir"));
    write("sub/f.txt", "inside\n");
    write("plain.txt", "plain\n");
    const store = open();
    const start = await store.baseline();
    expect(objectIds()).not.toContain(blobOf("outside secret\n"));

    // The agent swaps a folder and a file for links out of the workspace.
    rmSync(join(ws, "sub"), { recursive: true });
    symlinkSync(outside, join(ws, "sub"));
    unlinkSync(join(ws, "plain.txt"));
    symlinkSync(join(outside, "f.txt"), join(ws, "plain.txt"));
    const end = await store.snapshot();
    // A folder turned link is two changes: the folder (and what was in it) went, the link came.
    expect(store.changes(start, end).filter((c) => c.path.startsWith("sub"))).toEqual([
      expect.objectContaining({ path: "sub", status: "deleted", kind: "dir" }),
      expect.objectContaining({ path: "sub", status: "added", kind: "symlink", after: outside }),
      expect.objectContaining({ path: "sub/f.txt", status: "deleted", kind: "file" }),
    ]);

    const result = await store.restore(start, { expectedId: end });
    expect(result.conflicts).toEqual([]);
    expect(readFileSync(join(outside, "f.txt"), "utf8")).toBe("outside, must stay\n");
    expect(readdirSync(outside).sort()).toEqual(["f.txt", "secret.txt"]);
    expect(statSync(join(ws, "sub")).isDirectory()).toBe(true);
    expect(readFileSync(join(ws, "sub/f.txt"), "utf8")).toBe("inside\n");
    expect(readFileSync(join(ws, "plain.txt"), "utf8")).toBe("plain\n");

    // Named paths through a link are not followed either.
    const named = await store.snapshot({ paths: ["to-outside-dir/f.txt"] });
    expect(store.changes(start, named)).toEqual([]);
  });
});

describe("checkpoints: storage", () => {
  it("stores the same content once, across files, snapshots and sessions", async () => {
    write("a.txt", "same content\n");
    write("b/c.txt", "same content\n");
    const one = open("chat-1");
    await one.baseline();
    const count = objectIds().length;
    write("d.txt", "same content\n");
    await one.snapshot({ paths: ["d.txt"] });
    const two = open("chat-2");
    await two.baseline();
    const blobs = objectIds().filter((id) => id === blobOf("same content\n"));
    expect(blobs).toHaveLength(1);
    // d.txt added one tree (the root's), no blob; the second session's identical tree adds nothing.
    expect(objectIds().length).toBe(count + 1);
  });

  it("removes a chat's checkpoints and sweeps what only it reached", async () => {
    write("shared.txt", "shared\n");
    const one = open("chat-1");
    const two = open("chat-2");
    await one.baseline();
    write("only-one.txt", "only chat-1 saw this\n");
    await one.snapshot({ paths: ["only-one.txt"] });
    rmSync(join(ws, "only-one.txt"));
    const twoStart = await two.baseline();
    await one.close();
    await two.close();
    const result = removeCheckpointSession(data, "chat-1", { graceMs: 0 });
    expect(result.removedObjects).toBeGreaterThan(0);
    expect(objectIds()).not.toContain(blobOf("only chat-1 saw this\n"));
    expect(objectIds()).toContain(blobOf("shared\n"));
    expect(one.list()).toEqual([]);
    write("shared.txt", "changed\n");
    const twoEnd = await two.snapshot();
    await two.restore(twoStart, { expectedId: twoEnd });
    expect(readFileSync(join(ws, "shared.txt"), "utf8")).toBe("shared\n");
  });

  it("holds the store under a size limit by dropping the oldest checkpoints first, and says which", async () => {
    const store = open();
    const ids = [await store.baseline()];
    for (let i = 0; i < 4; i++) {
      write("data.bin", randomBytes(10_000));
      ids.push(await store.snapshot({ paths: ["data.bin"] }));
    }
    await store.close();
    const total = checkpointStoreBytes(data);
    expect(total).toBeGreaterThan(40_000);
    const result = enforceCheckpointSizeLimit(data, 25_000, { graceMs: 0 });
    expect(result.dropped.map((r) => r.id)).toEqual(ids.slice(0, 3));
    expect(result.withinLimit).toBe(true);
    expect(result.bytesAfter).toBeLessThanOrEqual(25_000);
    expect(checkpointStoreBytes(data)).toBe(result.bytesAfter);
    expect(store.list().map((r) => r.id)).toEqual(ids.slice(3));
    expect(store.changes(ids[3], ids[4])).toHaveLength(1);
    // The newest checkpoint of a chat is never dropped.
    expect(enforceCheckpointSizeLimit(data, 1, { graceMs: 0 }).dropped.map((r) => r.id)).toEqual([ids[3]]);
    expect(store.list().map((r) => r.id)).toEqual([ids[4]]);
  });

  it("never scans its own store when the data folder lies inside the workspace", async () => {
    write("a.txt", "a\n");
    data = join(ws, "app-data");
    mkdirSync(data);
    const store = open();
    const start = await store.baseline();
    write("b.txt", "b\n");
    const end = await store.snapshot();
    expect(store.changes(start, end).map((c) => c.path)).toEqual(["b.txt"]);
    expect(store.list()).toHaveLength(2);
    await store.close();
    const again = await store.snapshot();
    expect(store.changes(end, again)).toEqual([]);
  });

  it("lets a new process start from the saved stat cache, and sees what changed meanwhile", async () => {
    write("a.txt", "a\n");
    write("b/c.txt", "c\n");
    const first = open("chat-1");
    const start = await first.baseline();
    await first.close();
    write("b/c.txt", "c changed while no one looked\n");
    const second = open("chat-1");
    const reopened = await second.baseline();
    expect(second.changes(start, reopened).map((c) => c.path)).toEqual(["b/c.txt"]);
  });

  it("keeps two processes snapshotting the same workspace at once consistent", async () => {
    write("shared.txt", "start\n");
    for (let i = 0; i < 200; i++) write(`tree/d${i % 10}/f${i}.txt`, `file ${i}\n`);
    const child = join(import.meta.dirname, "concurrent-child.ts");
    const run = (session: string) =>
      new Promise<string[]>((resolve, reject) => {
        const proc = fork(child, [data, ws, session, "6"], { execArgv: ["--import", "tsx"], stdio: ["ignore", "pipe", "pipe", "ipc"] });
        let out = "";
        let err = "";
        proc.stdout!.on("data", (d: Buffer) => (out += d.toString()));
        proc.stderr!.on("data", (d: Buffer) => (err += d.toString()));
        proc.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out) as string[]) : reject(new Error(`child ${session} exited ${code}: ${err}`))));
      });
    const [a, b] = await Promise.all([run("agent-a"), run("agent-b")]);
    expect(a).toHaveLength(7);
    expect(b).toHaveLength(7);
    // Every checkpoint of both is whole: its files read back with the content their ids name.
    for (const [session, ids] of [["agent-a", a], ["agent-b", b]] as const) {
      const store = open(session);
      for (let i = 1; i < ids.length; i++) {
        for (const change of store.changes(ids[0], ids[i])) {
          if (change.after && change.kind === "file") expect(blobOf(store.read(change.after))).toBe(change.after);
        }
      }
      const last = store.changes(ids[0], ids[6]).map((c) => c.path);
      expect(last).toEqual(expect.arrayContaining([`${session}-5.txt`, "shared.txt"]));
    }
    // Restoring one agent's first checkpoint, as the other left the tree, is consistent too.
    const store = open("agent-a");
    const now = await store.snapshot();
    const back = await store.restore(a[0], { expectedId: now });
    expect(back.conflicts).toEqual([]);
    expect(readFileSync(join(ws, "shared.txt"), "utf8")).toBe("start\n");
    expect(existsSync(join(ws, "agent-b-5.txt"))).toBe(false);
  });
});
