/**
 * One MCP server, run for the whole app: the official SDK's Client over stdio (a child process started once and shared
 * by every chat) or Streamable HTTP. It connects, lists the tools (again on `tools/list_changed`), and calls them.
 *
 * A server that ends unasked (its process exits, its HTTP endpoint stops answering) or will not start is tried again
 * with backoff (1 s, 2 s, 4 s ... at most 30 s; six tries in a row, then `failed` until the user restarts it); a server
 * that stayed up a minute counts as healthy again. Calls meanwhile fail at once with a clear error; calls in flight
 * when it ends fail with one too. Nothing here ever throws out of a callback: every failure becomes the status.
 */
import type { ChildProcess } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport as McpTransport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError, ToolListChangedNotificationSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ResolvedMcpServerConfig } from "../shared/mcp/server-config";
import { agentToolNames } from "../shared/mcp/agent-tool-names";
import type { McpServerState, McpServerStatus } from "../shared/protocol/mcp-status";
import { MAX_MCP_PROMPT_CHARS, MAX_MCP_PROMPTS, MAX_MCP_RESOURCES, type McpResourceContent, type McpResourceInfo, type McpCallOutcome, type McpCallProgress, type McpCallRequest, type McpPromptInfo, type McpToolDescriptor } from "../shared/protocol/mcp-host-protocol";
import { StderrTail } from "../shared-node/process/stderr-tail";
import { toCallOutcome } from "./call-outcome";

export interface Backoff {
  /** The wait before the first retry; each next one doubles, up to `maxMs`. */
  firstMs: number;
  maxMs: number;
  /** Failed tries in a row after which the server stays `failed`. */
  maxTries: number;
  /** Up this long, a server counts as healthy again: its next crash starts the backoff afresh. */
  stableMs: number;
}

const DEFAULT_BACKOFF: Backoff = { firstMs: 1_000, maxMs: 30_000, maxTries: 6, stableMs: 60_000 };

export interface ServerConnectionOptions {
  /** The status or the tools changed (called often while a server writes to stderr: the caller throttles). */
  changed(): void;
  backoff?: Partial<Backoff>;
  /** How long connecting (process start and the initialize handshake) may take. */
  connectTimeoutMs?: number;
  /** How long a call may go without an answer or a progress notification. */
  callTimeoutMs?: number;
}

const CLIENT_INFO = { name: "Paddock", version: "0.1.0" };
/** The most tools one server may list: a server listing more is cut off there (pages of `tools/list`). */
const MAX_TOOLS = 1_000;

interface Session {
  client: Client;
  transport: McpTransport;
  generation: number;
  pid?: number;
  /** A stdio server's process, kept to tell how it ended (the SDK forgets it as it closes). */
  child?: ChildProcess;
  readyAt?: number;
  /** HTTP: a ping is on its way to see whether the server is still there. */
  probing?: boolean;
}

export class ServerConnection {
  private state: McpServerState = "starting";
  private tools: Tool[] = [];
  private agentNames: string[] = [];
  private readonly stderr = new StderrTail();
  private error: string | undefined;
  private restarts = 0;
  /** Failed tries in a row, for the backoff. */
  private failures = 0;
  private nextRetryAt: number | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private session: Session | undefined;
  /** Each try gets a number: callbacks of an earlier one (a process that ended since) are ignored. */
  private generation = 0;
  private starting: Promise<void> | undefined;
  private stopped = false;
  private serverInfo: { name: string; version: string } | undefined;
  private readonly backoff: Backoff;
  private readonly calls = new Map<string, AbortController>();

  constructor(
    readonly config: ResolvedMcpServerConfig,
    private readonly options: ServerConnectionOptions,
  ) {
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    if (!config.enabled) {
      this.state = "disabled";
      this.stopped = true;
    }
  }

  /** Starts the server (a disabled one stays down). Resolves once the first try has settled; never rejects. */
  start(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return this.connect();
  }

  /** The user's restart: the count and the backoff start afresh. Resolves once the new try has settled. */
  async restart(): Promise<void> {
    if (!this.config.enabled) throw new Error(`"${this.config.name}" is disabled: enable it in Settings first.`);
    this.stopped = false;
    this.restarts = 0;
    this.failures = 0;
    clearTimeout(this.retryTimer);
    await this.closeSession();
    this.tools = [];
    this.state = "starting";
    await this.connect();
  }

  /** Stops the server for good (removed, disabled, or the app quits): its process ends, its calls fail. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.generation++;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.nextRetryAt = undefined;
    await this.closeSession();
  }

  status(): McpServerStatus {
    const ready = this.state === "ready" || this.state === "restarting";
    return {
      id: this.config.id,
      state: this.state,
      tools: ready
        ? this.tools.map((tool, i) => ({ name: tool.name, agentName: this.agentNames[i], description: tool.description ?? "", readOnly: isReadOnly(tool) }))
        : [],
      stderrTail: this.stderr.toString(),
      ...(this.error !== undefined && this.state !== "ready" ? { error: this.error } : {}),
      restarts: this.restarts,
      ...(this.state === "restarting" && this.nextRetryAt !== undefined ? { nextRetryAt: this.nextRetryAt } : {}),
      ...(this.serverInfo ? { serverInfo: this.serverInfo } : {}),
    };
  }

  /** The tools a chat may use now: none unless ready. */
  descriptors(): McpToolDescriptor[] {
    if (this.state !== "ready") return [];
    return this.tools.map((tool, i) => ({
      serverId: this.config.id,
      serverName: this.config.name,
      name: tool.name,
      agentName: this.agentNames[i],
      label: tool.title ?? tool.annotations?.title ?? tool.name,
      description: tool.description ?? "",
      inputSchema: tool.inputSchema as Record<string, unknown>,
      readOnly: isReadOnly(tool),
      trusted: this.config.trusted,
    }));
  }

  /** The stdio server's process id while it runs. */
  get pid(): number | undefined {
    return this.session?.pid;
  }

  /**
   * Calls one of its tools. A server still starting is waited for; one that is not ready rejects at once with why.
   * Progress notifications go to `onProgress`. Rejects with a readable Error; never hangs past the call timeout.
   */
  async call(request: McpCallRequest, onProgress: (progress: McpCallProgress) => void): Promise<McpCallOutcome> {
    if (this.state === "starting") await this.starting;
    const session = this.session;
    if (this.state !== "ready" || !session) throw new Error(this.unavailable());
    const controller = new AbortController();
    this.calls.set(request.callId, controller);
    const timeoutMs = this.options.callTimeoutMs ?? 5 * 60_000;
    try {
      const result = await session.client.callTool({ name: request.tool, arguments: request.arguments }, undefined, {
        signal: controller.signal,
        timeout: timeoutMs,
        resetTimeoutOnProgress: true,
        onprogress: (p) =>
          onProgress({
            callId: request.callId,
            progress: p.progress,
            ...(p.total !== undefined ? { total: p.total } : {}),
            ...(p.message !== undefined ? { message: p.message } : {}),
          }),
      });
      return toCallOutcome(result);
    } catch (error) {
      if (controller.signal.aborted) throw new Error("The call was cancelled.", { cause: error });
      const name = this.config.name;
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        throw new Error(`The MCP server "${name}" did not answer within ${Math.round(timeoutMs / 1000)} s.`, { cause: error });
      }
      const lost = session !== this.session || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed);
      const end = processEnd(session);
      if (lost) throw new Error(`The MCP server "${name}" stopped during the call${end ? ` (${end})` : ""}. Paddock is restarting it; try again shortly.`, { cause: error });
      if (!(error instanceof McpError) && this.config.transport.type === "http") {
        // A fetch that fails (refused, reset) means the endpoint is gone: reconnect rather than fail every call.
        this.lost(session.generation, `the server stopped answering (${messageOf(error)})`);
        throw new Error(`The MCP server "${name}" could not be reached (${messageOf(error)}). Paddock is reconnecting; try again shortly.`, { cause: error });
      }
      throw new Error(`The MCP server "${name}" failed the call: ${messageOf(error)}`, { cause: error });
    } finally {
      this.calls.delete(request.callId);
    }
  }

  /** Its prompts (none when it is not ready or offers none); rejects when the listing fails. */
  async prompts(): Promise<McpPromptInfo[]> {
    const session = this.session;
    if (this.state !== "ready" || !session || !session.client.getServerCapabilities()?.prompts) return [];
    const prompts = await allPages(async (cursor) => {
      const page = await withTimeout(session.client.listPrompts(cursor ? { cursor } : undefined), 10_000, "no answer to prompts/list");
      return { items: page.prompts.filter((p) => typeof p.name === "string" && p.name), nextCursor: page.nextCursor };
    }, MAX_MCP_PROMPTS);
    return prompts.map((p) => ({
      serverId: this.config.id,
      serverName: this.config.name,
      name: p.name,
      ...(typeof p.title === "string" ? { title: p.title } : {}),
      ...(typeof p.description === "string" ? { description: p.description } : {}),
      arguments: (p.arguments ?? []).filter((a) => typeof a.name === "string" && a.name).map((a) => ({
        name: a.name,
        ...(typeof a.description === "string" ? { description: a.description } : {}),
        required: a.required === true,
      })),
    }));
  }

  /** Its resources (none when it is not ready or offers none); rejects when the listing fails. */
  async resources(): Promise<McpResourceInfo[]> {
    const session = this.session;
    if (this.state !== "ready" || !session || !session.client.getServerCapabilities()?.resources) return [];
    const resources = await allPages(async (cursor) => {
      const page = await withTimeout(session.client.listResources(cursor ? { cursor } : undefined), 10_000, "no answer to resources/list");
      return { items: page.resources.filter((r) => typeof r.uri === "string" && r.uri), nextCursor: page.nextCursor };
    }, MAX_MCP_RESOURCES);
    return resources.map((r) => ({
      serverId: this.config.id,
      serverName: this.config.name,
      uri: r.uri,
      name: typeof r.name === "string" && r.name ? r.name : r.uri,
      ...(typeof r.mimeType === "string" ? { mimeType: r.mimeType } : {}),
      ...(typeof r.description === "string" ? { description: r.description } : {}),
    }));
  }

  /** A resource's first content (McpHostApi.readResource). */
  async readResource(uri: string): Promise<McpResourceContent> {
    if (this.state === "starting") await this.starting;
    const session = this.session;
    if (this.state !== "ready" || !session) throw new Error(this.unavailable());
    let result;
    try {
      result = await withTimeout(session.client.readResource({ uri }), 30_000, "no answer to resources/read");
    } catch (error) {
      throw new Error(`The MCP server "${this.config.name}" did not give the resource ${uri}: ${messageOf(error)}`, { cause: error });
    }
    const first = result.contents?.[0] as { uri?: string; mimeType?: string; text?: unknown; blob?: unknown } | undefined;
    if (!first || (typeof first.text !== "string" && typeof first.blob !== "string")) {
      throw new Error(`The MCP server "${this.config.name}" gave the resource ${uri} without any content.`);
    }
    const name = decodeURIComponent((first.uri ?? uri).split("/").pop() || uri);
    const mimeType = typeof first.mimeType === "string" ? first.mimeType : typeof first.text === "string" ? "text/plain" : "application/octet-stream";
    return typeof first.text === "string" ? { name, mimeType, text: first.text } : { name, mimeType, blob: first.blob as string };
  }

  /** One prompt's messages as text (McpHostApi.getPrompt). */
  async getPrompt(name: string, args: Record<string, string>): Promise<string> {
    if (this.state === "starting") await this.starting;
    const session = this.session;
    if (this.state !== "ready" || !session) throw new Error(this.unavailable());
    let result;
    try {
      result = await withTimeout(session.client.getPrompt({ name, arguments: args }), 30_000, "no answer to prompts/get");
    } catch (error) {
      throw new Error(`The MCP server "${this.config.name}" did not give the prompt "${name}": ${messageOf(error)}`, { cause: error });
    }
    const parts: string[] = [];
    for (const message of result.messages ?? []) {
      const content = message.content as { type?: string; text?: unknown; resource?: { text?: unknown } };
      if (content?.type === "text" && typeof content.text === "string") parts.push(content.text);
      else if (content?.type === "resource" && typeof content.resource?.text === "string") parts.push(content.resource.text);
    }
    const text = parts.join("\n\n");
    if (!text.trim()) throw new Error(`The MCP server "${this.config.name}" gave the prompt "${name}" without any text.`);
    if (text.length > MAX_MCP_PROMPT_CHARS) throw new Error(`The MCP server "${this.config.name}" gave the prompt "${name}" as ${text.length} characters: at most ${MAX_MCP_PROMPT_CHARS} can go into a message.`);
    return text;
  }

  /** Cancels a call in flight: the SDK sends `notifications/cancelled` and the call rejects. */
  cancel(callId: string): boolean {
    const controller = this.calls.get(callId);
    controller?.abort();
    return controller !== undefined;
  }

  private unavailable(): string {
    const name = this.config.name;
    switch (this.state) {
      case "disabled":
        return `The MCP server "${name}" is disabled.`;
      case "restarting": {
        const seconds = this.nextRetryAt === undefined ? 0 : Math.max(0, Math.ceil((this.nextRetryAt - Date.now()) / 1000));
        return `The MCP server "${name}" stopped${this.error ? ` (${this.error})` : ""} and is being restarted${seconds > 0 ? ` (next try in ${seconds} s)` : ""}; try again shortly.`;
      }
      case "failed":
        return `The MCP server "${name}" is not running${this.error ? `: ${this.error}` : ""}. Restart it in Settings → MCP servers.`;
      default:
        return `The MCP server "${name}" is not ready yet.`;
    }
  }

  private connect(): Promise<void> {
    const generation = ++this.generation;
    const attempt = this.tryConnect(generation);
    this.starting = attempt;
    return attempt;
  }

  private async tryConnect(generation: number): Promise<void> {
    this.nextRetryAt = undefined;
    if (this.state !== "restarting") this.state = "starting";
    this.options.changed();
    let session: Session | undefined;
    try {
      const transport = this.transport();
      const client = new Client(CLIENT_INFO, { capabilities: {} });
      session = { client, transport, generation };
      const started = session;
      if (transport instanceof StdioClientTransport) keepChild(transport, started);
      client.onclose = () => this.lost(generation, processEnd(started) ?? "the connection closed");
      client.onerror = (error) => this.transportError(started, error);
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.refreshTools(started));
      await withTimeout(client.connect(transport), this.options.connectTimeoutMs ?? 30_000, "the server did not finish starting");
      if (transport instanceof StdioClientTransport) started.pid = transport.pid ?? undefined;
      if (generation !== this.generation) return void client.close().catch(() => {});
      this.session = started;
      const info = client.getServerVersion();
      if (info) this.serverInfo = { name: String(info.name).slice(0, 200), version: String(info.version).slice(0, 100) };
      this.setTools(await listAllTools(client));
      if (generation !== this.generation || this.session !== started) return;
      started.readyAt = Date.now();
      this.state = "ready";
      this.error = undefined;
      this.options.changed();
    } catch (error) {
      if (generation !== this.generation) return;
      if (this.session === session) this.session = undefined;
      void session?.client.close().catch(() => {});
      // A process that ended during the handshake: how it ended says more than "Connection closed".
      this.retryLater(this.withMissingSecrets((session && processEnd(session)) ?? messageOf(error)));
    }
  }

  /** The connection ended (its process exited, or the endpoint went away) without being asked to. */
  private lost(generation: number, why: string): void {
    if (generation !== this.generation || this.stopped) return;
    const session = this.session;
    if (!session || session.generation !== generation) return; // still connecting: tryConnect reports it
    this.session = undefined;
    this.generation++;
    void session.client.close().catch(() => {});
    if (session.readyAt !== undefined && Date.now() - session.readyAt >= this.backoff.stableMs) this.failures = 0;
    this.retryLater(this.withMissingSecrets(why));
  }

  /**
   * HTTP only: the SDK reports a dropped event stream and tries to resume it, but a request whose answer was on that
   * stream would wait for its timeout. A ping tells a server that is gone (reconnect now, failing those calls at once)
   * from a stream that merely dropped.
   */
  private transportError(session: Session, error: Error): void {
    if (this.config.transport.type !== "http" || this.session !== session || session.probing) return;
    if (!/SSE stream disconnected|reconnect/i.test(error?.message ?? "")) return;
    session.probing = true;
    withTimeout(session.client.ping(), 5_000, "no answer").then(
      () => void (session.probing = false),
      (failure: unknown) => this.lost(session.generation, `the server stopped answering (${messageOf(failure)})`),
    );
  }

  private retryLater(why: string): void {
    this.error = why;
    this.failures++;
    if (this.failures > this.backoff.maxTries) {
      this.state = "failed";
      this.nextRetryAt = undefined;
      this.options.changed();
      return;
    }
    this.restarts++;
    const wait = Math.min(this.backoff.maxMs, this.backoff.firstMs * 2 ** (this.failures - 1));
    this.state = "restarting";
    this.nextRetryAt = Date.now() + wait;
    this.options.changed();
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.stopped) return;
      this.stderr.append(`\n[Paddock] starting again (try ${this.failures + 1})\n`);
      void this.connect();
    }, wait);
    this.retryTimer.unref?.();
  }

  private withMissingSecrets(why: string): string {
    const missing = this.config.missingSecrets;
    return missing.length > 0 ? `${why}; secrets not set: ${missing.join(", ")}` : why;
  }

  private async refreshTools(session: Session): Promise<void> {
    try {
      const tools = await listAllTools(session.client);
      if (this.session !== session) return;
      this.setTools(tools);
      this.options.changed();
    } catch {
      // The next list_changed, or a restart, tries again; the old list stands meanwhile.
    }
  }

  private setTools(tools: Tool[]): void {
    this.tools = tools;
    this.agentNames = agentToolNames(this.config.id, tools.map((t) => t.name));
  }

  private transport(): McpTransport {
    const t = this.config.transport;
    if (t.type === "http") return new StreamableHTTPClientTransport(new URL(t.url), { requestInit: { headers: t.headers } });
    // Only the SDK's short list of safe variables (PATH, HOME, ...) plus the server's own: Paddock's environment may
    // hold keys that are none of the server's business.
    const transport = new StdioClientTransport({
      command: t.command,
      args: t.args,
      env: { ...getDefaultEnvironment(), ...t.env },
      ...(t.cwd ? { cwd: t.cwd } : {}),
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer | string) => {
      this.stderr.append(chunk.toString());
      this.options.changed();
    });
    return transport;
  }

  private async closeSession(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    this.generation++;
    for (const controller of this.calls.values()) controller.abort();
    this.calls.clear();
    if (!session) return;
    if (session.transport instanceof StreamableHTTPClientTransport) {
      await withTimeout(session.transport.terminateSession(), 1_000, "").catch(() => {});
    }
    // The SDK ends a stdio server by closing its stdin, then SIGTERM, then SIGKILL (about 4 s at worst).
    await session.client.close().catch(() => {});
  }
}

function isReadOnly(tool: Tool): boolean {
  return tool.annotations?.readOnlyHint === true;
}

/** A paged MCP listing (tools, prompts, resources) followed page by page until `max` items or its end. */
async function allPages<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>, max: number): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const next = await page(cursor);
    items.push(...next.items);
    cursor = next.nextCursor;
  } while (cursor && items.length < max);
  return items.slice(0, max);
}

async function listAllTools(client: Client): Promise<Tool[]> {
  const tools = await allPages(async (cursor) => {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    return { items: page.tools, nextCursor: page.nextCursor };
  }, MAX_TOOLS);
  return tools.filter((t) => typeof t.name === "string" && t.name !== "" && t.inputSchema?.type === "object");
}

/**
 * The SDK's stdio transport reports only that the connection closed, and drops its child process as it does; the
 * process knows how it ended ("exited with code 127"), which is what the user needs. Kept as soon as it has spawned,
 * through a private field, so a later SDK without it just says less.
 */
function keepChild(transport: StdioClientTransport, session: Session): void {
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    session.child = (transport as unknown as { _process?: ChildProcess })._process;
  };
}

/** How a stdio server's process ended, once it has; undefined while it runs, and for HTTP. */
function processEnd(session: Session): string | undefined {
  const child = session.child;
  if (!child) return undefined;
  if (child.signalCode) return `the process was killed (${child.signalCode})`;
  return child.exitCode !== null ? `the process exited with code ${child.exitCode}` : undefined;
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown; cause?: { code?: unknown } })?.cause?.code;
  if (text === "fetch failed" && typeof code === "string") return `fetch failed: ${code}`;
  if ((error as { code?: unknown })?.code === "ENOENT") return `command not found (${text})`;
  return text.slice(0, 1_000);
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} (${Math.round(ms / 1000)} s)`)), ms);
    timer.unref?.();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
