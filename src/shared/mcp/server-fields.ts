/**
 * MCP server configs as people type them: the checks in words that Settings shows next to each field, the rules
 * the settings schema cannot say, a server's id from its name, and which env variables and headers hold secrets.
 * No typebox, Node or DOM: pages, main and the import parser share these, so a field the page accepts is one main
 * accepts.
 */
import type { McpServerConfig, McpValue } from "./server-config";
import { MAX_MCP_ARGS, MAX_MCP_ENTRIES, MAX_MCP_VALUE_CHARS, MCP_ENV_NAME_PATTERN, MCP_HEADER_NAME_PATTERN } from "./server-limits";

const ENV_NAME = new RegExp(MCP_ENV_NAME_PATTERN);
const HEADER_NAME = new RegExp(MCP_HEADER_NAME_PATTERN);
const MAX_ID_CHARS = 40;

/**
 * Names whose values are usually secrets: tokens, keys, passwords, credentials, cookies, `Authorization`. Import and
 * the editor mark such entries secret by default; the user can change it either way. The same rule keeps such
 * variables from every command Paddock runs (shared/security/secret-environment.ts).
 */
export { looksSecret } from "../security/secret-environment";

/**
 * An unused id made from `name`: lower case, runs of other characters as one hyphen, at most 40 characters, "-2",
 * "-3"... when taken. Never throws; a name with no letters or digits gives "server".
 */
export function serverIdFrom(name: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  const base = name.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, MAX_ID_CHARS - 4).replace(/-+$/, "") || "server";
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const id = `${base}-${n}`;
    if (!used.has(id)) return id;
  }
}

/** Whether `path` is absolute on Windows or elsewhere (the page has no `node:path`; main runs where the server runs). */
function isAbsolutePath(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}

/** Why `url` is not a Streamable HTTP server's address, or undefined. */
function urlProblem(url: string): string | undefined {
  const trimmed = url.trim();
  if (trimmed === "") return "Enter the server's address, such as https://example.com/mcp.";
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return "This is not a web address: it should look like https://example.com/mcp.";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "The address must start with http:// or https://.";
  if (/\s/.test(trimmed)) return "The address cannot contain spaces.";
  if (trimmed.length > 2048) return "The address is longer than 2,048 characters.";
  return undefined;
}

/** One env variable or header as the editor holds it. */
export interface McpEntryDraft {
  name: string;
  /** Plain: the value. Secret: a new value to store, or "" to keep the stored one. */
  value: string;
  secret: boolean;
  /** A secret value is stored for this name already (from main's `mcpSecretStatus`). */
  stored: boolean;
}

/** A server as the editor holds it: every field as typed. */
export interface McpServerDraft {
  /** Fixed once the server exists; a new server's is made from its name when saved. */
  id: string;
  name: string;
  enabled: boolean;
  trusted: boolean;
  type: "stdio" | "http";
  command: string;
  /** One argument a line (arguments may hold spaces; a blank line is dropped). */
  args: string;
  cwd: string;
  url: string;
  /** The env variables (stdio) or headers (http). */
  entries: McpEntryDraft[];
}

/** What is wrong with each field of a draft, in words; no key means the field is fine. */
export interface McpDraftProblems {
  name?: string;
  command?: string;
  args?: string;
  cwd?: string;
  url?: string;
  /** Per row of `entries`. */
  entries?: Record<number, string>;
  /** The rows of `entries` whose problem is their value (the others': their name). */
  entryValues?: number[];
}

export function hasProblems(problems: McpDraftProblems): boolean {
  return Object.keys(problems).length > 0;
}

/**
 * Checks a draft the way main will check what it becomes. `otherNames` are the names of the other servers (a name is
 * how people tell servers apart, so it is unique, ignoring case).
 */
export function draftProblems(draft: McpServerDraft, otherNames: readonly string[]): McpDraftProblems {
  const problems: McpDraftProblems = {};
  const name = draft.name.trim();
  if (name === "") problems.name = "Give the server a name.";
  else if (name.length > 200) problems.name = "The name is longer than 200 characters.";
  else if (otherNames.some((n) => n.trim().toLowerCase() === name.toLowerCase())) problems.name = `Another server is called "${name}".`;
  if (draft.type === "stdio") {
    const command = draft.command.trim();
    if (command === "") problems.command = "Enter the program to run, such as npx, uvx or a full path.";
    else if (command.length > 4096) problems.command = "The command is longer than 4,096 characters.";
    else if (/\s/.test(command) && !isAbsolutePath(command)) {
      problems.command = "Only the program goes here; put each argument on its own line under Arguments.";
    }
    const args = argLines(draft.args);
    if (args.length > MAX_MCP_ARGS) problems.args = `At most ${MAX_MCP_ARGS} arguments.`;
    else if (args.some((a) => a.length > MAX_MCP_VALUE_CHARS)) problems.args = `An argument is longer than ${MAX_MCP_VALUE_CHARS.toLocaleString("en-US")} characters.`;
    const cwd = draft.cwd.trim();
    if (cwd !== "" && !isAbsolutePath(cwd)) problems.cwd = "Give the folder's full path, or leave it empty.";
  } else {
    const problem = urlProblem(draft.url);
    if (problem) problems.url = problem;
  }
  const { entries, values } = entryProblems(draft.type, draft.entries);
  if (Object.keys(entries).length > 0) problems.entries = entries;
  if (values.length > 0) problems.entryValues = values;
  return problems;
}

function entryProblems(type: "stdio" | "http", entries: readonly McpEntryDraft[]): { entries: Record<number, string>; values: number[] } {
  const out: Record<number, string> = {};
  const values: number[] = [];
  const seen = new Set<string>();
  const what = type === "stdio" ? "variable" : "header";
  entries.forEach((entry, i) => {
    const name = entry.name.trim();
    const key = type === "http" ? name.toLowerCase() : name;
    const nameProblem = i >= MAX_MCP_ENTRIES ? `At most ${MAX_MCP_ENTRIES} ${what}s.`
      : name === "" ? `Give the ${what} a name, or remove the row.`
      : type === "stdio" && !ENV_NAME.test(name) ? "A variable's name has letters, digits and _ only, and does not start with a digit."
      : type === "http" && !HEADER_NAME.test(name) ? "A header's name has no spaces, colons or quotes."
      : seen.has(key) ? `${name} is given twice.`
      : undefined;
    const valueProblem = entry.value.length > MAX_MCP_VALUE_CHARS ? `The value is longer than ${MAX_MCP_VALUE_CHARS.toLocaleString("en-US")} characters.`
      : entry.secret && !entry.stored && entry.value.trim() === "" ? "Enter the secret value (it is stored encrypted and not shown again)."
      : undefined;
    if (nameProblem !== undefined) out[i] = nameProblem;
    else if (valueProblem !== undefined) {
      out[i] = valueProblem;
      values.push(i);
    }
    seen.add(key);
  });
  return { entries: out, values };
}

/** The arguments in a draft's text: one a line, blank lines dropped, each line kept as typed otherwise. */
function argLines(text: string): string[] {
  return text.split(/\r?\n/).filter((line) => line.trim() !== "");
}

/**
 * What main stores for a draft that has no problems: the config (secrets as references) and the secret values to
 * store, by entry name (only new ones: a secret left empty keeps its stored value).
 */
export function draftToConfig(draft: McpServerDraft): { server: McpServerConfig; secrets: Record<string, string> } {
  const values: Record<string, McpValue> = {};
  const secrets: Record<string, string> = {};
  for (const entry of draft.entries) {
    const name = entry.name.trim();
    if (entry.secret) {
      values[name] = { secret: true };
      if (entry.value.trim() !== "") secrets[name] = entry.value.trim();
    } else {
      values[name] = { value: entry.value };
    }
  }
  const base = { id: draft.id, name: draft.name.trim(), enabled: draft.enabled, trusted: draft.trusted };
  const cwd = draft.cwd.trim();
  const server: McpServerConfig = draft.type === "stdio"
    ? { ...base, transport: { type: "stdio", command: draft.command.trim(), args: argLines(draft.args), env: values, ...(cwd ? { cwd } : {}) } }
    : { ...base, transport: { type: "http", url: draft.url.trim(), headers: values } };
  return { server, secrets };
}

/**
 * Whether `draft` sends its secrets somewhere other than `saved` did: an HTTP server's address on another origin
 * (scheme, host, port), a stdio server's other command, arguments or folder. Main binds stored secrets to where they
 * were saved for (main/broker/mcp-config.ts, `mcpSecretBinding`) and does not send them elsewhere, so the editor
 * then asks for them again.
 */
export function secretsTargetMoved(saved: McpServerDraft, draft: McpServerDraft): boolean {
  if (saved.type !== draft.type) return true;
  if (draft.type === "http") return originOf(saved.url) !== originOf(draft.url);
  return saved.command.trim() !== draft.command.trim() || argLines(saved.args).join("\n") !== argLines(draft.args).join("\n") || saved.cwd.trim() !== draft.cwd.trim();
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url.trim()).origin;
  } catch {
    return undefined;
  }
}

/** The editor's draft of a stored server; `storedSecrets` are the names whose secret main holds. */
export function configToDraft(server: McpServerConfig, storedSecrets: readonly string[]): McpServerDraft {
  const t = server.transport;
  const values = t.type === "stdio" ? t.env : t.headers;
  return {
    id: server.id,
    name: server.name,
    enabled: server.enabled,
    trusted: server.trusted,
    type: t.type,
    command: t.type === "stdio" ? t.command : "",
    args: t.type === "stdio" ? t.args.join("\n") : "",
    cwd: t.type === "stdio" ? t.cwd ?? "" : "",
    url: t.type === "http" ? t.url : "",
    entries: Object.entries(values).map(([name, value]) => "secret" in value
      ? { name, value: "", secret: true, stored: storedSecrets.includes(name) }
      : { name, value: value.value, secret: false, stored: false }),
  };
}

/** A new, empty draft. */
export function emptyDraft(type: "stdio" | "http"): McpServerDraft {
  return { id: "", name: "", enabled: true, trusted: false, type, command: "", args: "", cwd: "", url: "", entries: [] };
}

/**
 * The rules for Settings' list the schema cannot say: ids and names unique, a working folder absolute, an HTTP
 * address that parses, header names unique ignoring case. For servers that pass the schema; never throws.
 */
export function mcpServersRuleErrors(servers: readonly McpServerConfig[]): string[] {
  const errors: string[] = [];
  const ids = new Set<string>();
  const names = new Set<string>();
  servers.forEach((server, i) => {
    const at = `mcpServers/${i}`;
    if (ids.has(server.id)) errors.push(`${at}: the id "${server.id}" is used twice`);
    ids.add(server.id);
    const name = server.name.trim().toLowerCase();
    if (names.has(name)) errors.push(`${at}: the name "${server.name}" is used twice`);
    names.add(name);
    const t = server.transport;
    if (t.type === "stdio" && t.cwd !== undefined && !isAbsolutePath(t.cwd)) errors.push(`${at}: the working folder must be a full path`);
    if (t.type === "http") {
      const problem = urlProblem(t.url);
      if (problem) errors.push(`${at}: ${problem}`);
      const seen = new Set<string>();
      for (const header of Object.keys(t.headers)) {
        if (seen.has(header.toLowerCase())) errors.push(`${at}: the header ${header} is given twice`);
        seen.add(header.toLowerCase());
      }
    }
  });
  return errors;
}

/** The names of a server's entries (env variables or headers) that are secret references. */
export function secretNames(server: McpServerConfig): string[] {
  const t = server.transport;
  const values = t.type === "stdio" ? t.env : t.headers;
  return Object.entries(values).filter(([, v]) => "secret" in v).map(([name]) => name);
}
