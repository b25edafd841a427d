/**
 * Main's side of the MCP runtime (Electron-free): starts the MCP host process (src/mcp-host/) through the same
 * launcher abstraction as agent workers, hands it the servers with their secrets, keeps the status pages are shown,
 * and relays chats' tool calls to it.
 *
 * - The host runs only while some server is enabled; with none it is stopped, and statuses are made here.
 * - A host that dies unasked is started again with backoff (1 s doubling to 30 s) and given the servers again; calls
 *   in flight fail with a clear error, and its servers read `restarting` meanwhile.
 * - Tools: the host's status events carry each server's tool names; when they change, the full descriptors (with
 *   schemas) are fetched once and every listener (the broker, which tells live workers) is told.
 * - Never throws out of a listener; every public call rejects with a readable Error instead.
 */
import * as Comlink from "comlink";
import type { ResolvedMcpServerConfig } from "../../shared/mcp/server-config";
import type { McpServerStatus } from "../../shared/protocol/mcp-status";
import type { McpCallOutcome, McpCallProgress, McpHostApi, McpHostEvents, McpHostInfo, McpPromptInfo, McpResourceContent, McpResourceInfo, McpToolDescriptor } from "../../shared/protocol/mcp-host-protocol";
import { rpcEndpoint } from "../../shared/transport/comlink-endpoint";
import { Listeners } from "../../shared/transport/transport";
import { describeExit, mcpHostEnvironment, type WorkerLauncher, type WorkerProcess } from "../broker/worker-process";
import { RestartBackoff, type BackoffSchedule } from "../broker/restart-backoff";

export interface McpSupervisorOptions {
  /** Launches the built host file (out/main/mcp-host.js): utilityProcess in Electron, fork under Node. */
  launcher: WorkerLauncher<unknown>;
  /** The servers as Settings have them now, secrets filled in (McpConfig.resolveServerConfig); must not throw. */
  servers(): ResolvedMcpServerConfig[];
  /** Host restarts after it died unasked: first wait, doubling up to the max. */
  hostBackoff?: BackoffSchedule;
}

/** One tool call as a chat's worker asks for it (main has checked who asks). */
export interface McpToolCall {
  serverId: string;
  tool: string;
  arguments: Record<string, unknown>;
}

interface Host {
  process: WorkerProcess<unknown>;
  api: Comlink.Remote<McpHostApi>;
  /** Rejects when the process ends: calls race it so none hangs on a dead host. */
  gone: Promise<never>;
  stopping: boolean;
}

export class McpSupervisor {
  private host: Host | undefined;
  private statuses: McpServerStatus[] = [];
  private tools: McpToolDescriptor[] = [];
  private toolShape = "";
  private readonly statusListeners = new Listeners<[McpServerStatus[]]>();
  private readonly toolListeners = new Listeners<[McpToolDescriptor[]]>();
  private readonly progress = new Map<string, (progress: McpCallProgress) => void>();
  private nextCall = 0;
  private readonly hostBackoff: RestartBackoff;
  private hostRetry: ReturnType<typeof setTimeout> | undefined;
  /** The latest reconfigure: later calls wait for it, so the host sees Settings in order. */
  private configuring: Promise<void> = Promise.resolve();
  private disposed = false;

  constructor(private readonly options: McpSupervisorOptions) {
    this.hostBackoff = new RestartBackoff(options.hostBackoff);
  }

  /** Every configured server's status, in Settings' order. */
  status(): McpServerStatus[] {
    return this.statuses;
  }

  /** The tools chats may use now (every ready, enabled server's), with their schemas. */
  currentTools(): McpToolDescriptor[] {
    return this.tools;
  }

  onStatus(listener: (servers: McpServerStatus[]) => void): () => void {
    return this.statusListeners.add(listener);
  }

  onToolsChanged(listener: (tools: McpToolDescriptor[]) => void): () => void {
    return this.toolListeners.add(listener);
  }

  /**
   * Applies Settings' servers (at start, and after every change of them or their secrets). Starts the host when a
   * server is enabled, stops it when none is. Resolves once the host has the new list; never rejects.
   */
  reconfigure(): Promise<void> {
    this.configuring = this.configuring.then(() => this.apply()).catch((error: unknown) => console.error("paddock: MCP servers could not be configured", error));
    return this.configuring;
  }

  async restart(id: string): Promise<McpServerStatus> {
    await this.configuring;
    const known = this.statuses.find((s) => s.id === id);
    if (!known) throw new Error("There is no such MCP server (it may have been removed).");
    if (known.state === "disabled") throw new Error("This MCP server is disabled: enable it first.");
    const host = this.host ?? (await this.startHost());
    const status = await this.race(host, host.api.restart(id));
    await this.refreshTools(host);
    return status;
  }

  /**
   * Calls a tool for a chat. `signal` cancels it (MCP's cancellation reaches the server); progress goes to
   * `onProgress`. Rejects with a readable Error: server not ready, host gone, call failed or cancelled.
   */
  async call(call: McpToolCall, options: { signal?: AbortSignal; onProgress?: (progress: Omit<McpCallProgress, "callId">) => void } = {}): Promise<McpCallOutcome> {
    const host = this.host;
    if (!host || host.stopping) throw new Error("No MCP server is running (Settings → MCP servers).");
    if (options.signal?.aborted) throw new Error("The call was cancelled.");
    const callId = `c${++this.nextCall}`;
    if (options.onProgress) {
      const onProgress = options.onProgress;
      this.progress.set(callId, ({ callId: _id, ...rest }) => onProgress(rest));
    }
    const onAbort = () => void host.api.cancel(callId).catch(() => undefined);
    options.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      return await this.race(host, host.api.call({ callId, ...call }));
    } finally {
      options.signal?.removeEventListener("abort", onAbort);
      this.progress.delete(callId);
    }
  }

  /** The prompts of every ready server (the composer's `/` menu); none while no host runs. */
  async prompts(): Promise<McpPromptInfo[]> {
    const host = this.host;
    return host && !host.stopping ? this.race(host, host.api.prompts()) : [];
  }

  /** A server's prompt as text (McpHostApi.getPrompt); rejects with a readable Error. */
  async getPrompt(serverId: string, name: string, args: Record<string, string>): Promise<string> {
    const host = this.host;
    if (!host || host.stopping) throw new Error("No MCP server is running (Settings → MCP servers).");
    return this.race(host, host.api.getPrompt(serverId, name, args));
  }

  /** The resources of every ready server (the composer's `@` menu); none while no host runs. */
  async resources(): Promise<McpResourceInfo[]> {
    const host = this.host;
    return host && !host.stopping ? this.race(host, host.api.resources()) : [];
  }

  /** A server's resource (McpHostApi.readResource); rejects with a readable Error. */
  async readResource(serverId: string, uri: string): Promise<McpResourceContent> {
    const host = this.host;
    if (!host || host.stopping) throw new Error("No MCP server is running (Settings → MCP servers).");
    return this.race(host, host.api.readResource(serverId, uri));
  }

  /** The host's process and its servers' (diagnostics, tests, the bench); undefined while no host runs. */
  async info(): Promise<McpHostInfo | undefined> {
    const host = this.host;
    return host ? this.race(host, host.api.info()) : undefined;
  }

  /** Quitting: the host stops its servers and exits; killed if it has not within `limitMs`. */
  async dispose(limitMs = 4_000): Promise<void> {
    this.disposed = true;
    clearTimeout(this.hostRetry);
    await this.stopHost(limitMs);
  }

  private async apply(): Promise<void> {
    if (this.disposed) return;
    const servers = this.options.servers();
    if (!servers.some((s) => s.enabled)) {
      await this.stopHost();
      this.setStatuses(servers.map((s) => idleStatus(s.id, "disabled")));
      this.setTools([]);
      return;
    }
    // Known at once, before the host answers: new servers start, disabled ones are off.
    const before = new Map(this.statuses.map((s) => [s.id, s]));
    this.setStatuses(servers.map((s) => (s.enabled ? before.get(s.id) ?? idleStatus(s.id, "starting") : idleStatus(s.id, "disabled"))));
    const host = this.host ?? (await this.startHost());
    await this.race(host, host.api.configure(servers));
  }

  private async startHost(): Promise<Host> {
    // Not a worker's environment: the host makes no model calls, so it keeps not even the cloud credentials.
    const child = this.options.launcher.launch(mcpHostEnvironment());
    const api = Comlink.wrap<McpHostApi>(rpcEndpoint(child.control, { lane: "m2h" }));
    const gone = child.exited.then((exit) => {
      throw new Error(`The MCP host process stopped (${describeExit(exit)}).`);
    });
    gone.catch(() => {});
    const host: Host = { process: child, api, gone, stopping: false };
    const events: McpHostEvents = {
      status: (servers) => {
        if (this.host !== host || !Array.isArray(servers)) return;
        this.setStatuses(servers);
        void this.refreshTools(host);
      },
      progress: (progress) => {
        if (this.host === host) this.progress.get(progress?.callId)?.(progress);
      },
    };
    Comlink.expose(events, rpcEndpoint(child.control, { lane: "h2m" }));
    this.host = host;
    void child.exited.then((exit) => this.hostExited(host, describeExit(exit)));
    return host;
  }

  private hostExited(host: Host, reason: string): void {
    if (this.host !== host) return;
    this.host = undefined;
    if (host.stopping || this.disposed) return;
    // Its servers' processes went with it (they were its children, or it stopped them as it went).
    const wait = this.hostBackoff.failed();
    const error = `the MCP host process stopped (${reason}); starting it again`;
    this.setStatuses(this.statuses.map((s) => (s.state === "disabled" ? s : { ...s, state: "restarting", error, nextRetryAt: Date.now() + wait })));
    this.setTools([]);
    this.hostRetry = setTimeout(() => {
      this.hostRetry = undefined;
      void this.reconfigure();
    }, wait);
    this.hostRetry.unref?.();
  }

  private async stopHost(limitMs = 4_000): Promise<void> {
    const host = this.host;
    if (!host) return;
    host.stopping = true;
    this.host = undefined;
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, limitMs).unref?.());
    await Promise.race([host.api.shutdown().then(() => host.process.exited), host.gone, deadline]).catch(() => undefined);
    host.process.kill();
  }

  private async refreshTools(host: Host): Promise<void> {
    // Only names and states travel with statuses; schemas are fetched when the set of ready tools changed.
    const shape = JSON.stringify(this.statuses.filter((s) => s.state === "ready").map((s) => [s.id, s.tools]));
    if (shape === this.toolShape) return;
    this.toolShape = shape;
    try {
      const tools = await this.race(host, host.api.tools());
      if (this.host === host) this.setTools(tools);
    } catch {
      this.toolShape = ""; // asked again with the next status
    }
  }

  private setStatuses(statuses: McpServerStatus[]): void {
    if (statuses.some((s) => s.state === "ready")) this.hostBackoff.reset();
    this.statuses = statuses;
    this.statusListeners.emit(statuses);
  }

  private setTools(tools: McpToolDescriptor[]): void {
    if (tools.length === 0 && this.tools.length === 0) return;
    if (tools.length === 0) this.toolShape = "";
    this.tools = tools;
    this.toolListeners.emit(tools);
  }

  private race<T>(host: Host, promise: Promise<T>): Promise<T> {
    return Promise.race([promise, host.gone]);
  }
}

function idleStatus(id: string, state: "starting" | "disabled"): McpServerStatus {
  return { id, state, tools: [], stderrTail: "", restarts: 0 };
}
