import type { PromptTemplateInfo } from "../../../shared/protocol/skills";
import type { McpPromptInfo } from "../../../shared/protocol/mcp-host-protocol";

/**
 * What the composer's `/` menu is filtering by: the command being typed (the draft is `/` and a name, no space yet),
 * or undefined when the draft is not a command in the making.
 */
export function slashQuery(draft: string): string | undefined {
  return /^\/(\S*)$/.exec(draft)?.[1];
}

/** Templates matching `query`, best first: names starting with it (in name order), then names holding it elsewhere. */
export function matchTemplates(templates: readonly PromptTemplateInfo[], query: string): PromptTemplateInfo[] {
  const q = query.toLowerCase();
  const byName = [...templates].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const starts = byName.filter((t) => t.name.toLowerCase().startsWith(q));
  const holds = byName.filter((t) => !t.name.toLowerCase().startsWith(q) && t.name.toLowerCase().includes(q));
  return [...starts, ...holds];
}

/** MCP prompts matching `query` by name, in the same order as templates (names starting with it, then holding it). */
export function matchMcpPrompts(prompts: readonly McpPromptInfo[], query: string): McpPromptInfo[] {
  const q = query.toLowerCase();
  const byName = [...prompts].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.serverName < b.serverName ? -1 : 1));
  const starts = byName.filter((p) => p.name.toLowerCase().startsWith(q));
  const holds = byName.filter((p) => !p.name.toLowerCase().startsWith(q) && p.name.toLowerCase().includes(q));
  return [...starts, ...holds];
}

/** An MCP prompt's arguments as the user filled them in: blanks left out; undefined when a required one is blank. */
export function promptArguments(prompt: McpPromptInfo, values: Readonly<Record<string, string>>): Record<string, string> | undefined {
  const args: Record<string, string> = {};
  for (const a of prompt.arguments) {
    const value = values[a.name]?.trim() ?? "";
    if (value) args[a.name] = value;
    else if (a.required) return undefined;
  }
  return args;
}
