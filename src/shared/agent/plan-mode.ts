/**
 * Plan mode (issue 27 §1): a chat whose runs only read and propose a plan. While a chat's options say `plan`, its calls
 * are decided under the Read-only profile (permission-profiles.ts: the worker's approval gate, never the page alone;
 * its subagents are never wider), its system prompt gains a part asking for a plan (added to the coding prompt, never
 * in its place), and each run's marker says it was planning (profile-marker.ts). The planning run's reply shows as a
 * plan card: approving leaves Plan mode (back to the chat's act profile, which Plan never changed) and sends the plan
 * as a user message. One message may plan too, the chat staying in its act mode: it is sent with the run contract
 * `{ plan: true }` (protocol/run-contract.ts), so that run alone goes as above, its marker saying so. Shift+Tab in
 * the composer cycles the modes: act → Plan (this message) → Plan mode → act. No Node or DOM here: pages import this
 * module.
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
 * The composer's modes, in the order Shift+Tab cycles them (as Claude Code's): `act`, the chat's act profile; `once`,
 * Plan for the next message sent only (its run's contract; the composer goes back to act once it is sent); `plan`, the
 * chat's Plan mode (its options' `plan`, until the user leaves it or approves a plan). The chat's act profile is never
 * changed by either plan.
 */
export const COMPOSER_MODES = ["act", "once", "plan"] as const;
export type ComposerMode = (typeof COMPOSER_MODES)[number];

/** The composer's mode now: the chat's Plan mode first, else the one-message plan the composer holds, else act. */
export function composerMode(chatPlan: boolean, planOnce: boolean): ComposerMode {
  return chatPlan ? "plan" : planOnce ? "once" : "act";
}

/** Shift+Tab's next mode: act → Plan (this message) → Plan mode → act. */
export function nextComposerMode(mode: ComposerMode): ComposerMode {
  return COMPOSER_MODES[(COMPOSER_MODES.indexOf(mode) + 1) % COMPOSER_MODES.length];
}

/** The composer chip's words for a mode: the act profile's name, "Plan (this message)", "Plan mode". */
export function composerModeLabel(mode: ComposerMode, actProfile: PermissionProfile): string {
  return mode === "once" ? "Plan (this message)" : mode === "plan" ? "Plan mode" : PROFILE_TEXT[actProfile].label;
}

/** What a chip's tooltip says of a mode, and of the next one Shift+Tab gives. */
export function composerModeTitle(mode: ComposerMode, actProfile: PermissionProfile): string {
  const next = composerModeLabel(nextComposerMode(mode), actProfile);
  if (mode === "once") return `Plan (this message): the next message you send only reads and is answered with a plan to approve; the chat stays in ${PROFILE_TEXT[actProfile].label} (Shift+Tab: ${next})`;
  if (mode === "plan") return `Plan mode: every run only reads and answers with a plan to approve, until you approve one or leave it (Shift+Tab: back to ${next})`;
  return `Shift+Tab: plan first, for the next message only (then Plan mode for the chat)`;
}

/** The run contract a message is sent with in a mode: Plan for this message only asks for it; the others need none. */
export function messageContract(mode: ComposerMode): { plan: true } | undefined {
  return mode === "once" ? { plan: true } : undefined;
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
