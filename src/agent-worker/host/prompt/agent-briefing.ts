/**
 * "What the agent was told" (shared/protocol/agent-briefing.ts): the prompt a chat's next request carries, built by
 * the same function that builds it for the Agent (`chatPrompt`), and its parts as the page shows them apart.
 */
import type { AgentBriefing } from "../../../shared/protocol/agent-briefing";
import { promptSections, workspacePrompt, type PromptParts } from "./system-prompt";
import { PLAN_MODE_PROMPT } from "../../../shared/agent/plan-mode";

/** What a chat's prompt is made of: the workspace prompt's parts (absent without a workspace) and the instructions. */
export interface PromptInputs {
  /** The workspace prompt's parts; absent: the chat has no workspace, and its prompt is only its instructions. */
  parts?: Omit<PromptParts, "instructions" | "addendum" | "plan">;
  /** The user's instructions (the chat's own, else Settings' default) and which of the two they are. */
  instructions?: { from: "chat" | "settings"; text: string };
  /** A subagent's definition's instructions. */
  addendum?: string;
  /** Plan mode: the prompt gains its part asking for a plan (added, never in the coding prompt's place). */
  plan?: boolean;
  /** Context files found but not read (the workspace's own report). */
  contextSkipped?: readonly string[];
}

/**
 * The system prompt: with a workspace, Paddock's coding prompt with the user's instructions added after its rules
 * (never in their place) and a subagent's appended; without one, a subagent's instructions, else the user's, else none.
 */
export function chatPrompt(inputs: PromptInputs): string {
  if (!inputs.parts) {
    const own = inputs.addendum ?? inputs.instructions?.text ?? "";
    return inputs.plan ? [own, `<plan_mode>\n${PLAN_MODE_PROMPT}\n</plan_mode>`].filter(Boolean).join("\n\n") : own;
  }
  return workspacePrompt({ ...inputs.parts, instructions: inputs.instructions?.text, addendum: inputs.addendum, ...(inputs.plan ? { plan: true } : {}) });
}

/** The prompt and its parts, for the page's "What the agent was told". */
export function agentBriefing(inputs: PromptInputs): AgentBriefing {
  const parts = inputs.parts;
  const sections = parts ? promptSections({ ...parts, instructions: inputs.instructions?.text, addendum: inputs.addendum }) : undefined;
  const instructions = inputs.instructions?.text.trim() ? inputs.instructions : undefined;
  const agentInstructions = inputs.addendum?.trim() || undefined;
  return {
    systemPrompt: chatPrompt(inputs),
    ...(parts ? { workspace: parts.workspace } : {}),
    ...(sections ? { base: [sections.preamble, sections.tools, sections.rules].filter(Boolean).join("\n\n") } : {}),
    ...(instructions ? { instructions } : {}),
    ...(agentInstructions ? { agentInstructions } : {}),
    ...(inputs.plan ? { planMode: PLAN_MODE_PROMPT } : {}),
    contextFiles: (parts?.contextFiles ?? []).map(({ path, content }) => ({ path, content })),
    contextSkipped: [...(inputs.contextSkipped ?? [])],
    skills: (parts?.skills ?? []).map(({ name, description, location }) => ({ name, description, location })),
  };
}
