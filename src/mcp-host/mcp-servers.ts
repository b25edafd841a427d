/**
 * Every configured MCP server, kept in Settings' order: what the host process serves (McpHostApi). `configure` applies
 * Settings as a difference: a server whose config is unchanged keeps running (with its calls in flight); a new or
 * changed one is (re)started, a removed or disabled one stopped. Status changes reach `onStatus` at most every
 * STATUS_THROTTLE_MS (a server writing to stderr must not flood main), and at once for a change of state or tools.
 */
import type { ResolvedMcpServerConfig } from "../shared/mcp/server-config";
import type { McpServerStatus } from "../shared/protocol/mcp-status";
import type { McpCallOutcome, McpCallProgress, McpCallRequest, McpHostApi, McpHostInfo, McpPromptInfo, McpResourceContent, McpResourceInfo, McpToolDescriptor } from "../shared/protocol/mcp-host-protocol";
import { ServerConnection, type ServerConnectionOptions } from "./server-connection";

const STATUS_THROTTLE_MS = 250;

export interface McpServersOptions {
  onStatus(servers: McpServerStatus[]): void;
  onProgress(progress: McpCallProgress): void;
  /** Per-connection tuning (tests shorten the backoff). */
  connection?: Omit<ServerConnectionOptions, "changed">;
}

export class McpServers implements McpHostApi {
  private servers: ServerConnection[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** What was last told, to tell state and tool changes (told at once) from stderr (throttled). */
  private lastShape = "";

  constructor(private readonly options: McpServersOptions) {}

  async configure(configs: ResolvedMcpServerConfig[]): Promise<void> {
    if (!Array.isArray(configs)) throw new Error("configure: expected a list of servers");
    const old = new Map(this.servers.map((s) => [s.config.id, s]));
    const next: ServerConnection[] = [];
    const stopping: Promise<void>[] = [];
    for (const config of configs) {
      const current = old.get(config.id);
      if (current && sameConfig(current.config, config)) {
        next.push(current);
        old.delete(config.id);
        continue;
      }
      if (current) {
        stopping.push(current.stop());
        old.delete(config.id);
      }
      next.push(new ServerConnection(config, { ...this.options.connection, changed: () => this.changed() }));
    }
    for (const gone of old.values()) stopping.push(gone.stop());
    const started = next.filter((s) => !this.servers.includes(s));
    this.servers = next;
    await Promise.all(stopping);
    // A changed server's new process starts once the old one has ended (both could hold the same port or file).
    for (const server of started) void server.start();
    this.changed();
  }

  async restart(id: string): Promise<McpServerStatus> {
    const server = this.find(id);
    await server.restart();
    this.changed();
    return server.status();
  }

  async status(): Promise<McpServerStatus[]> {
    return this.servers.map((s) => s.status());
  }

  async tools(): Promise<McpToolDescriptor[]> {
    return this.servers.flatMap((s) => s.descriptors());
  }

  call(request: McpCallRequest): Promise<McpCallOutcome> {
    if (typeof request?.callId !== "string" || typeof request.tool !== "string" || typeof request.arguments !== "object" || request.arguments === null) {
      return Promise.reject(new Error("call: invalid request"));
    }
    return this.find(request.serverId).call(request, (progress) => this.options.onProgress(progress));
  }

  async prompts(): Promise<McpPromptInfo[]> {
    const lists = await Promise.all(this.servers.map((s) => s.prompts().catch(() => [])));
    return lists.flat();
  }

  getPrompt(serverId: string, name: string, args: Record<string, string>): Promise<string> {
    if (typeof name !== "string" || typeof args !== "object" || args === null || Object.values(args).some((v) => typeof v !== "string")) {
      return Promise.reject(new Error("getPrompt: invalid request"));
    }
    return this.find(serverId).getPrompt(name, args);
  }

  async resources(): Promise<McpResourceInfo[]> {
    const lists = await Promise.all(this.servers.map((s) => s.resources().catch(() => [])));
    return lists.flat();
  }

  readResource(serverId: string, uri: string): Promise<McpResourceContent> {
    if (typeof uri !== "string" || !uri) return Promise.reject(new Error("readResource: invalid request"));
    return this.find(serverId).readResource(uri);
  }

  async cancel(callId: string): Promise<void> {
    for (const server of this.servers) if (server.cancel(callId)) return;
  }

  async info(): Promise<McpHostInfo> {
    return { pid: process.pid, rssBytes: process.memoryUsage.rss(), servers: this.servers.map((s) => ({ id: s.config.id, ...(s.pid ? { pid: s.pid } : {}) })) };
  }

  async shutdown(): Promise<void> {
    clearTimeout(this.timer);
    const servers = this.servers;
    this.servers = [];
    await Promise.all(servers.map((s) => s.stop()));
  }

  private find(id: string): ServerConnection {
    const server = this.servers.find((s) => s.config.id === id);
    if (!server) throw new Error(`There is no MCP server "${String(id).slice(0, 60)}" in Settings.`);
    return server;
  }

  private changed(): void {
    const statuses = this.servers.map((s) => s.status());
    const shape = JSON.stringify(statuses.map((s) => [s.id, s.state, s.tools, s.restarts, s.error]));
    if (shape !== this.lastShape) {
      this.lastShape = shape;
      clearTimeout(this.timer);
      this.timer = undefined;
      this.options.onStatus(statuses);
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.options.onStatus(this.servers.map((s) => s.status()));
    }, STATUS_THROTTLE_MS);
    this.timer.unref?.();
  }
}

function sameConfig(a: ResolvedMcpServerConfig, b: ResolvedMcpServerConfig): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
