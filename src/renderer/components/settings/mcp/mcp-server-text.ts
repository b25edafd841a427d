/**
 * How Settings → MCP servers words a server: its state as a short label with a tone, and what it runs. Pure, so
 * unit tests pin the wording.
 */
import type { McpServerConfig } from "../../../../shared/mcp/server-config";
import type { McpServerStatus } from "../../../../shared/protocol/mcp-status";

export type StateTone = "ok" | "busy" | "bad" | "off";

/**
 * The state pill: what main last said about the server, or, before it said anything (or where no MCP runtime
 * answers), what its settings imply.
 */
export function stateLabel(server: Pick<McpServerConfig, "enabled">, status: McpServerStatus | undefined): { text: string; tone: StateTone } {
  if (!server.enabled) return { text: "Disabled", tone: "off" };
  if (!status) return { text: "Not started", tone: "off" };
  switch (status.state) {
    case "starting":
      return { text: "Starting…", tone: "busy" };
    case "ready":
      return { text: `Ready · ${status.tools.length} ${status.tools.length === 1 ? "tool" : "tools"}`, tone: "ok" };
    case "restarting":
      return { text: status.restarts > 0 ? `Restarting (crashed ${status.restarts}×)` : "Restarting…", tone: "busy" };
    case "failed":
      return { text: "Failed", tone: "bad" };
    case "disabled":
      return { text: "Disabled", tone: "off" };
  }
}

/** What the server runs, as one line: the command and its arguments (quoted where they hold spaces), or its address. */
export function transportSummary(server: McpServerConfig): string {
  const t = server.transport;
  if (t.type === "http") return t.url;
  return [t.command, ...t.args].map((part) => (part === "" || /[\s"']/.test(part) ? JSON.stringify(part) : part)).join(" ");
}

/** The secret entries of a server that have no stored value, by name. */
export function missingSecrets(server: McpServerConfig, set: readonly string[] | undefined): string[] {
  const t = server.transport;
  const values = t.type === "stdio" ? t.env : t.headers;
  return Object.entries(values).filter(([name, v]) => "secret" in v && !(set ?? []).includes(name)).map(([name]) => name);
}
