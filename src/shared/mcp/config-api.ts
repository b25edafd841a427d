/**
 * The AppApi methods that change MCP server configs (issue 14 §1), declared here and listed in AppApi; main validates
 * their inputs against config-api-schema.ts. A secret value goes one way, page to main: no answer ever carries one,
 * only which secrets are set. No typebox here: pages import this module.
 */
import type { Settings } from "../settings/schema";
import type { McpServerConfig } from "./server-config";

/** Which of a server's secret entries (env variables or headers marked secret) have a stored value. */
export interface McpSecretStatus {
  id: string;
  /** Names of the secret entries main holds a value for; the others are "not set". */
  set: string[];
  /**
   * Names whose stored value was saved for the server's earlier address (another origin) or program, so it is not
   * sent (main/broker/mcp-config.ts, `mcpSecretBinding`): to be entered again. Absent when none.
   */
  savedElsewhere?: string[];
}

/** What an import did: the servers it added, those it left out and why. */
export interface McpImportOutcome {
  settings: Settings;
  /** Names of the servers added, in the file's order. */
  added: string[];
  skipped: { name: string; reason: string }[];
}

export interface McpConfigApi {
  /**
   * Adds the server (a new id) or replaces the one with its id, storing `secrets` (values by entry name, for entries
   * marked secret; an entry left out keeps its stored value) in main's secret store first. Secrets of entries that
   * are gone or no longer secret are forgotten. Rejects with a readable Error, changing nothing, when the server or
   * a secret is invalid. Resolves with the new settings.
   */
  saveMcpServer(server: McpServerConfig, secrets: Record<string, string>): Promise<Settings>;
  /** Removes the server and every secret stored for it. An unknown id is refused. */
  removeMcpServer(id: string): Promise<Settings>;
  /** For each configured server, which of its secrets are set. Never a value. */
  mcpSecretStatus(): Promise<McpSecretStatus[]>;
  /**
   * Adds the servers of a Claude Desktop / Cursor `mcpServers` JSON (claude-config-import.ts says what is read and
   * what is skipped). Values of env variables and headers that look secret go to the secret store. A text that is
   * not such a file is refused with a readable Error and changes nothing.
   */
  importMcpServers(text: string): Promise<McpImportOutcome>;
}
