import { execFile } from "node:child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isAlive } from "../../../../../testkit/processes";
import { createWorkspace, type WorkspaceFixture } from "./workspace-fixture";
import { isToolErrorResult, ToolFailure } from "../../../../../src/shared/agent/tool-failure";
import type { BashDetails } from "../../../../../src/agent-worker/tools/workspace/bash-tool";

let ws: WorkspaceFixture;
beforeEach(() => {
  ws = createWorkspace();
});
afterEach(() => ws.remove());

/** Running, not just a zombie waiting for init to reap it (on Linux; elsewhere any existing pid counts). */
function isRunning(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return process.platform === "linux" ? false : isAlive(pid);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await sleep(20);
  }
}

describe("bash (no sandbox)", () => {
  it("runs in the workspace with the session's TMPDIR and returns stdout and stderr", async () => {
    const text = await ws.run("bash", { command: 'echo out; echo err >&2; pwd; echo "$TMPDIR"' });
    // Two pipes: stderr's line may come before or after stdout's.
    expect(text.split("\n").sort()).toEqual(["", ws.root, join(ws.sessionDir, "tmp"), "err", "out"].sort());
    expect(await ws.run("bash", { command: "true" })).toBe("(no output)");
  });

  it("returns a failed command as an error result carrying the exit code, as pi 1.6.0, instead of throwing", async () => {
    const result = await ws.result("bash", { command: "echo partial; exit 3" });
    expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: "partial\n\n\nCommand exited with code 3" }] });
  });

  it("says (no output) above the status of a failed command that printed nothing, as pi 1.6.0", async () => {
    expect(await ws.result("bash", { command: "exit 4" })).toMatchObject({ isError: true, content: [{ text: "(no output)\n\nCommand exited with code 4" }] });
  });

  it("returns a command killed by a signal as an error result with the shell's code (128 + the signal), as pi 1.6.0", async () => {
    const result = await ws.result("bash", { command: "echo before; kill -9 $$" });
    expect(isToolErrorResult(result)).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: "before\n\n\nCommand exited with code 137" }]);
    const silent = await ws.result("bash", { command: "kill -TERM $$" });
    expect(silent).toMatchObject({ isError: true, content: [{ text: "(no output)\n\nCommand exited with code 143" }] });
  });

  it("refuses a timeout that is not a positive number of seconds setTimeout can wait, as pi 1.6.0, running nothing", async () => {
    const marker = join(ws.root, "ran");
    for (const timeout of [0, -1, Number.NaN]) {
      expect(await ws.failure("bash", { command: `touch ${marker}`, timeout })).toBe("Invalid timeout: must be a finite number of seconds");
    }
    expect(await ws.failure("bash", { command: `touch ${marker}`, timeout: 3_000_000 })).toBe("Invalid timeout: maximum is 2147483.647 seconds");
    expect(existsSync(marker)).toBe(false);
  });

  it("runs Settings' shell command prefix before the command, on a line of its own, as pi's shellCommandPrefix", async () => {
    const prefixed = createWorkspace(undefined, { shellCommandPrefix: "shopt -s expand_aliases\nalias greet='echo hello from an alias'" });
    try {
      expect(await prefixed.run("bash", { command: "greet; echo $((6 * 7))" })).toBe("hello from an alias\n42\n");
      // The prefix is the shell's, not the command's: a failing command still reports its own code.
      expect(await prefixed.failure("bash", { command: "exit 5" })).toBe("(no output)\n\nCommand exited with code 5");
    } finally {
      prefixed.remove();
    }
    // Without the prefix, aliases stay off in a non-interactive shell, as bash has it.
    expect(await ws.failure("bash", { command: "alias greet='echo hi'\ngreet" })).toMatch(/greet: command not found/);
    // A blank prefix is none.
    const blank = createWorkspace(undefined, { shellCommandPrefix: "  " });
    try {
      expect(await blank.run("bash", { command: "echo plain" })).toBe("plain\n");
    } finally {
      blank.remove();
    }
  });

  it("times out, killing the command", async () => {
    const started = Date.now();
    expect(await ws.failure("bash", { command: "echo started; sleep 20", timeout: 0.3 })).toBe("started\n\n\nCommand timed out after 0.3 seconds");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("says when the shell ended before the timeout but what it left behind kept writing, and lets go at the timeout", async () => {
    const started = Date.now();
    // setsid: a writer outside the command's process group, which the group kill cannot end.
    const command = "setsid sh -c 'for i in $(seq 1 60); do echo tick; sleep 0.05; done' & sleep 0.1; exit 2";
    const message = await ws.failure("bash", { command, timeout: 0.6 });
    expect(message).toMatch(
      /tick\n\n\nCommand timed out after 0\.6 seconds\. The shell exited with code 2 after 0\.\d seconds, but background processes it started kept writing output until the timeout\.$/,
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("abort kills the whole tree, a background grandchild included", async () => {
    const controller = new AbortController();
    const pidFile = join(ws.root, "pid");
    const running = ws.failure("bash", { command: `sleep 30 & echo $! > ${pidFile}; wait` }, controller.signal);
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "");
    const grandchild = Number(readFileSync(pidFile, "utf8"));
    expect(isRunning(grandchild)).toBe(true);
    controller.abort();
    expect(await running).toBe("Command aborted");
    await waitFor(() => !isRunning(grandchild), 1000);
  });

  it("tells the card (in details, the model's text unchanged) the exit code, how long it ran, and a stop or a timeout", async () => {
    const ok = await ws.result("bash", { command: "sleep 0.2; echo done" });
    expect(ok.content).toEqual([{ type: "text", text: "done\n" }]);
    expect(ok.details).toMatchObject({ exitCode: 0 });
    expect(ok.details.durationMs).toBeGreaterThanOrEqual(150);
    expect(ok.details.durationMs).toBeLessThan(5000);
    const failed = await ws.result("bash", { command: "exit 3" });
    expect(failed).toMatchObject({ isError: true, details: { exitCode: 3 } });
    expect(failed.details.ending).toBeUndefined();

    const controller = new AbortController();
    const running = ws.result("bash", { command: "echo started; sleep 30" }, controller.signal).catch((error: unknown) => error);
    await sleep(300);
    controller.abort();
    const stopped = (await running) as ToolFailure<BashDetails>;
    expect(stopped).toBeInstanceOf(ToolFailure);
    expect(stopped.message).toBe("started\n\n\nCommand aborted");
    expect(stopped.details).toMatchObject({ ending: "stopped" });
    expect(stopped.details.exitCode).toBeUndefined();
    expect(stopped.details.durationMs).toBeGreaterThanOrEqual(250);

    const timedOut = (await ws.result("bash", { command: "sleep 20", timeout: 0.2 }).catch((error: unknown) => error)) as ToolFailure<BashDetails>;
    expect(timedOut.details).toMatchObject({ ending: "timeout" });
  });

  it("ends what the command left running in the background when it exits", async () => {
    const text = await ws.run("bash", { command: "sleep 30 >/dev/null 2>&1 & echo $!" });
    const background = Number(text.trim());
    await waitFor(() => !isRunning(background), 1000);
  });

  it("keeps the last 2,000 lines with pi's marker and saves the whole output in the session folder", async () => {
    const result = await ws.result("bash", { command: "seq 1 3000" });
    const text = result.content[0].type === "text" ? result.content[0].text : "";
    const saved = result.details.fullOutputPath as string;
    expect(saved.startsWith(join(ws.sessionDir, "bash-output"))).toBe(true);
    // As pi 1.6.0 counts lines, the final newline ends line 3000 rather than starting a line 3001.
    expect(text.startsWith("1001\n")).toBe(true);
    expect(text.endsWith(`3000\n\n[Showing lines 1001-3000 of 3000. Full output: ${saved}]`)).toBe(true);
    expect(readFileSync(saved, "utf8")).toBe(`${Array.from({ length: 3000 }, (_, i) => i + 1).join("\n")}\n`);
    expect(result.details.truncation).toMatchObject({ truncated: true, truncatedBy: "lines", totalLines: 3000, outputLines: 2000 });
    // The marker's path is outside the workspace, yet `read` reads it, as the marker suggests (and only reads).
    expect(await ws.run("read", { path: saved, offset: 2999 })).toBe("2999\n3000\n");
    await expect(ws.run("write", { path: saved, content: "x" })).rejects.toThrow(/outside the workspace/);
  });

  it("marks a cut by the 50 KB limit, and a single line longer than it", async () => {
    const wide = await ws.run("bash", { command: "for i in $(seq 1 1000); do printf '%099d\\n' $i; done" });
    expect(wide).toMatch(/\n\n\[Showing lines 489-1000 of 1000 \(50\.0KB limit\)\. Full output: .*\.log\]$/);
    const long = await ws.run("bash", { command: "head -c 100000 /dev/zero | tr '\\0' x" });
    expect(long).toMatch(/^x{51200}\n\n\[Showing last 50\.0KB of line 1 \(line is 97\.7KB\)\. Full output: .*\.log\]$/);
  });

  it("streams output through onUpdate, at most every 100 ms", async () => {
    const updates: string[] = [];
    const bash = ws.tool("bash");
    const started = Date.now();
    await bash.execute("c", { command: "for i in 1 2 3 4 5 6; do echo tick $i; sleep 0.1; done" }, undefined, (partial) => {
      updates.push(partial.content.map((c) => (c.type === "text" ? c.text : "")).join(""));
    });
    const elapsed = Date.now() - started;
    expect(updates[0]).toBe("");
    expect(updates.some((u) => u.startsWith("tick 1\n") && !u.includes("tick 6"))).toBe(true);
    expect(updates.at(-1)).toBe("tick 1\ntick 2\ntick 3\ntick 4\ntick 5\ntick 6\n");
    expect(updates.length).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 3);
  });

  it("keeps memory bounded while a command prints 50 MB (measured in a process of its own)", async () => {
    const script = resolve("testkit/bash-output-peak.ts");
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", script, ws.root, ws.sessionDir, "50"], { cwd: resolve(".") });
    const figures = JSON.parse(stdout.trim().split("\n").at(-1)!) as { peakGrowthMb: number; savedBytes: number };
    expect(figures.savedBytes).toBe(50_000_000);
    expect(figures.peakGrowthMb).toBeLessThan(64);
  });

  it("a symlink a command plants is refused by the file tools", async () => {
    writeFileSync(join(ws.outside, "secret.txt"), "secret");
    await ws.run("bash", { command: `ln -s ${join(ws.outside, "secret.txt")} leak.txt; ln -s ${ws.outside} leakdir` });
    expect(await ws.failure("read", { path: "leak.txt" })).toMatch(/^Refused "leak.txt": it leads through a symbolic link/);
    expect(await ws.failure("read", { path: "leakdir/secret.txt" })).toMatch(/^Refused/);
    expect(await ws.failure("write", { path: "leak.txt", content: "x" })).toMatch(/^Refused/);
    expect(readdirSync(ws.outside)).toEqual(["secret.txt"]);
  });
});
