/**
 * The system prompt of a chat with a workspace, built as pi coding-agent 1.6.0 builds its own (`buildSystemPrompt` in
 * its `core/system-prompt.js`): a preamble, then named sections, each wrapped in `<name>…</name>`, in pi's order, so
 * models and context files written for pi read the same. A chat without a workspace keeps exactly the prompt it was
 * given.
 *
 * Where it differs from pi's, on purpose: the preamble names Paddock (pi's names its own harness); there is no `docs`
 * section (it points at pi's installed documentation, which a Paddock user does not have); the rules add two of
 * Paddock's (confinement to the workspace, and approvals), after the tools' rules, where pi puts its extra rules; and
 * the user's instructions (the chat's own, else Settings' default) are ADDED in a section of their own after the
 * rules, where pi's custom prompt replaces its preamble, tool list and rules: a line of "Answer in French" in Settings
 * must not cost the agent its tools' list or the rule to stay in the folder (issue 25).
 */
import type { ContextFile } from "../workspace/workspace-context";
import { skillsSection, type ListedSkill } from "./skills-prompt";
import { PLAN_MODE_PROMPT } from "../../../shared/agent/plan-mode";

export interface PromptParts {
  /** The user's instructions (the chat's own, else Settings' default), added after the rules; absent or empty: none. */
  instructions?: string;
  /**
   * The tools the agent has, with pi's one-line snippet and rules for using it. As in pi 1.6.0, a tool without a
   * snippet (Paddock's own, an MCP server's) is not listed: the model has its description with its schema, and the
   * list ends "Additional tools may be available."
   */
  tools: { name: string; snippet?: string; guidelines?: readonly string[] }[];
  /** Text appended to the prompt (pi's `--append-system-prompt`, which its subagents get their agent's body through). */
  addendum?: string;
  /** Plan mode (shared/agent/plan-mode.ts): a `plan_mode` section after the rules asks for a plan. */
  plan?: boolean;
  workspace: string;
  contextFiles: ContextFile[];
  /** The skills main listed (skills-prompt.ts); absent or empty: no skills section. */
  skills?: readonly ListedSkill[];
}

/** Paddock's preamble, in place of pi's "You are a coding assistant running inside pi, a coding agent harness." */
export const PADDOCK_PREAMBLE =
  "You are a coding assistant running inside Paddock, a desktop app for AI agents. Help users inspect files, run commands, and modify code.";

/** Paddock's own rules, added where pi adds its extra prompt guidelines: after the tools' own. */
export const PADDOCK_RULES = [
  "Work only inside the working directory: paths outside it are refused",
  "Some tool calls wait for the user's approval; a denied call comes back with the user's reason: respect it",
];

/** One section: its name (pi's) and its text for these parts, or undefined where it has none. */
type Section = readonly [name: string, content: (parts: PromptParts) => string | undefined];

/** The sections after the preamble, in pi 1.6.0's order. A new one is one line here. */
const SECTIONS: readonly Section[] = [
  ["tools", (parts) => toolList(parts.tools)],
  ["rules", (parts) => rules(parts.tools)],
  ["plan_mode", (parts) => (parts.plan ? PLAN_MODE_PROMPT : undefined)],
  ["user_instructions", (parts) => parts.instructions?.trim() || undefined],
  ["addendum", (parts) => parts.addendum?.trim() || undefined],
  ["project_context", (parts) => projectContext(parts.contextFiles)],
  ["skills", (parts) => skillsSection(parts.skills ?? [], new Set(parts.tools.map((t) => t.name))).trim() || undefined],
  ["cwd", (parts) => parts.workspace.replace(/\\/g, "/")],
];

/** The prompt's sections by name, in order, each already wrapped as pi wraps it (the preamble is not). */
export function promptSections(parts: PromptParts): Record<string, string> {
  const sections: Record<string, string> = { preamble: PADDOCK_PREAMBLE };
  for (const [name, content] of SECTIONS) {
    const text = content(parts);
    if (text) sections[name] = `<${name}>\n${text}\n</${name}>`;
  }
  return sections;
}

/** The whole prompt: the sections joined by blank lines, as pi-ai renders a system message's sections. */
export function workspacePrompt(parts: PromptParts): string {
  return Object.values(promptSections(parts)).join("\n\n");
}

function toolList(tools: PromptParts["tools"]): string {
  const listed = tools.filter((t) => t.snippet);
  const list = listed.length > 0 ? listed.map((t) => `- ${t.name}: ${t.snippet}`).join("\n") : "(none)";
  return `${list}\n\nAdditional tools may be available.`;
}

/** pi's rules: the bash hint when there are no search tools, each tool's guidelines once, the extra rules, then the two closing ones. */
function rules(tools: PromptParts["tools"]): string {
  const names = new Set(tools.map((t) => t.name));
  const lines: string[] = [];
  const add = (rule: string) => {
    const line = rule.trim();
    if (line && !lines.includes(line)) lines.push(line);
  };
  if (names.has("bash") && !names.has("grep") && !names.has("find") && !names.has("ls")) add("Use bash for file operations like ls, rg, find");
  for (const tool of tools) for (const line of tool.guidelines ?? []) add(line);
  for (const line of PADDOCK_RULES) add(line);
  add("Be concise in your responses");
  add("Show file paths clearly when working with files");
  return lines.map((line) => `- ${line}`).join("\n");
}

function projectContext(files: ContextFile[]): string | undefined {
  if (files.length === 0) return undefined;
  return [
    "Project-specific instructions and guidelines:",
    ...files.map(({ path, content }) => `<project_instructions path="${path}">\n${content}\n</project_instructions>`),
  ].join("\n\n");
}
