import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWorkspace, type WorkspaceFixture } from "./workspace-fixture";

/**
 * The attack of issue 21, item 6: while a tool works on `d/…`, another process keeps swapping the folder `d` for a
 * symlink to a folder outside the workspace. The path gate checks `d` while it is the real folder; the open comes a
 * moment later. Before tools verified what they had opened, `read d/id_rsa` returned the outside key after 11–155
 * tries; `write`, `edit`, `ls`, `grep` and `find` walked the same path the same way.
 */

const SECRET = "OUTSIDE-PRIVATE-KEY";
/**
 * Calls per tool: bounded by count and by time, so a slow machine makes the test weaker, never hang. Before the fix,
 * a read-only tool showed the outside within a few hundred calls; writes hit less often (their window is narrower).
 */
const TRIES = 1000;
const TIME_BOX_MS = 3_000;
const WRITE_TRIES = 4000;
const WRITE_TIME_BOX_MS = 8_000;

let ws: WorkspaceFixture;
let swapper: ChildProcess | undefined;

beforeEach(() => {
  ws = createWorkspace();
  // Inside: d/ holds a harmless id_rsa, notes.txt and inside-only.txt. Outside: the secret, notes.txt, outside-only.txt.
  mkdirSync(join(ws.root, "d.real"));
  writeFileSync(join(ws.root, "d.real", "id_rsa"), "inside key\n");
  writeFileSync(join(ws.root, "d.real", "notes.txt"), "inside notes\n");
  writeFileSync(join(ws.root, "d.real", "inside-only.txt"), "x\n");
  writeFileSync(join(ws.outside, "id_rsa"), `${SECRET}\n`);
  writeFileSync(join(ws.outside, "notes.txt"), "outside notes\n");
  writeFileSync(join(ws.outside, "outside-only.txt"), `${SECRET}\n`);
  symlinkSync(ws.outside, join(ws.root, "d.link"));
});

afterEach(async () => {
  // The swapper is gone before the folders are: a kill is only asked for, and a swapper still renaming while the
  // workspace is removed makes the removal fail (ENOTEMPTY) on a loaded machine.
  const running = swapper;
  swapper = undefined;
  if (running && running.exitCode === null && running.signalCode === null) {
    const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
    running.kill("SIGKILL");
    await exited;
  }
  ws.remove();
});

/**
 * Starts a process that swaps `d` between the real folder and the symlink as fast as it can (two renames each way;
 * `d` is briefly missing in between, which the tools report as an ordinary error, and which `write` may fill with a
 * new folder of its own: that one is moved aside, so the swapping goes on). Resolves once it is swapping.
 */
async function startSwapping(): Promise<void> {
  const script = `
    const { renameSync } = require("node:fs");
    const [real, link, d] = process.argv.slice(1);
    const step = (from, to) => { try { renameSync(from, to); return true; } catch { return false; } };
    let strays = 0;
    process.stdout.write("go\\n");
    for (;;) {
      if (!step(real, d)) { step(d, d + ".stray-" + strays++); continue; }
      step(d, real);
      if (!step(link, d)) { step(d, d + ".stray-" + strays++); continue; }
      step(d, link);
    }`;
  swapper = spawn(process.execPath, ["-e", script, join(ws.root, "d.real"), join(ws.root, "d.link"), join(ws.root, "d")], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) => swapper!.stdout!.once("data", () => resolve()));
}

/** Makes calls (`[tool, params]`) until `tries` or `timeBoxMs`; each successful result's text goes to `check`. Returns the successes. */
async function hammer(
  call: () => readonly [string, Record<string, unknown>],
  check: (text: string) => void,
  tries = TRIES,
  timeBoxMs = TIME_BOX_MS,
): Promise<number> {
  const until = Date.now() + timeBoxMs;
  let successes = 0;
  for (let i = 0; i < tries && Date.now() < until; i++) {
    let text: string;
    try {
      text = await ws.run(...call());
    } catch {
      continue; // `d` missing, a symlink leading out, or the swap caught: all refusals
    }
    successes++;
    check(text);
  }
  return successes;
}

/** Hammers a read-only tool while `d` swaps; nothing it shows may come from outside. */
async function neverShowsOutside(name: string, params: Record<string, unknown>): Promise<void> {
  await startSwapping();
  const successes = await hammer(() => [name, params], (text) => {
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("outside-only");
  });
  expect(successes).toBeGreaterThan(0); // the race really ran: some calls found the real folder
}

/** Hammers writing tools (each call `[tool, params]`) while `d` swaps; the outside folder must be as it was. */
async function neverChangesOutside(call: () => readonly [string, Record<string, unknown>]): Promise<void> {
  await startSwapping();
  const successes = await hammer(call, () => {}, WRITE_TRIES, WRITE_TIME_BOX_MS);
  swapper?.kill("SIGKILL");
  expect(readdirSync(ws.outside).sort()).toEqual(["id_rsa", "notes.txt", "outside-only.txt"]);
  expect(readFileSync(join(ws.outside, "notes.txt"), "utf8")).toBe("outside notes\n");
  expect(successes).toBeGreaterThan(0);
}

describe("a folder swapped for a symlink while a tool works in it", () => {
  it("read never returns a file outside the workspace", () => neverShowsOutside("read", { path: "d/id_rsa" }));
  it("ls never lists a folder outside", () => neverShowsOutside("ls", { path: "d" }));
  it("grep never searches a folder outside", () => neverShowsOutside("grep", { pattern: SECRET, path: "d" }));
  it("grep never searches a file outside", () => neverShowsOutside("grep", { pattern: SECRET, path: "d/id_rsa" }));
  it("find never lists a folder outside", () => neverShowsOutside("find", { pattern: "*.txt", path: "d" }));

  it("write and edit never create or change a file outside the workspace", () => {
    let n = 0;
    const calls = [
      () => ["write", { path: `d/new-${n}.txt`, content: "written\n" }] as const,
      () => ["write", { path: "d/notes.txt", content: "written notes\n" }] as const,
      () => ["edit", { path: "d/notes.txt", edits: [{ oldText: "notes", newText: "notes!" }] }] as const,
    ];
    return neverChangesOutside(() => calls[n++ % calls.length]());
  });

  it("write never lands in a protected file inside the workspace through a folder swapped for a link to it", async () => {
    // The path the gate judged (d/pre-commit) is not protected; the file opened a moment later would be git's hook,
    // which runs outside the sandbox. What was opened must be what was judged.
    const hooks = join(ws.root, ".git", "hooks");
    mkdirSync(hooks, { recursive: true });
    rmSync(join(ws.root, "d.link"));
    symlinkSync(hooks, join(ws.root, "d.link"));
    await startSwapping();
    const successes = await hammer(() => ["write", { path: "d/pre-commit", content: "#!/bin/sh\ntouch PWNED\n" }] as const, () => {}, WRITE_TRIES, WRITE_TIME_BOX_MS);
    swapper?.kill("SIGKILL");
    expect(readdirSync(hooks)).toEqual([]);
    expect(successes).toBeGreaterThan(0);
  });

  it("still works on a folder that is left alone", async () => {
    expect(existsSync(join(ws.root, "d.real", "id_rsa"))).toBe(true);
    expect(await ws.run("read", { path: "d.real/id_rsa" })).toBe("inside key\n");
    expect(await ws.run("ls", { path: "d.real" })).toBe("id_rsa\ninside-only.txt\nnotes.txt");
  });
});
