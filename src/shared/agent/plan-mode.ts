/**
 * Plan mode (issue 27 §1): a chat whose runs only read and propose a plan. While a chat's options say `plan`, its calls
 * are decided under the Read-only profile (permission-profiles.ts: the worker's approval gate, never the page alone;
 * its subagents are never wider), its system prompt gains a part asking for a plan (added to the coding prompt, never
 * in its place), and each run's marker says it was planning (profile-marker.ts). The planning run's reply shows as a
 * plan card: approving leaves Plan mode (back to the chat's act profile, which Plan never changed) and sends the plan
 * as a user message. Shift+Tab in the composer cycles the modes. No Node or DOM here: pages import this module.
 */
import { PROFILE_TEXT, type PermissionProfile } from "../protocol/permission-profiles";
import type { ChatOptions } from "../protocol/chat-options";

/** The profile a chat's calls are decided under in Plan mode. */
export const PLAN_PROFILE: PermissionProfile = "read-only";

/** What a refused call in Plan mode calls the chat: "This chat is in Plan mode (read-only): …". */
export const PLAN_REFUSAL_LABEL = "in Plan mode (read-only)";

/** The system prompt's part in Plan mode (its `<plan_mode>` section, after the rules). */
export const PLAN_MODE_PROMPT = [
  "You are in plan mode: the user wants a plan before anything is changed.",
  "Only read-only tools run now (read, ls, find, grep, read-only MCP tools; commands only in a sandbox with the workspace read-only); writing, editing and other changes are refused.",
  "Investigate what you need to, then answer with a concrete, numbered plan: the files to change and how, the commands to run, and how to check the result.",
  "Do not make the changes: the user will review the plan, and may edit it, before approving it to be carried out.",
].join("\n");

/** The chat's mode: Plan, or its act profile's. */
export function inPlanMode(options: ChatOptions | undefined): boolean {
  return options?.plan === true;
}

/**
 * The next mode, as Shift+Tab in the composer cycles: the chat's act profile → Plan → the act profile. The options
 * keep the act profile as it is (Plan only narrows it while it lasts); nothing else changes.
 */
export function cycleMode(options: ChatOptions | undefined): ChatOptions {
  return withPlan(options, !inPlanMode(options));
}

/** The options with Plan mode on or off, every other field kept. */
export function withPlan(options: ChatOptions | undefined, plan: boolean): ChatOptions {
  const { plan: _old, ...rest } = options ?? {};
  return plan ? { ...rest, plan: true } : rest;
}

/** What the mode is called beside the composer: "Plan", else the act profile's name. */
export function modeLabel(plan: boolean, actProfile: PermissionProfile): string {
  return plan ? "Plan" : PROFILE_TEXT[actProfile].label;
}

/** The instruction approving a plan sends: a user message quoting the plan. */
export function planInstruction(plan: string): string {
  const quoted = plan.trim().split("\n").map((line) => (line ? `> ${line}` : ">")).join("\n");
  return `Carry out this plan:\n\n${quoted}`;
}

/**
 * The plan awaiting the user's word, or undefined: the chat's last message is a finished reply (not failed, stopped or
 * cut off) with text, of a run that went in Plan mode (the latest profile marker before it says so), the chat is idle,
 * and still in Plan mode, or that run's plan was its message's own (sent in Plan for this message: its marker's run
 * contract says so, and the chat never left its act mode). Markers after the reply do not hide it.
 */
export function pendingPlan(
  messages: readonly { role: string }[],
  planNow: boolean,
  running: boolean,
): { index: number; text: string } | undefined {
  if (running) return undefined;
  let i = messages.length - 1;
  while (i >= 0 && messages[i]?.role === "permissionProfile") i--;
  const reply = messages[i] as { role: string; stopReason?: string; content?: unknown } | undefined;
  if (!reply || reply.role !== "assistant" || reply.stopReason !== "stop") return undefined;
  const text = replyText(reply.content).trim();
  if (!text) return undefined;
  for (let j = i - 1; j >= 0; j--) {
    const m = messages[j] as { role: string; plan?: boolean; run?: { plan?: boolean } };
    if (m.role === "permissionProfile") return m.plan === true && (planNow || m.run?.plan === true) ? { index: i, text } : undefined;
  }
  return undefined;
}

/** A reply's text blocks, joined (its thinking and tool calls are not the plan). */
function replyText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((b): b is { type: "text"; text: string } => typeof b === "object" && b !== null && (b as { type?: unknown }).type === "text" && typeof (b as { text?: unknown }).text === "string")
    .map((b) => b.text)
    .join("\n");
}
