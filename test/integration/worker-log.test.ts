/**
 * A child's output reaches the log file (main/logs/app-log.ts through NodeWorkerLauncher, as both hosts wire it):
 * stdout and stderr, each line led by `worker <pid>` and, once the broker names it, the chat; secrets redacted;
 * and still copied to the host's own output.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { NodeWorkerLauncher } from "../../src/main/broker/node-worker-launcher";
import { AppLog, LOG_FILE_NAME } from "../../src/main/logs/app-log";
import { logRedactor } from "../../src/main/logs/log-redaction";
import { TempFolders } from "../../testkit/temp-folders";
import { createTestCore } from "../../testkit/test-core";
import { WORKER_FILE } from "../../testkit/worker-harness";
import type { WorkerLauncher, WorkerProcess } from "../../src/main/broker/worker-process";

const temp = new TempFolders("paddock-worker-log-");
afterEach(() => temp.removeAll());

/** A stand-in worker: prints a line on each message, to stdout or stderr as told, and exits on "bye". */
const CHILD = `
process.on("message", (m) => {
  if (m === "bye") process.exit(0);
  const [stream, text] = m;
  (stream === "err" ? process.stderr : process.stdout).write(text);
  process.send("printed");
});
process.send("ready");
`;

describe("a worker's output in the log file", () => {
  it("is logged line by line, named after the process and then its chat, with secrets hidden", async () => {
    const folder = temp.make();
    const file = join(folder, "child.mjs");
    writeFileSync(file, CHILD);
    const log = new AppLog({ dir: join(folder, "logs"), redact: logRedactor(() => ["the-saved-provider-key"]) });
    const worker = new NodeWorkerLauncher(file, [], undefined, { log, kind: "worker" }).launch({ PATH: process.env.PATH ?? "" });
    const said: unknown[] = [];
    let next: (() => void) | undefined;
    worker.control.onMessage((message) => {
      said.push(message);
      next?.();
    });
    const ask = (message: unknown) => new Promise<void>((resolve) => {
      next = resolve;
      worker.control.send(message);
    });
    await expect.poll(() => said).toContain("ready");
    await ask(["out", "starting up\nhalf a "]);
    await ask(["out", "line\n"]);
    // The pipes and the IPC channel race: the label is set once the line is in (as the broker names a worker once
    // it takes a chat, long after its first output).
    const logged = async () => {
      await log.flush();
      return readFileSync(join(folder, "logs", LOG_FILE_NAME), "utf8");
    };
    await expect.poll(logged).toContain("half a line");
    worker.setLogLabel?.("chat s-123");
    await ask(["err", "failed: key the-saved-provider-key refused\n"]);
    worker.control.send("bye");
    await worker.exited;
    await new Promise((resolve) => setTimeout(resolve, 50));
    await log.close();

    const lines = readFileSync(join(folder, "logs", LOG_FILE_NAME), "utf8").trim().split("\n").map((line) => line.replace(/^\S+ /, ""));
    expect(lines).toEqual([
      `[worker ${worker.pid}] starting up`,
      `[worker ${worker.pid}] half a line`,
      `[worker ${worker.pid} chat s-123 stderr] failed: key <redacted> refused`,
    ]);
  });
});

describe("the core's log", () => {
  it("names a chat's worker after its chat, offers the folder, and a log that cannot be written is one notice", async () => {
    const dataDir = temp.make();
    writeFileSync(join(dataDir, "logs"), "a file where the logs folder should be");
    const log = new AppLog({ dir: join(dataDir, "logs") });
    const inner = new NodeWorkerLauncher(WORKER_FILE, [], undefined, { log, kind: "worker" });
    const labels: string[] = [];
    const launcher: WorkerLauncher = {
      launch: (env) => {
        // NodeWorkerLauncher's process is a plain object: its fields copy over, the label is recorded on the way.
        const worker: WorkerProcess = inner.launch(env);
        const setLogLabel = (label: string) => {
          labels.push(label);
          worker.setLogLabel?.(label);
        };
        return { ...worker, setLogLabel };
      },
    };
    const core = await createTestCore({ dataDir, launcher, log });
    try {
      const chat = await core.service.createSession();
      await core.broker.attach(chat.id, "page");
      expect(labels).toEqual([`chat ${chat.id}`]);
      expect(await core.service.logsFolder()).toBe(join(dataDir, "logs"));
      log.write("main", "a line that cannot be written");
      log.write("main", "nor this one");
      await log.flush();
      const notices = (await core.service.takeNotices()).filter((n) => n.text.startsWith("Paddock cannot write its log file"));
      expect(notices).toHaveLength(1);
      expect(notices[0]!.level).toBe("warning");
    } finally {
      await core.shutdown();
    }
  }, 60_000);
});
