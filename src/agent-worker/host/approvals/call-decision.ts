/**
 * What the session decides on one tool call, richer than pi's `BeforeToolCallResult` (whose block always leaves the
 * result's `details` empty): the approval gate, the roles and the profile answer in these words, and the session's
 * tool-call guard (session/tool-call-guard.ts) turns them into pi's hooks and a wrapped tool.
 */
import type { ToolEnding } from "../../../shared/protocol/tool-ending";

/**
 * The call is not made: `reason` is what the model is told (the result's text); `ending` what its card says instead
 * of "failed" ("denied": the user's no, nobody answering, the profile refusing; "stopped": the run stopped while it
 * asked). A block with no ending is shown as a failure.
 */
export interface CallBlock {
  block: true;
  reason?: string;
  ending?: ToolEnding;
}

/** Run the call (undefined) or not. */
export type CallDecision = CallBlock | undefined;

/**
 * A decision now, or a parked question's decision later (nobody watches the run: see approval-gate.ts). A parked
 * decision never rejects.
 */
export type CallVerdict = CallDecision | { parked: Promise<CallDecision> };

/** A block the card shows as "denied". */
export function denied(reason: string): CallBlock {
  return { block: true, reason, ending: "denied" };
}

/**
 * A call the run was stopped before making (Stop, or a budget reached as the reply that asked for it ended: pi's loop
 * still walks that reply's calls, with the run's signal already aborted). Shown as "stopped", never run.
 */
export function stoppedBeforeCall(): CallBlock {
  return { block: true, reason: "The run was stopped before this call was made.", ending: "stopped" };
}
