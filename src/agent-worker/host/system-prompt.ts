/**
 * The system prompt of a chat with a workspace, shaped like pi's coding agent's (its tools, guidelines, the project
 * context files, then the date and working folder), so models and context files written for pi read the same. A chat
 * without a workspace keeps exactly the prompt it was given.
 */
import type { ContextFile } from "./workspace-context";
import { skillsSection, type ListedSkill } from "./skills-prompt";

export interface PromptParts {
  /** The chat's own instructions, in place of Paddock's default; absent or empty for the default. */
  custom?: string;
  /** The tools the agent has, with a one-line description each and the rules for using it (pi's). */
  tools: { name: string; snippet: string; guidelines?: readonly string[] }[];
  workspace: string;
  contextFiles: ContextFile[];
  /** The skills main listed (skills-prompt.ts); absent or empty: no skills section. */
  skills?: readonly ListedSkill[];
  platform: string;
  now: Date;
}

export function workspacePrompt(parts: PromptParts): string {
  const names = new Set(parts.tools.map((t) => t.name));
  let prompt = parts.custom?.trim() || defaultPrompt(parts.tools, names);
  if (parts.contextFiles.length > 0) {
    prompt += "\n\n# Project Context\n\nProject-specific instructions and guidelines:\n\n";
    for (const { path, content } of parts.contextFiles) prompt += `## ${path}\n\n${content}\n\n`;
  }
  prompt += skillsSection(parts.skills ?? [], names);
  prompt += `\nCurrent date: ${isoDate(parts.now)}`;
  prompt += `\nCurrent working directory: ${parts.workspace.replace(/\\/g, "/")}`;
  prompt += `\nPlatform: ${parts.platform}`;
  return prompt;
}

function defaultPrompt(tools: PromptParts["tools"], names: ReadonlySet<string>): string {
  const guidelines: string[] = [];
  if (names.has("bash") && (names.has("grep") || names.has("find") || names.has("ls"))) {
    guidelines.push("Prefer grep/find/ls tools over bash for file exploration (faster, respects .gitignore)");
  }
  for (const tool of tools) for (const line of tool.guidelines ?? []) if (!guidelines.includes(line)) guidelines.push(line);
  guidelines.push(
    "Work only inside the working directory: paths outside it are refused",
    "Some tool calls wait for the user's approval; a denied call comes back with the user's reason: respect it",
    "Be concise in your responses",
    "Show file paths clearly when working with files",
  );
  const list = tools.length > 0 ? tools.map((t) => `- ${t.name}: ${t.snippet}`).join("\n") : "(none)";
  return `You are an expert coding assistant working inside Paddock, a desktop app for AI agents. You help users by reading files, executing commands, editing code, and writing new files in their workspace.

Available tools:
${list}

Guidelines:
${guidelines.map((g) => `- ${g}`).join("\n")}`;
}

function isoDate(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
