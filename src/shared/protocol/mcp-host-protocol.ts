/**
 * Main <-> the MCP host process (src/mcp-host/), and what chats' workers learn about MCP tools through main.
 *
 * The host runs the MCP clients (the official SDK) for every configured server, outside main's event loop. Main calls
 * `McpHostApi` on lane "m2h"; the host pushes `McpHostEvents` on lane "h2m". Workers never reach the host: their calls
 * go worker -> main (control channel: MainControlApi.mcpCall) -> host, and main checks each one.
 * Everything here is plain JSON (structured-clone safe), and no type here carries a secret except the configs
 * handed to `configure`.
 */
import type { ResolvedMcpServerConfig } from "../mcp/server-config";
import type { McpServerStatus } from "./mcp-status";

/** One tool of a ready server, as a chat's worker makes an agent tool of it. */
export interface McpToolDescriptor {
  serverId: string;
  /** The server's name in Settings (tool cards and approval questions say it). */
  serverName: string;
  /** The tool's name on its server (what `tools/call` takes). */
  name: string;
  /** The name the model calls it by: `<server id>__<tool>`, sanitized and unique (see mcp/agent-tool-names.ts). */
  agentName: string;
  /** The server's `title`, else its name: a label for people. */
  label: string;
  description: string;
  /** The tool's input JSON Schema, as the server gave it (an object schema). */
  inputSchema: Record<string, unknown>;
  /** The server's annotation `readOnlyHint: true` (a claim by the server, trusted only when the user trusts it). */
  readOnly: boolean;
  /** The user marked the server trusted in Settings. */
  trusted: boolean;
}

/** One tool call, as main forwards it to the host. */
export interface McpCallRequest {
  /** Unique among calls in flight at the host (main numbers them); names the call in progress and `cancel`. */
  callId: string;
  serverId: string;
  /** The tool's name on its server. */
  tool: string;
  arguments: Record<string, unknown>;
}

/** A piece of a tool's result, as MCP has it (the SDK's CallToolResult content, checked and trimmed by the host). */
export type McpContent =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  /** Audio is not passed on to models: only what it was. */
  | { type: "audio"; mimeType: string; bytes: number }
  | { type: "resource_link"; uri: string; name?: string; title?: string; description?: string; mimeType?: string }
  /** An embedded resource: its text, or for binary contents only their size. */
  | { type: "resource"; uri: string; mimeType?: string; text?: string; blobBytes?: number }
  /** What the host kept of a piece it could not pass on (an unknown type, an oversized image), in words. */
  | { type: "note"; text: string };

/** What a call came back with. `isError`: the tool itself reported failure (the model should see it as an error). */
export interface McpCallOutcome {
  content: McpContent[];
  isError: boolean;
  /** `structuredContent`, when the server sent it and no text did the same job. */
  structured?: unknown;
}

/** A progress notification of a call in flight. */
export interface McpCallProgress {
  callId: string;
  progress: number;
  total?: number;
  message?: string;
}

/** What the host process is and runs, for diagnostics, tests and the bench. */
export interface McpHostInfo {
  pid: number;
  rssBytes: number;
  /** Each stdio server's process id while it runs. */
  servers: { id: string; pid?: number }[];
}

/** A prompt an MCP server offers (MCP's `prompts/list`): the composer's `/` menu lists it beside prompt templates. */
export interface McpPromptInfo {
  serverId: string;
  serverName: string;
  name: string;
  title?: string;
  description?: string;
  /** What the user is asked for before the prompt is fetched. */
  arguments: { name: string; description?: string; required: boolean }[];
}

/** A resource an MCP server offers (MCP's `resources/list`): the composer's `@` menu offers it to attach. */
export interface McpResourceInfo {
  serverId: string;
  serverName: string;
  uri: string;
  name: string;
  mimeType?: string;
  description?: string;
}

/** A resource's content as read: text, or the bytes (base64) of a binary one. */
export interface McpResourceContent {
  name: string;
  mimeType: string;
  text?: string;
  blob?: string;
}

/** Most resources listed per server. */
export const MAX_MCP_RESOURCES = 500;

/** Most prompts listed per server. */
export const MAX_MCP_PROMPTS = 200;
/** Longest text a prompt's messages may come to (what the composer gets). */
export const MAX_MCP_PROMPT_CHARS = 200_000;

export interface McpHostApi {
  /**
   * The servers as Settings have them now (secrets filled in by main). Servers that are new or changed are (re)started,
   * removed ones stopped, disabled ones stopped and reported `disabled`; unchanged ones are left alone. Resolves once
   * every change has been applied (starts are not awaited).
   */
  configure(servers: ResolvedMcpServerConfig[]): Promise<void>;
  /** See McpStatusApi.mcpRestart. */
  restart(id: string): Promise<McpServerStatus>;
  status(): Promise<McpServerStatus[]>;
  /** Every tool of every ready server, in Settings' order. */
  tools(): Promise<McpToolDescriptor[]>;
  /**
   * Calls a tool. Rejects with a readable Error when the server is not ready (starting, restarting after a crash,
   * failed, disabled), when it dies during the call, when the call times out, or when it is cancelled.
   */
  call(request: McpCallRequest): Promise<McpCallOutcome>;
  /** The prompts of every ready server that offers any, in Settings' order. A server whose listing fails is left out. */
  prompts(): Promise<McpPromptInfo[]>;
  /**
   * A prompt's messages (MCP's `prompts/get`) as one text: each message's text parts, and embedded text resources,
   * joined by blank lines. Rejects with a readable Error when the server is not ready, refuses, or answers nothing usable.
   */
  getPrompt(serverId: string, name: string, args: Record<string, string>): Promise<string>;
  /** The resources of every ready server that offers any (MCP's `resources/list`); a failing listing is left out. */
  resources(): Promise<McpResourceInfo[]>;
  /** A resource's first content (MCP's `resources/read`); rejects with a readable Error. */
  readResource(serverId: string, uri: string): Promise<McpResourceContent>;
  /** Cancels a call in flight (MCP's `notifications/cancelled`); the call then rejects. Unknown ids are ignored. */
  cancel(callId: string): Promise<void>;
  info(): Promise<McpHostInfo>;
  /** Stops every server (stdio processes end) and lets the host exit. */
  shutdown(): Promise<void>;
}

export interface McpHostEvents {
  /** A server's status changed (state, tools, stderr, restarts): the whole list. */
  status(servers: McpServerStatus[]): void;
  progress(progress: McpCallProgress): void;
}
