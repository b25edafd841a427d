/**
 * What pages learn about the MCP servers main runs (issue 14 §1-§2): one status per configured server, the calls a
 * page makes about them, and the event main pushes when any of them changes. The runtime (src/mcp-host/, driven by
 * main's McpSupervisor) produces these; Settings → MCP servers renders them. Plain JSON, no secrets: a server's
 * env and headers never appear here, and its stderr tail is the server's own output, shown as text.
 */
import type { McpPromptInfo, McpResourceContent, McpResourceInfo } from "./mcp-host-protocol";

/**
 * Where a server stands.
 * - `starting`: its process is launching (stdio) or its first request is on its way (HTTP);
 * - `ready`: connected, `tools` lists what it offers;
 * - `failed`: it could not start or died, and will not be tried again until the user restarts it (or, after a crash,
 *   until the backoff's next try: then `restarting` with `nextRetryAt`);
 * - `restarting`: it crashed and is waiting for (or in) its next try; calls to its tools fail meanwhile with a clear
 *   error;
 * - `disabled`: the user turned it off; nothing runs.
 */
export type McpServerState = "starting" | "ready" | "failed" | "disabled" | "restarting";

/** One tool of a server, as Settings lists it (the model sees it as `<server>__<name>`, see `agentName`). */
export interface McpToolInfo {
  /** The tool's name on its server. */
  name: string;
  /** The name the model calls it by in a chat: the server's and the tool's, sanitized and unique. */
  agentName: string;
  description: string;
  /** The server's annotation `readOnlyHint: true`: on a trusted server such a tool runs without asking. */
  readOnly: boolean;
}

export interface McpServerStatus {
  /** The server's id in Settings (src/shared/mcp/server-config.ts). */
  id: string;
  state: McpServerState;
  /** Empty unless `ready` (the last known list is kept while `restarting`, so Settings does not flicker). */
  tools: McpToolInfo[];
  /** The last few KB of the server's stderr (stdio servers; empty for HTTP), newest last. */
  stderrTail: string;
  /** Why it is not ready, in words ("exited with code 1", "connection refused"), when it is not. */
  error?: string;
  /** Restarts after crashes since the user last started it (a user's restart resets it). */
  restarts: number;
  /** `restarting`: when the next try is due (epoch ms). */
  nextRetryAt?: number;
  /** The server's own name and version from its handshake, once it has answered. */
  serverInfo?: { name: string; version: string };
}

/** The AppApi methods about MCP servers (declared here, listed in AppApi and app-api-schema.ts). */
export interface McpStatusApi {
  /** Every configured server's status, in Settings' order (disabled ones too). */
  mcpStatus(): Promise<McpServerStatus[]>;
  /**
   * Stops the server (if running) and starts it afresh, resetting its restart count; resolves with its status once
   * the new start has settled (ready or failed). A disabled or unknown server is refused with a readable Error.
   */
  mcpRestart(id: string): Promise<McpServerStatus>;
  /**
   * The prompts of every ready MCP server, for the composer's `/` menu (none when no server runs or offers any); a
   * chat's menu shows those of the servers it uses (shared/mcp/chat-servers.ts).
   */
  mcpPrompts(): Promise<McpPromptInfo[]>;
  /**
   * A server's prompt with the user's arguments (every required one), as the text the composer puts in the message
   * box. Rejects with a readable Error: server not ready, prompt refused or empty.
   */
  mcpGetPrompt(serverId: string, name: string, args: Record<string, string>): Promise<string>;
  /**
   * The resources of every ready MCP server, for the composer's `@` menu (none when no server runs or offers any); a
   * chat's menu shows those of the servers it uses (shared/mcp/chat-servers.ts).
   */
  mcpResources(): Promise<McpResourceInfo[]>;
  /** A server's resource's content, to attach to a message. Rejects with a readable Error. */
  mcpReadResource(serverId: string, uri: string): Promise<McpResourceContent>;
}

/** Main's event to every page when any server's status changes: the whole list (a handful of servers, rarely). */
export interface McpStatusEvent {
  type: "mcp-status";
  servers: McpServerStatus[];
}
