/**
 * Prompt templates as pi-coding-agent 1.6.0 finds them (its `loadPromptTemplates`): the `.md` files directly in each
 * prompts folder (not below), named by the file name without `.md`, described by the frontmatter's `description` or
 * else the body's first non-empty line (60 characters, then "..."), with an optional `argument-hint`.
 *
 * Unlike pi: the first of two templates with one name is kept and the other reported (pi keeps both, and the first
 * answers); a name with whitespace, which no `/name` can call, is reported; files are read only if regular (never a
 * FIFO) and at most MAX_TEMPLATE_BYTES; a project's links may not lead out of the project. Never throws.
 */
import { parseFrontmatter } from "../../shared-node/frontmatter";
import type { PromptTemplateInfo, ResourceProblem, ResourceSource } from "../../shared/protocol/skills";
import { listFolder, readResourceFile, type LinkPolicy } from "./resource-files";
import type { ResourceRoot } from "./resource-roots";

/** A template is a message the user sends: more than this is a mistake. */
export const MAX_TEMPLATE_BYTES = 64 * 1024;
export const MAX_TEMPLATES = 300;

export interface PromptTemplate extends PromptTemplateInfo {
  contentHash: string;
}

export async function discoverPromptTemplates(
  roots: readonly ResourceRoot[],
  options: { workspace?: string } = {},
): Promise<{ templates: PromptTemplate[]; problems: ResourceProblem[] }> {
  const problems: ResourceProblem[] = [];
  const templates: PromptTemplate[] = [];
  const byName = new Map<string, string>();
  for (const root of roots) {
    const policy: LinkPolicy = root.source === "project" && options.workspace !== undefined ? { within: options.workspace } : {};
    for (const entry of await listFolder(root.dir, policy, problems)) {
      if (!entry.name.endsWith(".md") || entry.kind === "folder") continue;
      const template = await loadTemplate(entry.path, entry.real, entry.name.slice(0, -3), root.source, problems);
      if (!template) continue;
      const earlier = byName.get(template.name);
      if (earlier !== undefined) {
        problems.push({ path: entry.path, reason: `/${template.name} is already ${earlier}: skipped` });
        continue;
      }
      if (templates.length >= MAX_TEMPLATES) {
        problems.push({ path: entry.path, reason: `more than ${MAX_TEMPLATES} prompt templates: skipped` });
        continue;
      }
      byName.set(template.name, entry.path);
      templates.push(template);
    }
  }
  return { templates, problems };
}

async function loadTemplate(path: string, real: string, name: string, source: ResourceSource, problems: ResourceProblem[]): Promise<PromptTemplate | undefined> {
  if (name === "" || /\s/.test(name)) {
    problems.push({ path, reason: "its name has a space in it, so no /command can call it: skipped" });
    return undefined;
  }
  const file = await readResourceFile(path, real, MAX_TEMPLATE_BYTES, problems);
  if (!file) return undefined;
  const parsed = parseFrontmatter(file.text);
  if (!parsed.ok) {
    problems.push({ path, reason: `${parsed.reason}: skipped` });
    return undefined;
  }
  const { fields, body } = parsed;
  let description = typeof fields.description === "string" ? fields.description : "";
  if (!description) {
    const firstLine = body.split("\n").find((line) => line.trim());
    if (firstLine) description = firstLine.length > 60 ? `${firstLine.slice(0, 60)}...` : firstLine;
  }
  const argumentHint = typeof fields["argument-hint"] === "string" ? fields["argument-hint"] : undefined;
  return { name, description, ...(argumentHint ? { argumentHint } : {}), source, location: real, content: body, contentHash: file.hash };
}
