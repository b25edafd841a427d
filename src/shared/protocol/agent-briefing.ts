/**
 * "What the agent was told": a chat's system prompt as the model gets it, and the parts it is made of, named by where
 * each comes from (Paddock's coding prompt, the user's instructions, the project's AGENTS.md files, the skills), so
 * the page can show them apart. The worker answers it (`agentBriefing`) from the prompt it builds for the next request.
 */

export interface AgentBriefing {
  /** The whole system prompt, exactly as the next model request carries it ("": none). */
  systemPrompt: string;
  /** The chat's workspace folder; absent: the chat has none (and no coding prompt). */
  workspace?: string;
  /** Paddock's own coding prompt (its preamble, the tool list, the rules); absent without a workspace. */
  base?: string;
  /** The user's instructions, added to the coding prompt: the chat's own, else Settings' default. */
  instructions?: { from: "chat" | "settings"; text: string };
  /** A subagent's definition's instructions (pi's appended prompt). */
  agentInstructions?: string;
  /** Plan mode's part asking for a plan (shared/agent/plan-mode.ts), added while the chat is in Plan mode. */
  planMode?: string;
  /** The project's context files read into the prompt (AGENTS.md, CLAUDE.md…), outermost first, with their text. */
  contextFiles: { path: string; content: string }[];
  /** Context files found but not read, one line each naming the file and why. */
  contextSkipped: string[];
  /** The skills the agent is told of, by name, description and the SKILL.md's path. */
  skills: { name: string; description: string; location: string }[];
}
