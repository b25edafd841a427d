/**
 * A chat's own instructions and model parameters. Absent fields take the defaults: Settings' default instructions
 * (and, in a workspace, Paddock's prompt for working there), the provider's temperature, and the model's own limit
 * on output tokens. The worker journals them in the transcript's `meta` records and tells every mirror; the page
 * edits them in the chat's settings. No typebox here: pages import this module.
 */
import { MAX_MCP_SERVERS, MCP_SERVER_ID_PATTERN } from "../mcp/server-limits";
import { isPermissionProfile, type PermissionProfile } from "./permission-profiles";
import { chatBudgetProblem, normalizeChatBudget, type ChatBudget } from "../agent/budget";

export interface ChatOptions {
  /** Instructions for this chat, in place of Settings' default (and of Paddock's default inside a workspace). */
  systemPrompt?: string;
  /** Sampling temperature, 0 to 2. */
  temperature?: number;
  /** Most tokens one reply may have; capped at the model's own maximum. */
  maxTokens?: number;
  /**
   * The MCP servers (Settings' ids) whose tools this chat gets, of those enabled; [] for none. Absent: every enabled
   * server, those added later too.
   */
  mcpServers?: string[];
  /** What the agent may do without asking (permission-profiles.ts); absent: Settings' default. */
  profile?: PermissionProfile;
  /** Caps on what the chat, and each of its runs, may spend (budget.ts); absent: Settings' defaults for runs. */
  budget?: ChatBudget;
  /**
   * Plan mode (agent/plan-mode.ts): runs only read (the Read-only profile) and are asked for a plan; `profile` stays
   * the act profile approving a plan returns to. Absent: not planning.
   */
  plan?: true;
}

/** Longest instructions a chat (or Settings' default) may have. */
export const MAX_INSTRUCTIONS_CHARS = 50_000;
export const MIN_TEMPERATURE = 0;
export const MAX_TEMPERATURE = 2;
export const MAX_OUTPUT_TOKENS = 1_000_000;

/** Why `value` is not valid ChatOptions, or undefined when it is. Never throws. */
export function chatOptionsProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "chat options must be an object";
  for (const key of Object.keys(value)) {
    if (!(CHAT_OPTION_KEYS as ReadonlySet<string>).has(key)) return `unknown chat option ${JSON.stringify(key).slice(0, 60)}`;
  }
  const { systemPrompt, temperature, maxTokens, mcpServers, profile, budget, plan } = value as Record<string, unknown>;
  if (plan !== undefined && plan !== true) return "plan mode must be true or absent";
  if (profile !== undefined && !isPermissionProfile(profile)) return `unknown permission profile ${JSON.stringify(profile).slice(0, 60)}`;
  if (systemPrompt !== undefined && (typeof systemPrompt !== "string" || systemPrompt.length > MAX_INSTRUCTIONS_CHARS)) {
    return `instructions must be text of at most ${MAX_INSTRUCTIONS_CHARS.toLocaleString("en-US")} characters`;
  }
  if (temperature !== undefined && (typeof temperature !== "number" || !(temperature >= MIN_TEMPERATURE && temperature <= MAX_TEMPERATURE))) {
    return `temperature must be a number from ${MIN_TEMPERATURE} to ${MAX_TEMPERATURE}`;
  }
  if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || (maxTokens as number) < 1 || (maxTokens as number) > MAX_OUTPUT_TOKENS)) {
    return `max output tokens must be a whole number from 1 to ${MAX_OUTPUT_TOKENS.toLocaleString("en-US")}`;
  }
  if (mcpServers !== undefined && !(Array.isArray(mcpServers) && mcpServers.length <= MAX_MCP_SERVERS && mcpServers.every((id) => typeof id === "string" && MCP_SERVER_ID.test(id)))) {
    return `MCP servers must be a list of at most ${MAX_MCP_SERVERS} server ids`;
  }
  if (budget !== undefined) return chatBudgetProblem(budget);
  return undefined;
}

/** The options as kept: blank instructions are no instructions (the default applies), absent fields dropped. */
export function normalizeChatOptions(options: ChatOptions): ChatOptions {
  const out: ChatOptions = {};
  if (options.systemPrompt !== undefined && options.systemPrompt.trim() !== "") out.systemPrompt = options.systemPrompt;
  if (options.temperature !== undefined) out.temperature = options.temperature;
  if (options.maxTokens !== undefined) out.maxTokens = options.maxTokens;
  if (options.mcpServers !== undefined) out.mcpServers = [...new Set(options.mcpServers)];
  if (options.profile !== undefined) out.profile = options.profile;
  if (options.plan === true) out.plan = true;
  const budget = normalizeChatBudget(options.budget);
  if (budget) out.budget = budget;
  return out;
}

/** Whether the chat changes anything from the defaults. */
export function hasChatOptions(options: ChatOptions | undefined): boolean {
  return options !== undefined && [...CHAT_OPTION_KEYS].some((key) => options[key] !== undefined);
}

const MCP_SERVER_ID = new RegExp(MCP_SERVER_ID_PATTERN);

/** Every field ChatOptions has: what a chat may set, and what makes it differ from the defaults. */
const CHAT_OPTION_KEYS: ReadonlySet<keyof ChatOptions> = new Set<keyof ChatOptions>(["systemPrompt", "temperature", "maxTokens", "mcpServers", "profile", "budget", "plan"]);
