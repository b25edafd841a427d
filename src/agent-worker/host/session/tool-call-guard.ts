/**
 * Where the session's decisions on tool calls meet the Agent's loop, which is pi-agent-core 0.73.1's and knows only
 * pi's ways: `beforeToolCall` runs a call or blocks it (the blocked result's `details` are `{}`), a tool's `execute`
 * returns a result or throws (a thrown error's `details` are `{}`; a returned result is a success), and
 * `afterToolCall` may replace an executed call's `content`, `details` and `isError`. What Paddock adds rides on those:
 *
 * - **Watched questions stay in `beforeToolCall`.** pi's parallel mode prepares every call of a turn, in the
 *   assistant's order, before any runs: asked there, the user answers the turn's questions in order and nothing of the
 *   turn runs before every call is decided (a "no" never races a sibling already running), as a chat someone watches
 *   expects.
 * - **Parked questions wait in the tool.** Nobody is expected to answer soon (approval-gate.ts): `beforeToolCall` lets
 *   the call through at once and its wrapped tool's `execute` waits for the decision, so pi's parallel mode runs the
 *   turn's other calls meanwhile (sequentially, the next call waits, as it must). A denial (the user's no, the run's
 *   end: stopped, a budget, the worker closing) throws its reason: the model reads the same text as for a block.
 * - **A denial the card must show as such is delivered by the tool too.** A block in `beforeToolCall` cannot say the
 *   call was denied or stopped rather than failed (its details are `{}`), so a decision with an `ending` lets the call
 *   through and its wrapped tool throws the reason without running; `afterToolCall` gives the result the ending. The
 *   one thing that differs from a block: in parallel mode its `tool_execution_end` comes once the turn's other calls
 *   are decided, not at once. A block with no ending stays pi's block.
 * - **A failure's details** (`ToolFailure`: a stopped command's saved output, a chain's finished steps) and **a
 *   returned failure** (`toolErrorResult`: pi 1.6.0's bash for a command that exits with another code than 0) are
 *   kept by the wrapper, keyed by the call's id, and put back by `afterToolCall` (`restore`).
 *
 * pi calls `afterToolCall` for every call it executed, so everything kept is taken there; `clear` drops what a run
 * that ended leaves (nothing, unless a hook failed before the call ran).
 */
import type { AfterToolCallContext, AgentTool, AgentToolResult, AgentToolUpdateCallback, BeforeToolCallContext, BeforeToolCallResult } from "../../../shared/agent/types";
import { isToolErrorResult, ToolFailure } from "../../../shared/agent/tool-failure";
import { withToolEnding } from "../../../shared/protocol/tool-ending";
import type { CallDecision, CallVerdict } from "../approvals/call-decision";

/** What pi's loop leaves out of a call's result, kept for `afterToolCall`. */
interface Kept {
  /** The call was not made: a denial its wrapped tool delivered. */
  notRun?: true;
  /** The result's details: a failure's, or a denial's ending. */
  details?: unknown;
  /** The tool returned its failure. */
  isError?: true;
}

/** A call's result as the session's tools made it, pi's loop notwithstanding. */
export interface RestoredCall {
  result: AgentToolResult<any>;
  isError: boolean;
  /** False for a denial delivered by the wrapped tool: the tool never ran, so nothing changed. */
  ran: boolean;
}

export class ToolCallGuard {
  /** Decisions the wrapped tool delivers: a parked question's (to come) or a denial with an ending. */
  private readonly decisions = new Map<string, CallDecision | Promise<CallDecision>>();
  private readonly kept = new Map<string, Kept>();
  /** The tools `wrap` made: only these can deliver a decision. */
  private readonly wrapped = new WeakSet<AgentTool<any>>();

  /** `decide`: the session's word on a call (the profile, the role, the gate); must not reject. */
  constructor(private readonly decide: (context: BeforeToolCallContext, signal?: AbortSignal) => Promise<CallVerdict>) {}

  /** The Agent's `beforeToolCall`. */
  readonly beforeToolCall = async (context: BeforeToolCallContext, signal?: AbortSignal): Promise<BeforeToolCallResult | undefined> => {
    const verdict = await this.decide(context, signal);
    if (verdict === undefined) return undefined;
    const id = context.toolCall.id;
    const tool = context.context.tools?.find((t) => t.name === context.toolCall.name);
    if (!tool || !this.wrapped.has(tool)) {
      // A tool the guard did not wrap could not withhold the call: decided here, as pi's block (safe, if plainer).
      const decided = "parked" in verdict ? await verdict.parked : verdict;
      return decided?.block ? { block: true, ...(decided.reason !== undefined ? { reason: decided.reason } : {}) } : undefined;
    }
    if ("parked" in verdict) {
      this.decisions.set(id, verdict.parked);
      return undefined;
    }
    if (verdict.ending === undefined) return { block: true, ...(verdict.reason !== undefined ? { reason: verdict.reason } : {}) };
    this.decisions.set(id, verdict);
    return undefined;
  };

  /** The tools as the Agent gets them: each the same tool, its `execute` going through the guard. */
  wrap(tools: readonly AgentTool<any>[]): AgentTool<any>[] {
    return tools.map((tool) => {
      const guarded: AgentTool<any> = { ...tool, execute: (id, params, signal, onUpdate) => this.execute(tool, id, params, signal, onUpdate) };
      this.wrapped.add(guarded);
      return guarded;
    });
  }

  /**
   * What the Agent's `afterToolCall` starts from: the executed result with what the loop left out put back (a
   * failure's or a denial's details, a returned failure's `isError`). Taken once per call.
   */
  restore(context: Pick<AfterToolCallContext, "toolCall" | "result" | "isError">): RestoredCall {
    const kept = this.kept.get(context.toolCall.id);
    if (!kept) return { result: context.result, isError: context.isError, ran: true };
    this.kept.delete(context.toolCall.id);
    return {
      result: kept.details === undefined ? context.result : { ...context.result, details: kept.details },
      isError: context.isError || kept.isError === true,
      ran: kept.notRun !== true,
    };
  }

  /** Forgets everything (a run ended). */
  clear(): void {
    this.decisions.clear();
    this.kept.clear();
  }

  private async execute(
    tool: AgentTool<any>,
    id: string,
    params: unknown,
    signal: AbortSignal | undefined,
    onUpdate: AgentToolUpdateCallback | undefined,
  ): Promise<AgentToolResult<any>> {
    const pending = this.decisions.get(id);
    if (pending !== undefined) {
      this.decisions.delete(id);
      const decided = await pending;
      if (decided?.block) {
        this.kept.set(id, { notRun: true, ...(decided.ending ? { details: withToolEnding(undefined, decided.ending) } : {}) });
        throw new Error(decided.reason || "Tool execution was blocked");
      }
    }
    try {
      const result = await tool.execute(id, params, signal, onUpdate);
      if (isToolErrorResult(result)) this.kept.set(id, { isError: true });
      return result;
    } catch (error) {
      if (error instanceof ToolFailure) this.kept.set(id, { details: error.details });
      throw error;
    }
  }
}
