/**
 * One occurrence of a schedule run as a chat, in the background (issue 27 §4). Electron-free.
 *
 * A new chat (named after the schedule, in its workspace) or the chat the schedule continues; the prompt sent as one
 * run with no page attached, the way a subagent's task is (`runTask`), under the schedule's contract
 * (shared/protocol/run-contract.ts: unattended, its permission profile, its budget as the run's caps). The contract
 * binds that run only: a chat the schedule continues keeps the options its user chose (its header shows them), and the
 * run's profile marker records what the run went under. Then the run's end told: finished, failed, stopped at a
 * budget cap or stopped, with what it changed in the workspace (the chat's own Changes record, asked of its
 * worker: the list's "3 files changed" opens the chat's Changes panel on the run). The broker keeps the chat's worker while the run goes on (a viewer of its own), and its idle stop
 * applies after, as to a chat whose window closed.
 */
import type { SubagentOutcome } from "../../shared/protocol/control-protocol";
import type { RunChanges, Schedule } from "../../shared/schedules/schedule";
import type { ChangeSet, ChangesSince } from "../../shared/protocol/changes";
import type { RunContract } from "../../shared/protocol/run-contract";
import { normalizeCaps } from "../../shared/agent/budget";
import type { AppService } from "../broker/app-service";
import type { SessionBroker } from "../broker/session-broker";
import type { SessionIndex } from "../broker/session-index";
import type { OccurrenceResult, RunOccurrence } from "./scheduler";

export interface ScheduleRunnerDeps<Port> {
  service: Pick<AppService<Port>, "createSession" | "renameSession" | "setWorkspace">;
  broker: Pick<SessionBroker<Port>, "attach" | "detach">;
  index: Pick<SessionIndex, "isLive">;
}

/** The words a budget stop's reply starts with (shared/agent/budget.ts, `budgetStopText`). */
const BUDGET_STOP = /^Stopped at the /;

export function scheduleRunner<Port>(deps: ScheduleRunnerDeps<Port>): RunOccurrence {
  return async (schedule, started) => {
    const chatId = await chatFor(schedule, deps);
    started(chatId);
    const viewer = `schedule:${schedule.id}:${Date.now()}`;
    const attachment = await deps.broker.attach(chatId, viewer);
    try {
      const outcome = await attachment.worker.call((control) => control.runTask(schedule.prompt, scheduleContract(schedule)));
      const changes = outcome.usage.turns > 0 ? await runChanges((since) => attachment.worker.call((control) => control.listChanges(since))) : undefined;
      // Named after the schedule once its run has titled it from the prompt (a title the worker sets wins before).
      if (schedule.target === "new-chat") await deps.service.renameSession(chatId, schedule.name.trim() || "Scheduled run").catch(() => undefined);
      return { ...resultOf(outcome), chatId, ...(changes ? { changes } : {}) };
    } finally {
      deps.broker.detach(chatId, viewer);
    }
  };
}

/** What a schedule's run is bound by: nobody answers while it runs, its profile, its budget as the run's caps. */
export function scheduleContract(schedule: Pick<Schedule, "profile" | "budget">): RunContract {
  const budget = normalizeCaps(schedule.budget);
  return { unattended: true, profile: schedule.profile, ...(budget ? { budget } : {}) };
}

async function chatFor<Port>(schedule: Schedule, deps: ScheduleRunnerDeps<Port>): Promise<string> {
  if (schedule.target !== "new-chat") {
    const id = schedule.target.continue;
    if (!deps.index.isLive(id)) throw new Error("The chat this schedule continues was deleted");
    return id;
  }
  const chat = await deps.service.createSession();
  if (schedule.workspace) {
    // The user chose the folder when saving the schedule (checked then), so a guarded place is not asked about again.
    const set = await deps.service.setWorkspace(chat.id, schedule.workspace, true);
    if ("refused" in set) throw new Error(`The workspace ${schedule.workspace} cannot be used: ${set.refused.reason}`);
  }
  return chat.id;
}

/**
 * What a run changed in its workspace: the chat's Changes view of its latest turn, the run's prompt (from the
 * checkpoint taken as the run started to the latest), as the worker's record has it; kept as that span, so the link
 * shows this run's changes whatever the chat does later. (A message the user sent into the run while it went on
 * starts a turn of its own: the span then starts there.) Undefined when no file changed or the chat records no
 * changes (no workspace, checkpoints off): a run's result never fails for this.
 */
export async function runChanges(list: (since: ChangesSince) => Promise<ChangeSet>): Promise<RunChanges | undefined> {
  try {
    const set = await list({ kind: "turn" });
    if (set.totals.files <= 0) return undefined;
    return { from: set.from, to: set.to, files: set.totals.files, added: set.totals.added, removed: set.totals.removed };
  } catch {
    return undefined;
  }
}

/** A run's end as a schedule records it. */
export function resultOf(outcome: Pick<SubagentOutcome, "ok" | "stopReason" | "errorMessage" | "usage">): Omit<OccurrenceResult, "chatId"> {
  const { usage } = outcome;
  const tokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
  // A model without pricing reports a cost of 0 for its tokens: that cost is unknown, not free.
  const spend = { cost: usage.cost, costUnknown: usage.cost === 0 && tokens > 0, tokens };
  if (outcome.ok) return { outcome: "finished", spend };
  const reason = outcome.errorMessage?.trim();
  if (outcome.stopReason === "aborted") {
    return { outcome: reason && BUDGET_STOP.test(reason) ? "stopped-by-budget" : "stopped", ...(reason ? { reason } : {}), spend };
  }
  return { outcome: "failed", reason: reason || "The run failed", spend };
}
