/**
 * One MCP server as Settings keep it (issue 14 §1): the typebox schema of `settings.mcpServers[i]`, its type, and the
 * type of the same server with its secrets filled in, which only main and the MCP host ever hold.
 *
 * Secrets never live here. An env variable's or a header's value is either plain (`{ value }`, kept in settings.json
 * and shown in the page) or a reference (`{ secret: true }`): its value is in main's secret store, the same one as API
 * keys (safeStorage in the app), under `mcpSecretKey(server, where, name)`. Pages learn only whether it is set.
 *
 * For the MCP runtime: main's `McpConfig` (main/broker/mcp-config.ts, `core.mcpConfig`) gives `servers()`,
 * `resolveServerConfig(id)` (a ResolvedMcpServerConfig, secrets filled in) and `onChange(ids => …)` after a server is
 * added, edited or removed. A chat's choice of servers is `ChatOptions.mcpServers` (protocol/chat-options.ts).
 *
 * Pages import this module's types only (`import type`): its runtime part is typebox, which pages do not load.
 * Their checks in words live in server-fields.ts.
 */
import { Type, type Static } from "typebox";
import { KeyedRecord } from "../keyed-record";
import {
  MAX_MCP_ARGS,
  MAX_MCP_ENTRIES,
  MAX_MCP_SERVERS,
  MAX_MCP_VALUE_CHARS,
  MCP_ENV_NAME_PATTERN,
  MCP_HEADER_NAME_PATTERN,
  MCP_SERVER_ID_PATTERN,
} from "./server-limits";

export { MAX_MCP_ARGS, MAX_MCP_ENTRIES, MAX_MCP_SERVERS, MAX_MCP_VALUE_CHARS, MCP_ENV_NAME_PATTERN, MCP_HEADER_NAME_PATTERN, MCP_SERVER_ID_PATTERN };

/** An env variable's or a header's value: plain text kept in settings.json, or a reference to a stored secret. */
const McpValueSchema = Type.Union([
  Type.Object({ value: Type.String({ maxLength: MAX_MCP_VALUE_CHARS }) }, { additionalProperties: false }),
  Type.Object({ secret: Type.Literal(true) }, { additionalProperties: false }),
]);

/** A server Paddock starts as a child process and speaks to over its stdin and stdout. */
const McpStdioTransportSchema = Type.Object(
  {
    type: Type.Literal("stdio"),
    /** The program: a name looked up on PATH (`npx`, `uvx`) or a full path. */
    command: Type.String({ minLength: 1, maxLength: 4096 }),
    args: Type.Array(Type.String({ maxLength: MAX_MCP_VALUE_CHARS }), { maxItems: MAX_MCP_ARGS }),
    /** Added to the environment the server inherits. */
    env: KeyedRecord(MCP_ENV_NAME_PATTERN, McpValueSchema, { maxProperties: MAX_MCP_ENTRIES }),
    /** The folder it starts in (an absolute path); absent: Paddock's own. */
    cwd: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
  },
  { additionalProperties: false },
);

/** A server Paddock reaches over Streamable HTTP. */
const McpHttpTransportSchema = Type.Object(
  {
    type: Type.Literal("http"),
    url: Type.String({ pattern: "^https?://[^\\s]+$", maxLength: 2048 }),
    /** Sent with every request (an `Authorization` header is usually a secret). */
    headers: KeyedRecord(MCP_HEADER_NAME_PATTERN, McpValueSchema, { maxProperties: MAX_MCP_ENTRIES }),
  },
  { additionalProperties: false },
);

export const McpServerConfigSchema = Type.Object(
  {
    id: Type.String({ pattern: MCP_SERVER_ID_PATTERN }),
    /** What Settings and tool cards call it. */
    name: Type.String({ minLength: 1, maxLength: 200 }),
    /** A disabled server is not started, and no chat gets its tools. */
    enabled: Type.Boolean(),
    /** The user vouches for it: its tools annotated `readOnlyHint: true` run without asking. Others always ask. */
    trusted: Type.Boolean(),
    transport: Type.Union([McpStdioTransportSchema, McpHttpTransportSchema]),
  },
  { additionalProperties: false },
);

export type McpValue = Static<typeof McpValueSchema>;
export type McpServerConfig = Static<typeof McpServerConfigSchema>;

/** Where a secret belongs: an env variable of a stdio server, or a header of an HTTP server. */
export type McpSecretPlace = "env" | "header";

/**
 * A server as the runtime starts it: every value filled in, secrets included. Made by main (main/broker/mcp-config.ts)
 * and handed only to the MCP host; never sent to a page, a chat's worker, or a log.
 */
export interface ResolvedMcpServerConfig {
  id: string;
  name: string;
  enabled: boolean;
  trusted: boolean;
  transport:
    | { type: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string }
    | { type: "http"; url: string; headers: Record<string, string> };
  /**
   * Env variables or headers marked secret whose value main does not have (never entered, or unreadable after the OS
   * keyring was reset), e.g. `["env GITHUB_TOKEN"]`. They are left out of `transport`; the runtime may start the
   * server anyway, and should name them if it fails.
   */
  missingSecrets: string[];
}

/** The secret store's name for one secret of one server. Ids and names cannot hold ":", so names never collide. */
export function mcpSecretKey(serverId: string, where: McpSecretPlace, name: string): string {
  return `mcp:${serverId}:${where}:${name}`;
}

const MCP_SECRET_KEY = /^mcp:([^:]+):(env|header):([^:]+)$/;

/** Whether a secret store name is an MCP server's secret (and not a provider's API key). */
export function isMcpSecretKey(key: string): boolean {
  return key.startsWith("mcp:");
}

/** The parts of an MCP secret's store name (`mcpSecretKey`), or undefined for any other name. */
export function parseMcpSecretKey(key: string): { serverId: string; where: McpSecretPlace; name: string } | undefined {
  const m = MCP_SECRET_KEY.exec(key);
  return m ? { serverId: m[1], where: m[2] as McpSecretPlace, name: m[3] } : undefined;
}

/** The prefix every secret of the server is stored under (to find them all when it is removed). */
export function mcpSecretPrefix(serverId: string): string {
  return `mcp:${serverId}:`;
}
