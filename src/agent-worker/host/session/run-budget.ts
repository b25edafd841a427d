/**
 * A chat's budget, enforced around its Agent (issue 27 §3), as run-retries.ts does its retries: an Agent listener
 * counts what each run spends (each reply's tokens and cost at `message_end`, each finished tool call, a `subagent`
 * call's usage as its progress reports it, so subagents count toward their parent's caps) and a timer holds the
 * run's wall time. The Agent itself is untouched (pi-agent-core 0.73.1's, parity tests).
 *
 * Reaching a cap (the chat's or the run's) ends the run as Stop does (the run's one AbortController: calls in flight
 * end as stopped); as the run ends its stopped reply carries the reason ("Stopped at the $2.00 budget: 41 tool calls,
 * 1.2M tokens"), journaled like any message, and the chat is told. At 80 % of a cap the chat is warned once. A chat
 * whose own cap is reached refuses new runs until the user raises it. Costs come from pi-ai's pricing; a reply that
 * used tokens at no cost (a model without pricing) makes the cost unknown, which no money cap can count.
 */
import type { AssistantMessage } from "@earendil-works/pi-ai";
import type { Agent } from "../../agent/agent";
import type { AgentEvent, AgentMessage } from "../../../shared/agent/types";
import type { TranscriptRecord } from "../../../shared-node/session-files/transcript-store";
import { isRecord } from "../../../shared/is-record";
import {
  addSpend,
  budgetStopText,
  budgetWarningText,
  capName,
  capsNearing,
  NO_SPEND,
  reachedCap,
  type BudgetCapKind,
  type BudgetCaps,
  type BudgetSpend,
  type ChatBudget,
} from "../../../shared/agent/budget";
import type { BudgetMeter } from "../../../shared/protocol/budget-meter";

/** Time, for tests to fake. */
export interface BudgetClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const SYSTEM_CLOCK: BudgetClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

export interface RunBudgetHost {
  agent(): Agent;
  /** The caps now (the chat's own, its run caps else Settings' defaults). */
  caps(): ChatBudget;
  /** Ends the run as Stop does. */
  stop(): void;
  /** Tells the chat: 80 % of a cap used, a stop at a cap (both warnings: nothing failed, the user's limit held). */
  notice(text: string, kind: "warning"): void;
  /** The meter changed: the mirrors are told. */
  shown(meter: BudgetMeter | undefined): void;
  /** Appends to the transcript; resolves once written. */
  journal(record: TranscriptRecord): Promise<void>;
  clock?: BudgetClock;
}

/** What the chat's messages spent: replies' tokens and cost, tool calls, and the subagents' usage their calls reported. */
export function spendOf(messages: readonly AgentMessage[]): BudgetSpend {
  let spend: BudgetSpend = { ...NO_SPEND };
  for (const message of messages) {
    if (message.role === "assistant") spend = addSpend(spend, replySpend(message));
    else if (message.role === "toolResult") {
      spend = addSpend(spend, { toolCalls: 1 });
      if (message.toolName === "subagent") spend = addSpend(spend, subagentSpend(message.details));
    }
  }
  return spend;
}

/** One reply's tokens and cost; tokens at no cost make the cost unknown. */
function replySpend(message: AssistantMessage): Partial<BudgetSpend> {
  const usage = message.usage;
  if (!usage) return {};
  const tokens = usage.totalTokens || usage.input + usage.output + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
  const cost = usage.cost?.total ?? 0;
  return { tokens, cost, costUnknown: tokens > 0 && cost === 0 };
}

/** A `subagent` call's details' summed usage (SubagentDetails.usage), as spend. */
function subagentSpend(details: unknown): Partial<BudgetSpend> {
  const usage = isRecord(details) && isRecord(details.usage) ? details.usage : undefined;
  if (!usage) return {};
  const n = (key: string) => (typeof usage[key] === "number" && Number.isFinite(usage[key]) ? (usage[key] as number) : 0);
  const tokens = n("input") + n("output") + n("cacheRead") + n("cacheWrite");
  const cost = n("cost");
  return { tokens, cost, costUnknown: tokens > 0 && cost === 0, toolCalls: n("toolCalls") };
}

type Scope = "chat" | "run";

export class RunBudget {
  private readonly clock: BudgetClock;
  /** What the chat spent before this run (its messages when the run began). */
  private chatBefore: BudgetSpend = { ...NO_SPEND };
  private run: BudgetSpend = { ...NO_SPEND };
  private runStart: number | undefined;
  /** Each `subagent` call's spend as last reported, so a report adds only what is new. */
  private readonly subagents = new Map<string, Partial<BudgetSpend>>();
  private timer: unknown;
  /** Caps warned about ("run:tokens"), so each warns once: the run's per run, the chat's until its cap changes. */
  private readonly warned = new Set<string>();
  private chatWarnedFor = "";
  /** Why this run was stopped, once a cap was reached. */
  private stopped: { text: string } | undefined;

  constructor(private readonly host: RunBudgetHost) {
    this.clock = host.clock ?? SYSTEM_CLOCK;
    host.agent().subscribe((event, signal) => this.onEvent(event, signal));
  }

  /** The chat's spend, now (its messages' before this run, and this run's). */
  chatSpend(): BudgetSpend {
    return addSpend(this.chatBefore, this.run);
  }

  /** The meter the page shows; undefined without caps. */
  meter(): BudgetMeter | undefined {
    const { chat, run } = this.host.caps();
    if (!chat && !run) return undefined;
    const elapsedMs = this.runStart === undefined ? 0 : this.clock.now() - this.runStart;
    return {
      ...(chat ? { chat: { caps: chat, spend: this.chatSpend() } } : {}),
      ...(run ? { run: { caps: run, spend: { ...this.run, elapsedMs }, ...(this.runStart !== undefined ? { startedAt: this.runStart } : {}) } } : {}),
    };
  }

  /**
   * Why no run may start now (the chat's own cap is reached), or undefined. Between runs, counted from `messages` as
   * they are (a reset, an edit or another branch changes them); during one, as counted.
   */
  refusal(messages: readonly AgentMessage[]): string | undefined {
    const caps = this.host.caps().chat;
    if (!caps) return undefined;
    const spend = this.host.agent().state.isStreaming ? this.chatSpend() : spendOf(messages);
    const kind = reachedCap(caps, spend);
    return kind ? `This chat reached its ${capName(caps, kind)}. Raise or remove it in the chat's Budget… (in its header) to go on.` : undefined;
  }

  /**
   * A run started: the user's own (`retry` false) is counted afresh; a retry goes on counting the run it retries.
   * Its wall time is held by one timer (none when no time cap is set).
   */
  runStarted(retry: boolean, messages: readonly AgentMessage[]): void {
    if (!retry || this.runStart === undefined) {
      this.chatBefore = spendOf(messages);
      this.run = { ...NO_SPEND };
      this.runStart = this.clock.now();
      this.subagents.clear();
      for (const key of [...this.warned]) if (key.startsWith("run:")) this.warned.delete(key);
      this.stopped = undefined;
    }
    this.armTimer();
    this.check();
  }

  /** The caps changed (the chat's Budget…, Settings' defaults): the timer and the checks follow at once. */
  capsChanged(): void {
    const chat = JSON.stringify(this.host.caps().chat ?? {});
    if (chat !== this.chatWarnedFor) {
      this.chatWarnedFor = chat;
      for (const key of [...this.warned]) if (key.startsWith("chat:")) this.warned.delete(key);
    }
    if (this.host.agent().state.isStreaming) {
      this.armTimer();
      this.check();
    } else this.host.shown(this.meter());
  }

  private armTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    const minutes = this.host.caps().run?.minutes;
    if (minutes === undefined || this.runStart === undefined || !this.host.agent().state.isStreaming) return;
    const left = Math.max(0, this.runStart + minutes * 60_000 - this.clock.now());
    const warnAt = this.runStart + minutes * 60_000 * 0.8 - this.clock.now();
    // One timer at a time: the warning's moment first, then the cap's.
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.check();
      if (!this.stopped && this.host.agent().state.isStreaming) this.armTimer();
    }, warnAt > 0 && !this.warned.has("run:minutes") ? warnAt : left);
  }

  private onEvent(event: AgentEvent, signal: AbortSignal): Promise<void> | void {
    switch (event.type) {
      case "message_end":
        if (event.message.role === "assistant") {
          this.run = addSpend(this.run, replySpend(event.message));
          this.check();
        }
        return;
      case "tool_execution_update":
        if (event.toolName === "subagent") this.subagentReport(event.toolCallId, event.partialResult?.details);
        return;
      case "tool_execution_end":
        if (event.toolName === "subagent") this.subagentReport(event.toolCallId, event.result?.details, false);
        this.run = addSpend(this.run, { toolCalls: 1 });
        this.check();
        return;
      case "agent_end":
        return this.runEnded(signal);
      default:
        return;
    }
  }

  /** A subagent call's usage so far: what is new since its last report joins the run's spend. */
  private subagentReport(toolCallId: string, details: unknown, check = true): void {
    const now = subagentSpend(details);
    if (now.tokens === undefined) return;
    const before = this.subagents.get(toolCallId) ?? {};
    this.subagents.set(toolCallId, now);
    this.run = addSpend(this.run, {
      tokens: (now.tokens ?? 0) - (before.tokens ?? 0),
      cost: (now.cost ?? 0) - (before.cost ?? 0),
      toolCalls: (now.toolCalls ?? 0) - (before.toolCalls ?? 0),
      costUnknown: now.costUnknown === true,
    });
    if (check) this.check();
  }

  /** Checks every cap against the spend now: warns once at 80 %, stops at 100 %; tells the meter. */
  private check(): void {
    const { chat, run } = this.host.caps();
    const elapsedMs = this.runStart === undefined ? 0 : this.clock.now() - this.runStart;
    const runSpend = { ...this.run, elapsedMs };
    const chatSpend = this.chatSpend();
    const reached: { caps: BudgetCaps; kind: BudgetCapKind; scope: Scope; spend: BudgetSpend } | undefined =
      (run && this.reached(run, runSpend, "run")) || (chat && this.reached(chat, chatSpend, "chat")) || undefined;
    if (reached && !this.stopped && this.host.agent().state.isStreaming) {
      this.stopped = { text: budgetStopText(reached.caps, reached.kind, reached.spend, reached.scope) };
      if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
      this.timer = undefined;
      this.host.stop();
    } else if (!this.stopped) {
      this.warn(run, runSpend, "run");
      this.warn(chat, chatSpend, "chat");
    }
    this.host.shown(this.meter());
  }

  private reached(caps: BudgetCaps, spend: BudgetSpend, scope: Scope) {
    const kind = reachedCap(caps, spend);
    return kind ? { caps, kind, scope, spend } : undefined;
  }

  private warn(caps: BudgetCaps | undefined, spend: BudgetSpend, scope: Scope): void {
    for (const kind of capsNearing(caps, spend)) {
      const key = `${scope}:${kind}`;
      if (this.warned.has(key)) continue;
      this.warned.add(key);
      this.host.notice(budgetWarningText(caps!, kind, spend, scope), "warning");
    }
  }

  /**
   * The run ended. Stopped at a cap: its stopped reply says why (journaled), and the chat is told. As the Agent
   * leaves it, a stop during a tool call ends in a stopped reply too; a run that ended otherwise gets a marker reply.
   */
  private async runEnded(signal: AbortSignal): Promise<void> {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    const stopped = this.stopped;
    this.host.shown(this.meter());
    if (!stopped || !signal.aborted) return;
    const agent = this.host.agent();
    const last = agent.state.messages.at(-1);
    if (last?.role === "assistant" && last.stopReason === "aborted") {
      const said: AssistantMessage = { ...last, errorMessage: stopped.text };
      agent.dropLastMessages(1);
      agent.appendMessage(said);
      await this.host.journal({ t: "drop", count: 1 });
      await this.host.journal({ t: "message", message: said });
    }
    this.host.notice(stopped.text, "warning");
  }
}
