import type { PromptTemplateInfo } from "../../../shared/protocol/skills";

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
