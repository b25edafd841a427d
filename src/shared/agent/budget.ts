/**
 * Budgets (issue 27 §3): caps a chat, a run (and next, a scheduled task) carries, what has been spent against them,
 * and the words for a warning and a stop. Pure data and functions: the worker enforces (host/session/run-budget.ts),
 * the page shows and edits, a schedule will carry `BudgetCaps` as they are. No typebox here: pages import this module.
 *
 * Money is counted from pi-ai's pricing (each reply's `usage.cost`); a model without pricing (a custom endpoint, a
 * local model: every price 0) counts tokens, time and tool calls, and its cost is unknown, never "$0.00".
 */

/** Caps; an absent field is no cap. */
export interface BudgetCaps {
  /** Dollars, from pi-ai's pricing. */
  costUsd?: number;
  /** Tokens in and out (cache reads and writes too), as the replies' usage reports them. */
  tokens?: number;
  /** Wall time of a run, in minutes (a chat's runs are timed one by one: no chat-wide time cap). */
  minutes?: number;
  /** Tool calls started (a subagent's own calls count toward its parent's). */
  toolCalls?: number;
}

/** A chat's budget: caps on everything the chat spends, and on each of its runs. */
export interface ChatBudget {
  chat?: BudgetCaps;
  run?: BudgetCaps;
}

/** What has been spent, against caps. */
export interface BudgetSpend {
  /** Dollars of the replies whose model has pricing. */
  cost: number;
  /** Some of the tokens came from a model without pricing: the cost is unknown (at least `cost`). */
  costUnknown: boolean;
  tokens: number;
  elapsedMs: number;
  toolCalls: number;
}

export type BudgetCapKind = keyof BudgetCaps;
export const BUDGET_CAP_KINDS: readonly BudgetCapKind[] = ["costUsd", "tokens", "minutes", "toolCalls"];

export const NO_SPEND: Readonly<BudgetSpend> = Object.freeze({ cost: 0, costUnknown: false, tokens: 0, elapsedMs: 0, toolCalls: 0 });

/**
 * This month's spending across all chats (main/broker/monthly-spend.ts), as Settings → Budgets shows it: the money
 * from the models' pricing, and beside it the tokens of replies whose model has none (their cost unknown).
 */
export interface MonthSpend {
  /** "2026-12": the local calendar month. */
  month: string;
  costUsd: number;
  unpricedTokens: number;
}

/** The month's line: "$1.23 of the $10.00 monthly cap (12 %)", or "$1.23 this month" with no cap. */
export function monthSpendText(spend: MonthSpend, capUsd: number): string {
  if (!(capUsd > 0)) return `${dollars(spend.costUsd)} this month`;
  const share = Math.floor((spend.costUsd / capUsd) * 100);
  return `${dollars(spend.costUsd)} of the ${dollars(capUsd)} monthly cap (${share} %)${spend.costUsd >= capUsd ? ": reached, no new run starts" : ""}`;
}

/** The tokens spent at a cost unknown, in words; undefined when there are none. */
export function unpricedSpendText(spend: MonthSpend): string | undefined {
  if (!(spend.unpricedTokens > 0)) return undefined;
  return `Also ${tokenCount(spend.unpricedTokens)} tokens at a cost unknown (models without pricing), not counted toward the cap.`;
}

/** At this share of a cap the chat warns, once per cap and scope. */
export const BUDGET_WARNING_SHARE = 0.8;

export const MAX_BUDGET_USD = 1_000_000;
export const MAX_BUDGET_TOKENS = 10_000_000_000;
export const MAX_BUDGET_MINUTES = 7 * 24 * 60;
export const MAX_BUDGET_TOOL_CALLS = 1_000_000;

/** Why `value` is not valid BudgetCaps (`what` names them in the text), or undefined when it is. Never throws. */
export function budgetCapsProblem(value: unknown, what = "budget"): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return `the ${what} must be an object`;
  for (const key of Object.keys(value)) {
    if (!(BUDGET_CAP_KINDS as readonly string[]).includes(key)) return `unknown ${what} cap ${JSON.stringify(key).slice(0, 60)}`;
  }
  const { costUsd, tokens, minutes, toolCalls } = value as Record<string, unknown>;
  if (costUsd !== undefined && !(typeof costUsd === "number" && costUsd > 0 && costUsd <= MAX_BUDGET_USD)) {
    return `the ${what}'s money cap must be more than $0 and at most $${MAX_BUDGET_USD.toLocaleString("en-US")}`;
  }
  if (tokens !== undefined && !(Number.isInteger(tokens) && (tokens as number) >= 1 && (tokens as number) <= MAX_BUDGET_TOKENS)) {
    return `the ${what}'s token cap must be a whole number from 1 to ${MAX_BUDGET_TOKENS.toLocaleString("en-US")}`;
  }
  if (minutes !== undefined && !(typeof minutes === "number" && minutes > 0 && minutes <= MAX_BUDGET_MINUTES)) {
    return `the ${what}'s time cap must be more than 0 and at most ${MAX_BUDGET_MINUTES.toLocaleString("en-US")} minutes`;
  }
  if (toolCalls !== undefined && !(Number.isInteger(toolCalls) && (toolCalls as number) >= 1 && (toolCalls as number) <= MAX_BUDGET_TOOL_CALLS)) {
    return `the ${what}'s tool call cap must be a whole number from 1 to ${MAX_BUDGET_TOOL_CALLS.toLocaleString("en-US")}`;
  }
  return undefined;
}

/** Why `value` is not a valid ChatBudget, or undefined when it is. Never throws. */
export function chatBudgetProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "the budget must be an object";
  for (const key of Object.keys(value)) if (key !== "chat" && key !== "run") return `unknown budget scope ${JSON.stringify(key).slice(0, 60)}`;
  const { chat, run } = value as Record<string, unknown>;
  if (chat !== undefined) {
    const problem = budgetCapsProblem(chat, "chat's budget");
    if (problem) return problem;
    if ((chat as BudgetCaps).minutes !== undefined) return "a chat's budget has no time cap: set one for each run";
  }
  return run === undefined ? undefined : budgetCapsProblem(run, "run's budget");
}

/** Whether any cap is set. */
export function hasCaps(caps: BudgetCaps | undefined): caps is BudgetCaps {
  return caps !== undefined && BUDGET_CAP_KINDS.some((kind) => caps[kind] !== undefined);
}

/** The caps as kept: absent fields dropped; undefined when there are none. */
export function normalizeCaps(caps: BudgetCaps | undefined): BudgetCaps | undefined {
  if (!caps) return undefined;
  const out: BudgetCaps = {};
  for (const kind of BUDGET_CAP_KINDS) if (caps[kind] !== undefined) out[kind] = caps[kind];
  return hasCaps(out) ? out : undefined;
}

/** The budget as kept: scopes without caps dropped; undefined when nothing is capped. */
export function normalizeChatBudget(budget: ChatBudget | undefined): ChatBudget | undefined {
  const chat = normalizeCaps(budget?.chat);
  const run = normalizeCaps(budget?.run);
  return chat || run ? { ...(chat ? { chat } : {}), ...(run ? { run } : {}) } : undefined;
}

/** How much of a cap `spend` has used (0 to 1 and beyond); undefined without that cap, or for money with cost unknown and none known. */
export function capShare(caps: BudgetCaps, kind: BudgetCapKind, spend: BudgetSpend): number | undefined {
  const cap = caps[kind];
  if (cap === undefined) return undefined;
  switch (kind) {
    case "costUsd":
      return spend.cost / cap;
    case "tokens":
      return spend.tokens / cap;
    case "minutes":
      return spend.elapsedMs / (cap * 60_000);
    case "toolCalls":
      return spend.toolCalls / cap;
  }
}

/** The first cap `spend` has reached, or undefined. A money cap counts the known cost (a model without pricing adds none). */
export function reachedCap(caps: BudgetCaps | undefined, spend: BudgetSpend): BudgetCapKind | undefined {
  if (!caps) return undefined;
  for (const kind of BUDGET_CAP_KINDS) {
    const share = capShare(caps, kind, spend);
    if (share !== undefined && share >= 1) return kind;
  }
  return undefined;
}

/** The caps past the warning share and not reached, in order. */
export function capsNearing(caps: BudgetCaps | undefined, spend: BudgetSpend): BudgetCapKind[] {
  if (!caps) return [];
  return BUDGET_CAP_KINDS.filter((kind) => {
    const share = capShare(caps, kind, spend);
    return share !== undefined && share >= BUDGET_WARNING_SHARE && share < 1;
  });
}

/** Adds `more` to `spend` (a new object). */
export function addSpend(spend: BudgetSpend, more: Partial<BudgetSpend>): BudgetSpend {
  return {
    cost: spend.cost + (more.cost ?? 0),
    costUnknown: spend.costUnknown || more.costUnknown === true,
    tokens: spend.tokens + (more.tokens ?? 0),
    elapsedMs: spend.elapsedMs + (more.elapsedMs ?? 0),
    toolCalls: spend.toolCalls + (more.toolCalls ?? 0),
  };
}

/** "$2.00", "$0.0042", "<$0.0001" (a spend too small for four places is not shown as "$0.0000"). */
export function dollars(amount: number): string {
  if (amount === 0) return "$0.00";
  if (amount < 0.00005) return "<$0.0001";
  return amount < 0.01 ? `$${amount.toFixed(4)}` : `$${amount.toFixed(2)}`;
}

/** "1.2M", "41k", "1.2k", "950". */
export function tokenCount(n: number): string {
  if (n < 1_000) return String(Math.round(n));
  if (n < 9_950) return `${Number((n / 1_000).toFixed(1))}k`;
  if (n < 999_500) return `${Math.round(n / 1_000)}k`;
  return `${Number((n / 1_000_000).toFixed(1))}M`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

function minutesText(minutes: number): string {
  if (minutes >= 60 && minutes % 60 === 0) return plural(minutes / 60, "hour");
  return plural(minutes, "minute");
}

/** The cost as said: "$1.23"; "cost unknown" (this model has no pricing), or "$1.23 + unknown" when mixed. */
export function costText(spend: Pick<BudgetSpend, "cost" | "costUnknown">): string {
  if (!spend.costUnknown) return dollars(spend.cost);
  return spend.cost > 0 ? `${dollars(spend.cost)} + unknown cost` : "cost unknown";
}

/** A cap, named: "$2.00 budget", "1M-token budget", "30-minute budget", "50-tool-call budget". */
export function capName(caps: BudgetCaps, kind: BudgetCapKind): string {
  const cap = caps[kind] ?? 0;
  switch (kind) {
    case "costUsd":
      return `${dollars(cap)} budget`;
    case "tokens":
      return `${tokenCount(cap)}-token budget`;
    case "minutes":
      return `${minutesText(cap).replace(" ", "-").replace(/s$/, "")} budget`;
    case "toolCalls":
      return `${cap.toLocaleString("en-US")}-tool-call budget`;
  }
}

/** What was spent besides the cap's own measure: "41 tool calls, 1.2M tokens" (and the cost, unless the cap is money). */
export function spendBeside(kind: BudgetCapKind, spend: BudgetSpend): string {
  const parts: string[] = [];
  if (kind !== "toolCalls") parts.push(plural(spend.toolCalls, "tool call"));
  if (kind !== "tokens") parts.push(`${tokenCount(spend.tokens)} tokens`);
  if (kind !== "costUsd") parts.push(costText(spend));
  return parts.join(", ");
}

/** The stop's words: "Stopped at the $2.00 budget: 41 tool calls, 1.2M tokens". `scope` "chat" says it is the chat's. */
export function budgetStopText(caps: BudgetCaps, kind: BudgetCapKind, spend: BudgetSpend, scope: "chat" | "run" = "run"): string {
  return `Stopped at the ${scope === "chat" ? "chat's " : ""}${capName(caps, kind)}: ${spendBeside(kind, spend)}`;
}

/** The warning's words: "80% of the $2.00 budget used: 30 tool calls, 900k tokens". */
export function budgetWarningText(caps: BudgetCaps, kind: BudgetCapKind, spend: BudgetSpend, scope: "chat" | "run" = "run"): string {
  const share = Math.floor((capShare(caps, kind, spend) ?? 0) * 100);
  return `${share}% of the ${scope === "chat" ? "chat's " : "run's "}${capName(caps, kind)} used: ${spendBeside(kind, spend)}`;
}

/** The month a ledger counts, in local time: "2026-12". */
export function monthKey(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}`;
}

/** The refusal when the month's spend reached Settings' cap: says where to raise it. */
export function monthlyCapText(capUsd: number, spentUsd: number): string {
  return `This month's spending reached its ${dollars(capUsd)} cap (${dollars(spentUsd)} spent across all chats): no new runs start until next month. Raise or remove the cap in Settings → Budgets.`;
}
