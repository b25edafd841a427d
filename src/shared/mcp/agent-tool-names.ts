/**
 * The names the model calls MCP tools by: `<server id>__<tool>`. Providers accept only `[A-Za-z0-9_-]`, at most 64
 * characters (OpenAI, Anthropic), starting with a letter or underscore (Gemini); MCP tool names may also hold dots and
 * run to 128 characters. Server ids (server-config.ts) hold no underscore, so the first `__` always ends the server's
 * part and names of different servers never collide; within a server, sanitizing could make two names equal, and
 * then the later one gets a suffix from a hash of its real name.
 */

const MCP_NAME_SEPARATOR = "__";
/** The longest tool name the providers Paddock talks to accept. */
export const MAX_AGENT_TOOL_NAME = 64;

/**
 * The agent names of one server's tools, in the order given; unique, provider-safe, stable for the same names (a
 * chat's "allow for this chat" grants and subagent definitions refer to them).
 */
export function agentToolNames(serverId: string, toolNames: readonly string[]): string[] {
  const prefix = `${/^[0-9]/.test(serverId) ? "_" : ""}${serverId.replace(/[^A-Za-z0-9-]/g, "-")}${MCP_NAME_SEPARATOR}`;
  const room = MAX_AGENT_TOOL_NAME - prefix.length;
  const taken = new Set<string>();
  return toolNames.map((tool) => {
    const clean = tool.replace(/[^A-Za-z0-9_-]/g, "_") || "tool";
    let name = clean.length <= room ? clean : `${clean.slice(0, room - 9)}_${hash(tool)}`;
    if (taken.has(name)) name = `${clean.slice(0, room - 9)}_${hash(`${tool}\u0000${taken.size}`)}`;
    taken.add(name);
    return prefix + name;
  });
}


/**
 * Whether a subagent definition's `tools` entry names this MCP tool: its agent name exactly, or `<server>__*` for
 * every tool of that server.
 */
export function listsMcpTool(entries: readonly string[], tool: { serverId: string; agentName: string }): boolean {
  return entries.some((entry) => entry === tool.agentName || entry === `${tool.serverId}${MCP_NAME_SEPARATOR}*`);
}

/** 8 hex digits of FNV-1a: short, stable, no crypto needed (it only tells names apart). */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}
