/**
 * Reads the `mcpServers` JSON that Claude Desktop (`claude_desktop_config.json`), Cursor (`mcp.json`), Claude Code
 * (`.mcp.json`) and Windsurf use, and VS Code's `servers` variant, as Paddock server configs. The page runs it to
 * preview an import; main runs it again on the same text to do it (it trusts no page's result).
 *
 * Read: `command`/`args`/`env`/`cwd` (stdio), `url`/`headers` (Streamable HTTP), `type` when given, Cline's
 * `disabled`. Values of env variables and headers whose names look secret (`looksSecret`) become secret references,
 * their values handed back separately for main's secret store. A server Paddock cannot run (the old SSE transport),
 * one already in Settings (same name, or same command and arguments, or same address), or one with a bad field is
 * skipped with the reason; the others are still added. No typebox, Node or DOM.
 */
import type { McpServerConfig } from "./server-config";
import { MAX_MCP_SERVERS } from "./server-limits";
import { draftProblems, draftToConfig, hasProblems, looksSecret, serverIdFrom, type McpDraftProblems, type McpEntryDraft, type McpServerDraft } from "./server-fields";
import { isRecord } from "../is-record";

/** One server the import would add, with the values of its secret entries (by entry name). */
export interface McpImportItem {
  server: McpServerConfig;
  secrets: Record<string, string>;
}

export interface McpImportPlan {
  add: McpImportItem[];
  /** Entries left out, each with its name in the file and why, in words. */
  skipped: { name: string; reason: string }[];
}

/** The text as a whole is not an `mcpServers` config: nothing can be imported from it. */
export class McpImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "McpImportError";
  }
}

/**
 * What importing `text` next to `existing` would do. Throws McpImportError, with what is wrong in words, when the
 * text is not JSON or holds no servers; a bad server only lands in `skipped`. Never modifies its inputs.
 */
export function planMcpImport(text: string, existing: readonly McpServerConfig[]): McpImportPlan {
  const entries = serverEntries(parseJson(text));
  const plan: McpImportPlan = { add: [], skipped: [] };
  const ids = existing.map((s) => s.id);
  const names = existing.map((s) => s.name);
  for (const [key, value] of entries) {
    const name = key.trim() || "(no name)";
    const read = readServer(name, value);
    if (typeof read === "string") {
      plan.skipped.push({ name, reason: read });
      continue;
    }
    const draft = { ...read, id: serverIdFrom(name, ids) };
    const twin = existing.find((s) => sameTarget(s, draft));
    const earlier = plan.add.find((a) => sameTarget(a.server, draft))?.server;
    if (names.some((n) => n.trim().toLowerCase() === name.toLowerCase())) {
      plan.skipped.push({ name, reason: `a server called "${name}" is already in Settings` });
      continue;
    }
    const what = draft.type === "stdio" ? "command" : "address";
    if (twin) {
      plan.skipped.push({ name, reason: `it runs the same ${what} as "${twin.name}", already in Settings` });
      continue;
    }
    if (earlier) {
      plan.skipped.push({ name, reason: `it runs the same ${what} as "${earlier.name}", earlier in this file` });
      continue;
    }
    const problems = draftProblems(draft, names);
    if (hasProblems(problems)) {
      plan.skipped.push({ name, reason: firstProblem(problems, draft) });
      continue;
    }
    if (existing.length + plan.add.length >= MAX_MCP_SERVERS) {
      plan.skipped.push({ name, reason: `Settings hold at most ${MAX_MCP_SERVERS} servers` });
      continue;
    }
    plan.add.push(draftToConfig(draft));
    ids.push(draft.id);
    names.push(name);
  }
  return plan;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new McpImportError(`This is not valid JSON (${detail}). Paste the whole file, braces included.`);
  }
}

/** The `[name, server]` pairs of a config, or why there are none. */
function serverEntries(json: unknown): [string, unknown][] {
  if (!isRecord(json)) throw new McpImportError("The JSON should be an object with an \"mcpServers\" entry, as in Claude Desktop's config.");
  const container = "mcpServers" in json ? json.mcpServers : "servers" in json ? json.servers : looksLikeServerMap(json) ? json : undefined;
  if (container === undefined) {
    throw new McpImportError("No \"mcpServers\" entry found: this does not look like a Claude Desktop or Cursor MCP config.");
  }
  if (!isRecord(container)) throw new McpImportError("\"mcpServers\" should map each server's name to its settings.");
  const entries = Object.entries(container);
  if (entries.length === 0) throw new McpImportError("\"mcpServers\" lists no servers.");
  return entries;
}

/** A bare map of servers (the inside of `mcpServers`, as people often copy it). */
function looksLikeServerMap(json: Record<string, unknown>): boolean {
  const values = Object.values(json);
  return values.length > 0 && values.every((v) => isRecord(v) && ("command" in v || "url" in v));
}

/** One entry as a draft, or why it cannot be one. */
function readServer(name: string, value: unknown): McpServerDraft | string {
  if (!isRecord(value)) return "it is not a server's settings (an object with a command or a url)";
  const type = value.type;
  if (type === "sse") return "it uses the older SSE transport, which Paddock does not speak; if the server also offers Streamable HTTP, add that address";
  if (type !== undefined && type !== "stdio" && type !== "http" && type !== "streamable-http" && type !== "streamableHttp") {
    return `its type "${String(type).slice(0, 40)}" is not one Paddock knows (stdio or http)`;
  }
  const hasCommand = value.command !== undefined;
  const hasUrl = value.url !== undefined || value.serverUrl !== undefined;
  if (hasCommand && hasUrl) return "it has both a command and a url";
  if (!hasCommand && !hasUrl) return "it has neither a command to run nor a url";
  const enabled = value.disabled !== true;
  const base = { id: "", name, enabled, trusted: false, cwd: "", command: "", args: "", url: "" };
  if (hasCommand) {
    if (typeof value.command !== "string") return "its command is not text";
    const args = value.args ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) return "its args are not a list of text";
    if ((args as string[]).some((a) => /[\r\n]/.test(a))) return "an argument spans several lines";
    if (value.cwd !== undefined && typeof value.cwd !== "string") return "its cwd is not text";
    const env = entriesOf(value.env, "env");
    if (typeof env === "string") return env;
    return { ...base, type: "stdio", command: value.command, args: (args as string[]).join("\n"), cwd: (value.cwd as string | undefined) ?? "", entries: env };
  }
  const url = value.url ?? value.serverUrl;
  if (typeof url !== "string") return "its url is not text";
  const headers = entriesOf(value.headers, "headers");
  if (typeof headers === "string") return headers;
  return { ...base, type: "http", url, entries: headers };
}

/** `env` or `headers` as editor rows, values that look secret marked so; or why they cannot be read. */
function entriesOf(value: unknown, what: "env" | "headers"): McpEntryDraft[] | string {
  if (value === undefined) return [];
  if (!isRecord(value)) return `its ${what} is not an object of names and values`;
  const rows: McpEntryDraft[] = [];
  for (const [name, v] of Object.entries(value)) {
    if (typeof v !== "string") return `the value of ${what === "env" ? "env" : "header"} ${name.slice(0, 60)} is not text`;
    rows.push({ name, value: v, secret: v.trim() !== "" && looksSecret(name), stored: false });
  }
  return rows;
}

/** Whether the draft runs what `server` already runs: the same command and arguments, or the same address. */
function sameTarget(server: McpServerConfig, draft: McpServerDraft): boolean {
  const t = server.transport;
  if (t.type === "stdio" && draft.type === "stdio") return t.command === draft.command.trim() && t.args.join("\n") === draft.args;
  if (t.type === "http" && draft.type === "http") return t.url === draft.url.trim();
  return false;
}

function firstProblem(problems: McpDraftProblems, draft: McpServerDraft): string {
  const entries = problems.entries ?? {};
  const row = Object.keys(entries)[0];
  const text = problems.name ?? problems.command ?? problems.args ?? problems.cwd ?? problems.url
    ?? (row !== undefined ? `${draft.entries[Number(row)]?.name || "an entry"}: ${entries[Number(row)]}` : "it is not valid");
  return text.replace(/\.$/, "");
}
