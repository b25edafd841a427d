/**
 * A run's contract (issue 27: "give every run a contract the user sets before it starts"): what one run is bound by
 * beyond the chat's options, declared once for both channels that start a run. A page passes it with `prompt`
 * (session-protocol.ts; a message sent in Plan for this message), main with `runTask` (control-protocol.ts; a
 * schedule's occurrence, a subagent's task inheriting its parent's plan). No Node or DOM here: pages import it.
 *
 * A contract binds its run only, never the chat: its profile, plan and caps are not written into the chat's options.
 * A schedule that continues a chat must not silently change what the user chose for it (the header shows the chat's
 * profile and budget, which the user's own next run goes under), and a message sent in Plan leaves the chat in its
 * act mode. What the run went under is on record all the same: the run's profile marker carries its contract
 * (profile-marker.ts), journaled before its message, so the transcript (and a reload) tells which runs were a
 * schedule's or planning, and under what.
 */
import { Type } from "typebox";
import { BudgetCapsSchema } from "../settings/schema";
import { hasCaps, normalizeCaps, type BudgetCaps, type ChatBudget } from "../agent/budget";
import { schemaErrors } from "../schema-errors";
import { PERMISSION_PROFILES, type PermissionProfile } from "./permission-profiles";
import type { ChatOptions } from "./chat-options";

export interface RunContract {
  /**
   * Nobody is expected to answer while it runs (a schedule's run): a question is parked (ApprovalRequest.parked) even
   * while a window shows the chat, the run goes on where it can, and a question still unanswered when the run ends or
   * the approval timeout passes is denied, saying so.
   */
  unattended?: boolean;
  /**
   * The run plans (shared/agent/plan-mode.ts): its calls go under Read-only, its system prompt asks for a plan, and its
   * reply shows as a plan card; the chat's own mode is unchanged. Its subagents plan too.
   */
  plan?: true;
  /** The permission profile the run's calls are decided under, in place of the chat's (Plan still narrows it). */
  profile?: PermissionProfile;
  /** Caps on this run, in place of the chat's run caps (the chat's own caps still count it). */
  budget?: BudgetCaps;
}

/** The schema both channels check a contract against: unknown fields and bad values are refused. */
export const RunContractSchema = Type.Object(
  {
    unattended: Type.Optional(Type.Boolean()),
    plan: Type.Optional(Type.Literal(true)),
    profile: Type.Optional(Type.Enum([...PERMISSION_PROFILES])),
    budget: Type.Optional(BudgetCapsSchema),
  },
  { additionalProperties: false },
);

/** What is wrong with `value` as a run contract, in words ("contract.profile: must be one of …"); undefined: nothing. */
export function runContractProblem(value: unknown): string | undefined {
  const problems = schemaErrors(RunContractSchema, value, "contract");
  return problems.length > 0 ? `Not a valid run contract: ${problems.join("; ")}` : undefined;
}

/** The contract as kept: absent and empty fields dropped (an empty budget binds nothing). */
export function normalizeRunContract(contract: RunContract | undefined): RunContract {
  if (!contract) return {};
  const budget = normalizeCaps(contract.budget);
  return {
    ...(contract.unattended === true ? { unattended: true } : {}),
    ...(contract.plan === true ? { plan: true as const } : {}),
    ...(contract.profile ? { profile: contract.profile } : {}),
    ...(hasCaps(budget) ? { budget } : {}),
  };
}

/** Whether a contract binds the run to anything beyond the chat's options. */
export function hasRunTerms(contract: RunContract | undefined): boolean {
  return Object.keys(normalizeRunContract(contract)).length > 0;
}

/** What a run goes under: the chat's options, with its contract's terms in their place for this run. */
export interface RunTerms {
  /** The profile asked for (undefined: Settings' default), before Plan narrows it. */
  profile: PermissionProfile | undefined;
  plan: boolean;
  budget: ChatBudget;
}

export function runTerms(options: ChatOptions | undefined, contract: RunContract | undefined): RunTerms {
  const run = contract?.budget ?? options?.budget?.run;
  return {
    profile: contract?.profile ?? options?.profile,
    plan: contract?.plan === true || options?.plan === true,
    budget: { ...(options?.budget?.chat ? { chat: options.budget.chat } : {}), ...(run ? { run } : {}) },
  };
}
