/**
 * The line an approval question shows for a call, made from the arguments the tool will use. A model may add any
 * property to a call (pi's validation lets extra ones through, and the Agent must validate as pi does), so a line
 * picked from whichever argument looks telling could show a decoy: `write` with `command: "git status"` beside
 * the path it writes. So a built-in tool is described from its own declared parameters only (extra ones are never
 * read by it), and a tool whose parameters are not ours (an MCP tool: its server gets every argument) shows them all.
 */
import type { AgentTool } from "../../../shared/agent/types";
import { isRecord } from "../../../shared/is-record";

/** A value longer than this is cut in the line (the name of every argument still shows). */
const MAX_VALUE = 200;
/** The arguments' part of a line stops near this length, saying how many more there are and their names. */
const MAX_LINE = 2000;

/**
 * What a call of `tool` (the session's tool of that name, undefined when it has none) with `args` would do: bash's
 * command; `write <path> (<size>)`; `edit <path>`; other tools' name with their declared arguments (a path first,
 * bare). Never throws.
 */
export function describeToolCall(tool: Pick<AgentTool<any>, "name" | "parameters"> | undefined, args: unknown, name = tool?.name ?? "?"): string {
  const given = isRecord(args) ? args : {};
  const declared = declaredParameters(tool);
  if (!declared) return `${name} ${formatArguments(args)}`.trimEnd();
  const used = Object.fromEntries(Object.entries(given).filter(([key]) => declared.has(key)));
  if (name === "bash" && typeof used.command === "string") return used.command;
  const path = typeof used.path === "string" ? used.path : undefined;
  if (name === "write" && path !== undefined && typeof used.content === "string") return `write ${path} (${size(used.content)})`;
  if (name === "edit" && path !== undefined) return `edit ${path}`;
  const { path: _path, ...rest } = used;
  return [name, ...(path !== undefined ? [path] : []), ...(Object.keys(rest).length > 0 ? [formatArguments(rest)] : [])].join(" ");
}

/**
 * Every argument as `name=value` (values as JSON, long ones cut), none left out unless the line grows past
 * MAX_LINE, which then ends by saying how many more there are. Never throws.
 */
export function formatArguments(args: unknown): string {
  if (!isRecord(args)) return cut(json(args), MAX_LINE);
  const entries = Object.entries(args);
  const parts: string[] = [];
  let length = 0;
  for (const [i, [key, value]] of entries.entries()) {
    const part = `${cut(key, 60)}=${cut(json(value), MAX_VALUE)}`;
    if (length + part.length > MAX_LINE && i > 0) {
      const left = entries.slice(i).map(([k]) => cut(k, 60));
      parts.push(`… and ${left.length} more argument${left.length === 1 ? "" : "s"} (${cut(left.join(", "), MAX_VALUE)})`);
      break;
    }
    parts.push(part);
    length += part.length + 1;
  }
  return parts.join(" ");
}

/** The names a tool's schema declares (TypeBox objects are JSON Schema); undefined when it declares none we can read. */
function declaredParameters(tool: Pick<AgentTool<any>, "parameters"> | undefined): Set<string> | undefined {
  const properties = (tool?.parameters as { properties?: unknown } | undefined)?.properties;
  return isRecord(properties) ? new Set(Object.keys(properties)) : undefined;
}

function size(content: string): string {
  const bytes = Buffer.byteLength(content, "utf8");
  return `${bytes} byte${bytes === 1 ? "" : "s"}`;
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}… (${text.length} characters)` : text;
}
