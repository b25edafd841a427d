/**
 * The agent worker process (loaded by entry.ts): hosts one session's Agent. Started by main (Electron utilityProcess) or by Node's
 * child_process.fork (tests, web host) from this same built file. It starts idle (a warm spare) and is bound to a
 * session by `init`. When its parent goes away it saves what it can and exits, so no worker outlives the app.
 */
import * as Comlink from "comlink";
import type { MainControlApi, WorkerControlApi } from "../../shared/protocol/control-protocol";
import { rpcEndpoint } from "../../shared/transport/comlink-endpoint";
import { MessagePortMainTransport } from "./transport/message-port-main-transport";
import { ParentTransport } from "../../shared-node/process/parent-transport";
import { SessionHost } from "./session/session-host";
import { runContractProblem } from "../../shared/protocol/run-contract";
import { endRunningCommands } from "../tools/workspace/process-tree";

/**
 * Node hosts only (Electron workers get MessagePorts): the loopback WebSocket listener for session connections.
 * It starts after start-up, so a worker takes commands without waiting for it, and before `init`, so a warm spare
 * hands over a session without waiting for it either. Connections before `init` are turned away.
 */
let listening: Promise<{ url: string; close(): void }> | undefined;
const listenForSessionsOnce = () =>
  (listening ??= import("./transport/websocket-listener").then(({ listenForSessions }) =>
    listenForSessions((transport) => {
      if (host) host.connect(transport);
      else transport.close();
    }),
  ));

const control = new ParentTransport();
const isUtilityProcess = control.parent === "utility-process";
const main = Comlink.wrap<MainControlApi>(rpcEndpoint(control, { lane: "w2c" }));
let host: SessionHost | undefined;

/**
 * How long a worker whose parent died may spend saving before it exits regardless. Main's own stop allows 2 s
 * before SIGKILL; an orphan has nobody to kill it, so this bound is its own.
 */
const ORPHAN_EXIT_MS = 1_500;

async function stopListening(): Promise<void> {
  if (listening) (await listening.catch(() => undefined))?.close();
}

/** Main asked: the run is aborted (journaled as stopped), the transcript flushed. */
async function shutdown(): Promise<void> {
  await stopListening();
  await host?.shutdown();
}

/**
 * The parent died (main or the web host crashed, or was killed): end the commands still running (each with its
 * whole tree: they run detached and would outlive the worker), save the streaming reply as it stands, close the
 * transcript and exit, within ORPHAN_EXIT_MS whatever happens. The run is not aborted: an abort would journal the
 * reply as stopped by the user, while a reply cut off by a crash should load as interrupted, with Retry and Continue.
 *
 * Where this runs: under Node (the web host, tests) everywhere, and in the desktop app on Windows, where the lifeline
 * closing is what tells a utility process that main is gone. On macOS and Linux Chromium ends a utility process the
 * moment main's pipe drops, before any of this JavaScript runs: what survives there is the last reply checkpoint
 * (CHECKPOINT_INTERVAL_MS, at most 0.5 s behind the reply; test/integration/worker-checkpoints.test.ts pins it).
 */
function exitAsOrphan(): void {
  setTimeout(() => process.exit(0), ORPHAN_EXIT_MS); // kept referenced: this exit must happen
  void Promise.all([endRunningCommands(), stopListening(), host?.saveAndClose()])
    .catch((error: unknown) => console.error("paddock worker: could not save before exiting", error))
    .finally(() => process.exit(0));
}

const api: WorkerControlApi = {
  async init(options) {
    if (host) throw new Error("This worker already hosts a session");
    const [opened, listener] = await Promise.all([
      SessionHost.open(options, main),
      options.sessionTransport === "websocket" ? listenForSessionsOnce() : undefined,
    ]);
    host = opened.host;
    return listener ? { ...opened.result, url: listener.url } : opened.result;
  },
  async updateSettings(settings) {
    host?.updateSettings(settings);
  },
  async setWorkspace(folder, identity) {
    await host?.setWorkspace(folder, identity);
  },
  async shutdown(options) {
    const activity = host?.activity() ?? "idle";
    if (options?.ifIdle && activity !== "idle") return activity;
    await shutdown();
    // Exit after the reply has left.
    setTimeout(() => process.exit(0), 10);
    return "stopped";
  },
  async warmUp(options) {
    await Promise.all([
      isUtilityProcess ? undefined : listenForSessionsOnce(),
      // A subagent's spare: its workspace tools and its model's client, before the task arrives.
      options?.subagent ? import("./workspace/session-workspace").then(({ prepareSandbox }) => prepareSandbox(options.subagent?.sandbox)) : undefined,
      options?.subagent ? import("./provider/provider-preload").then(({ preloadProvider }) => preloadProvider(options.subagent?.api)) : undefined,
    ]);
  },
  async ping() {
    return { pid: process.pid, rssBytes: process.memoryUsage.rss() };
  },
  async runTask(task, contract) {
    if (!host) throw new Error("This worker hosts no session yet");
    if (typeof task !== "string") throw new Error("runTask: the task must be text");
    const problem = contract === undefined ? undefined : runContractProblem(contract);
    if (problem) throw new Error(`runTask: ${problem}`);
    return host.runTask(task, contract);
  },
  async listChanges(since) {
    if (!host) throw new Error("This worker hosts no session yet");
    if (typeof since !== "object" || since === null) throw new Error("listChanges: say since when");
    return host.api.listChanges(since);
  },
  async subagentProgress(progress) {
    host?.subagentProgress(progress);
  },
  async askApproval(from, question) {
    if (!host) return { block: true, reason: "The parent chat is not loaded." };
    return host.askApproval(from, question);
  },
  async mcpToolsChanged(tools) {
    host?.mcpToolsChanged(tools);
  },
  async modelsChanged() {
    await host?.modelsChanged();
  },
  async mcpProgress(progress) {
    host?.mcpProgress(progress);
  },
  async projectGrantsChanged(grants) {
    host?.projectGrantsChanged(grants);
  },
};

Comlink.expose(api, rpcEndpoint(control, { lane: "c2w" }));
control.onPort((port) => {
  const transport = new MessagePortMainTransport(port);
  if (host) host.connect(transport);
  else transport.close();
});
control.onClose(() => exitAsOrphan());
if (!isUtilityProcess) setTimeout(() => void listenForSessionsOnce(), 0);

// Ctrl+C in a terminal signals the whole foreground process group, the worker too; it must not die of it. Its
// parent decides: a deliberate shutdown, or the disconnect when the parent itself goes.
process.on("SIGINT", () => {});

// Output the host stopped reading (its stdout piped into a program that quit): writing there fails with EPIPE, and
// without a listener each failure is an uncaught exception, reported on the same stream: a loop at full CPU.
for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});

process.on("uncaughtException", (error) => {
  // A bug must not take the session down silently: report it and keep serving.
  console.error("paddock worker: uncaught exception", error);
});
process.on("unhandledRejection", (error) => {
  console.error("paddock worker: unhandled rejection", error);
});
