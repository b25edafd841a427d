/**
 * The log file (main/logs/app-log.ts): lines led by time and source, rotation by size keeping N files, many sources
 * at once never mixing their lines, a line over the limit cut, and a folder that cannot be written told once
 * without anything throwing.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { AppLog, captureConsole, LOG_FILE_NAME } from "../../../../src/main/logs/app-log";
import { logRedactor } from "../../../../src/main/logs/log-redaction";
import { TempFolders } from "../../../../testkit/temp-folders";

const temp = new TempFolders("paddock-log-");
afterEach(() => temp.removeAll());

const at = () => new Date("2026-12-05T09:00:00.000Z");

function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
}

describe("AppLog", () => {
  it("writes each line led by the time and its source, making the folder", async () => {
    const dir = join(temp.make(), "data", "logs");
    const log = new AppLog({ dir, now: at });
    log.write("main", "started\nsecond line");
    await log.flush();
    expect(lines(join(dir, LOG_FILE_NAME))).toEqual([
      "2026-12-05T09:00:00.000Z [main] started",
      "2026-12-05T09:00:00.000Z [main] second line",
    ]);
    if (process.platform !== "win32") {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, LOG_FILE_NAME)).mode & 0o777).toBe(0o600);
    }
    await log.close();
  });

  it("rotates by size, keeping `files` files none of which passes the limit", async () => {
    const dir = temp.make();
    const log = new AppLog({ dir, maxBytes: 2048, files: 3, now: at });
    for (let i = 0; i < 200; i++) log.write("worker 1", `line ${String(i).padStart(4, "0")} ${"x".repeat(40)}`);
    await log.flush();
    await log.close();
    expect(readdirSync(dir).sort()).toEqual([LOG_FILE_NAME, `${LOG_FILE_NAME}.1`, `${LOG_FILE_NAME}.2`]);
    for (const name of readdirSync(dir)) expect(statSync(join(dir, name)).size).toBeLessThanOrEqual(2048);
    // The newest lines are in paddock.log, the ones before in .1, then .2; the oldest were dropped.
    const last = lines(join(dir, LOG_FILE_NAME));
    expect(last.at(-1)).toContain("line 0199");
    const previous = lines(join(dir, `${LOG_FILE_NAME}.1`));
    const firstOfLast = Number(/line (\d+)/.exec(last[0]!)![1]);
    expect(previous.at(-1)).toContain(`line ${String(firstOfLast - 1).padStart(4, "0")}`);
    expect(lines(join(dir, `${LOG_FILE_NAME}.2`))[0]).not.toContain("line 0000");
  });

  it("rotates an existing file already past the limit before adding to it", async () => {
    const dir = temp.make();
    writeFileSync(join(dir, LOG_FILE_NAME), "old\n".repeat(1000));
    const log = new AppLog({ dir, maxBytes: 2048, now: at });
    log.write("main", "new");
    await log.close();
    expect(lines(join(dir, LOG_FILE_NAME))).toEqual(["2026-12-05T09:00:00.000Z [main] new"]);
    expect(lines(join(dir, `${LOG_FILE_NAME}.1`))[0]).toBe("old");
  });

  it("keeps lines from many sources writing at once whole, each source's in its order", async () => {
    const dir = temp.make();
    const log = new AppLog({ dir, maxBytes: 64 * 1024, files: 10, now: at });
    const streams = Array.from({ length: 8 }, (_, n) => {
      const stream = new PassThrough();
      log.capture(stream, () => `worker ${n}`);
      return stream;
    });
    // Every stream writes its lines in chunks that end mid-line, interleaved with the others and with main's own.
    for (let i = 0; i < 100; i++) {
      streams.forEach((stream, n) => {
        const text = `w${n} line ${i} ${"y".repeat(n * 10)}\n`;
        stream.write(text.slice(0, 5));
        stream.write(text.slice(5));
      });
      log.write("main", `main line ${i}`);
      if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    for (const stream of streams) stream.end();
    await new Promise((resolve) => setImmediate(resolve));
    await log.close();
    const all = readdirSync(dir).sort().reverse().flatMap((name) => lines(join(dir, name)));
    expect(all).toHaveLength(900);
    for (let n = 0; n < 8; n++) {
      const own = all.filter((line) => line.includes(`[worker ${n}] `));
      expect(own.map((line) => line.replace(/^.*\] /, ""))).toEqual(
        Array.from({ length: 100 }, (_, i) => `w${n} line ${i} ${"y".repeat(n * 10)}`),
      );
    }
    expect(all.filter((line) => line.includes("[main] ")).map((line) => line.replace(/^.*\] /, ""))).toEqual(Array.from({ length: 100 }, (_, i) => `main line ${i}`));
  });

  it("cuts a line over the limit, saying how much, and never lets a file pass its size", async () => {
    const dir = temp.make();
    const log = new AppLog({ dir, maxBytes: 4096, maxLineBytes: 1024, now: at });
    log.write("mcp 7", "z".repeat(50_000));
    const stream = new PassThrough();
    log.capture(stream, () => "worker 9");
    stream.write("q".repeat(3000)); // never ends its line
    stream.end();
    await new Promise((resolve) => setImmediate(resolve));
    await log.close();
    const all = readdirSync(dir).flatMap((name) => lines(join(dir, name)));
    const cut = all.find((line) => line.includes("[mcp 7]"))!;
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(1024);
    expect(cut).toMatch(/… \[line cut: \d+ more bytes\]$/);
    expect(Number(/(\d+) more bytes/.exec(cut)![1]) + cut.split("] ")[1]!.indexOf("…")).toBe(50_000);
    expect(all.filter((line) => line.includes("[worker 9]")).length).toBeGreaterThan(1);
    for (const name of readdirSync(dir)) expect(statSync(join(dir, name)).size).toBeLessThanOrEqual(4096);
  });

  it("redacts secrets before they reach the file", async () => {
    const dir = temp.make();
    const log = new AppLog({ dir, now: at, redact: logRedactor(() => ["my-saved-key-123456"]) });
    log.write("worker 1", "request failed: Authorization: Bearer abcdefghijklmnop; key my-saved-key-123456; OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuv");
    await log.close();
    const text = readFileSync(join(dir, LOG_FILE_NAME), "utf8");
    expect(text).not.toContain("abcdefghijklmnop");
    expect(text).not.toContain("my-saved-key-123456");
    expect(text).not.toContain("sk-proj");
    expect(text).toContain("<redacted>");
  });

  it("a folder that cannot be made: says so once, never throws, and later lines are dropped quietly", async () => {
    const parent = temp.make();
    writeFileSync(join(parent, "data"), "a file where the data folder should be");
    const log = new AppLog({ dir: join(parent, "data", "logs"), now: at });
    const told: string[] = [];
    log.onProblem((text) => told.push(text));
    log.write("main", "one");
    await log.flush();
    log.write("main", "two");
    const stream = new PassThrough();
    log.capture(stream, () => "worker 1");
    stream.write("three\n");
    await log.flush();
    await log.close();
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/^Paddock cannot write its log file .*paddock\.log: .*(ENOTDIR|EEXIST|not a directory).*The log is off until Paddock restarts\.$/);
    expect(log.problem).toBe(told[0]);
    // A listener added later hears it at once.
    const late: string[] = [];
    log.onProblem((text) => late.push(text));
    expect(late).toEqual(told);
  });

  it.skipIf(process.platform === "win32" || process.getuid?.() === 0)("a read-only folder: says so once, the app goes on", async () => {
    const dir = temp.make();
    mkdirSync(join(dir, "logs"));
    chmodSync(join(dir, "logs"), 0o500);
    const log = new AppLog({ dir: join(dir, "logs"), now: at });
    const told: string[] = [];
    log.onProblem((text) => told.push(text));
    log.write("main", "one");
    log.write("main", "two");
    await log.close();
    chmodSync(join(dir, "logs"), 0o700);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/EACCES/);
  });

  it("a file that turns unwritable mid-way (its folder replaced): told once", async () => {
    const dir = join(temp.make(), "logs");
    const log = new AppLog({ dir, maxBytes: 1024, now: at });
    const told: string[] = [];
    log.onProblem((text) => told.push(text));
    log.write("main", "first");
    await log.flush();
    // Rotation renames within the folder: with the folder gone and a file in its place, it fails.
    const { rmSync } = await import("node:fs");
    rmSync(dir, { recursive: true, force: true });
    writeFileSync(dir, "not a folder");
    for (let i = 0; i < 50; i++) log.write("main", `line ${i} ${"x".repeat(60)}`);
    await log.close();
    expect(told).toHaveLength(1);
  });
});

describe("captureConsole", () => {
  it("copies console output into the log and still prints it; the undo restores console", async () => {
    const dir = temp.make();
    const log = new AppLog({ dir, now: at });
    const printed: string[] = [];
    const target = { log: (...a: unknown[]) => printed.push(a.join(" ")), info: () => {}, warn: (...a: unknown[]) => printed.push(a.join(" ")), error: () => {}, debug: () => {} } as unknown as Console;
    const original = target.warn;
    const undo = captureConsole(log, "main", target);
    target.log("hello %s", "there");
    target.warn("paddock: could not save", 42);
    undo();
    target.log("after");
    await log.close();
    expect(printed).toEqual(["hello %s there", "paddock: could not save 42", "after"]);
    expect(lines(join(dir, LOG_FILE_NAME))).toEqual([
      "2026-12-05T09:00:00.000Z [main] hello there",
      "2026-12-05T09:00:00.000Z [main warn] paddock: could not save 42",
    ]);
    expect(target.warn).toBe(original);
  });
});
