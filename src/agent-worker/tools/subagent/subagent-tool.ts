/**
 * The `subagent` tool: pi's subagent example extension's interface (single, parallel, chain; agent scopes; project
 * agents confirmed first), so prompts written for it work. Each task runs in a subagent worker process of its own,
 * which main starts and limits (see main/broker/subagent-runs.ts); this side decides what to run, reports progress
 * and shapes what the parent model sees.
 */
import { Type } from "typebox";
import type { AgentTool, AgentToolResult } from "../../../shared/agent/types";
import { ToolFailure } from "../../../shared/agent/tool-failure";
import type {
  AgentList,
  AgentScope,
  SubagentOutcome,
  SubagentProgress,
  SubagentRequest,
  SubagentUsage,
} from "../../../shared/protocol/control-protocol";
import type { ModelRef } from "../../../shared/protocol/app-api";
import type { SubagentDetails, SubagentRun } from "../../../shared/protocol/subagent-details";

export type { SubagentDetails, SubagentRun };

export const MAX_PARALLEL_TASKS = 8;
export const MAX_CONCURRENCY = 4;
/** What the parent model gets, at most (pi's output limit). */
export const MAX_OUTPUT_BYTES = 50 * 1024;

const TaskItem = Type.Object({
  agent: Type.String({ description: "Name of the agent to invoke" }),
  task: Type.String({ description: "Task to delegate to the agent" }),
  cwd: Type.Optional(Type.String({ description: "Working directory for the agent process" })),
});

const ChainItem = Type.Object({
  agent: Type.String({ description: "Name of the agent to invoke" }),
  task: Type.String({ description: "Task with optional {previous} placeholder for prior output" }),
  cwd: Type.Optional(Type.String({ description: "Working directory for the agent process" })),
});

const parameters = Type.Object({
  agent: Type.Optional(Type.String({ description: "Name of the agent to invoke (for single mode)" })),
  task: Type.Optional(Type.String({ description: "Task to delegate (for single mode)" })),
  tasks: Type.Optional(Type.Array(TaskItem, { description: "Array of {agent, task} for parallel execution" })),
  chain: Type.Optional(Type.Array(ChainItem, { description: "Array of {agent, task} for sequential execution" })),
  agentScope: Type.Optional(
    Type.Union([Type.Literal("user"), Type.Literal("project"), Type.Literal("both")], {
      description: 'Which agent directories to use. Default: "user". Use "both" to include project-local agents.',
    }),
  ),
  confirmProjectAgents: Type.Optional(Type.Boolean({ description: "Prompt before running project-local agents. Default: true.", default: true })),
  cwd: Type.Optional(Type.String({ description: "Working directory for the agent process (single mode)" })),
});

/** What the tool needs of its session (and, through it, of main). */
export interface SubagentRunner {
  listAgents(scope: AgentScope): Promise<AgentList>;
  /** Asks the user, in this chat, a yes-or-no question about this tool call. */
  confirm(toolCallId: string, question: string, signal?: AbortSignal): Promise<boolean>;
  confirmProjectAgents(names: string[]): Promise<void>;
  /** Runs one task; progress arrives through `onProgress` until it resolves. */
  run(request: SubagentRequest, onProgress: (progress: SubagentProgress) => void): Promise<SubagentOutcome>;
  stop(requestId: string): Promise<void>;
  /** The chat's model now: a subagent's when its definition names none. */
  parentModel(): ModelRef | undefined;
  newRequestId(): string;
}

type Params = {
  agent?: string;
  task?: string;
  tasks?: { agent: string; task: string; cwd?: string }[];
  chain?: { agent: string; task: string; cwd?: string }[];
  agentScope?: AgentScope;
  confirmProjectAgents?: boolean;
  cwd?: string;
};

export function subagentTool(runner: SubagentRunner): AgentTool<typeof parameters, SubagentDetails> {
  return {
    name: "subagent",
    label: "Subagent",
    description: [
      "Delegate tasks to specialized subagents with isolated context.",
      "Modes: single (agent + task), parallel (tasks array), chain (sequential with {previous} placeholder).",
      'Default agent scope is "user" (Paddock\'s agents and ~/.pi/agent/agents).',
      'To enable project-local agents in .pi/agents, set agentScope: "both" (or "project").',
    ].join(" "),
    parameters,
    async execute(toolCallId, params: Params, signal, onUpdate) {
      const scope: AgentScope = params.agentScope ?? "user";
      const hasChain = (params.chain?.length ?? 0) > 0;
      const hasTasks = (params.tasks?.length ?? 0) > 0;
      const hasSingle = Boolean(params.agent && params.task);
      const oneMode = Number(hasChain) + Number(hasTasks) + Number(hasSingle) === 1;
      // The list is needed to say what there is, and to confirm project agents; main checks every name anyway, so a
      // plain call skips the round trip (it is on the way to the subagent's first request).
      const list: AgentList = !oneMode || scope !== "user" ? await runner.listAgents(scope) : { agents: [], problems: [] };
      const available = list.agents.map((a) => `${a.name} (${a.source})`).join(", ") || "none";
      const mode: SubagentDetails["mode"] = hasChain ? "chain" : hasTasks ? "parallel" : "single";
      const details = (runs: SubagentRun[]): SubagentDetails => ({
        mode,
        agentScope: scope,
        ...(list.projectAgentsDir ? { projectAgentsDir: list.projectAgentsDir } : {}),
        runs,
        usage: sumRunUsage(runs),
      });
      if (!oneMode) {
        const described = list.agents.map((a) => `- ${a.name} (${a.source}): ${a.description}`).join("\n") || "(none)";
        return text(`Invalid parameters. Provide exactly one mode.\nAvailable agents: ${available}\n\n${described}`, details([]));
      }
      if (hasTasks && params.tasks!.length > MAX_PARALLEL_TASKS) {
        throw new ToolFailure(`Too many parallel tasks (${params.tasks!.length}). Max is ${MAX_PARALLEL_TASKS}.`, details([]));
      }

      // Project agents are prompts a repository controls: the user says yes first (remembered per file content).
      const wanted = new Set([params.agent, ...(params.tasks ?? []).map((t) => t.agent), ...(params.chain ?? []).map((s) => s.agent)]);
      const unconfirmed = list.agents.filter((a) => a.source === "project" && wanted.has(a.name) && !a.confirmed).map((a) => a.name);
      if (unconfirmed.length > 0) {
        const dir = list.projectAgentsDir ?? "(unknown)";
        if (params.confirmProjectAgents === false) {
          throw new ToolFailure(`Project agents need the user's confirmation first: ${unconfirmed.join(", ")} (${dir}).`, details([]));
        }
        const ok = await runner.confirm(
          toolCallId,
          `Run project-local agents ${unconfirmed.join(", ")} from ${dir}? Project agents are prompts the repository controls: only continue for trusted repositories.`,
          signal,
        );
        if (!ok) return text("Canceled: project-local agents not approved.", details([]));
        await runner.confirmProjectAgents(unconfirmed);
      }

      const runs: SubagentRun[] = [];
      const live = new Set<string>();
      const onAbort = () => {
        for (const id of live) void runner.stop(id).catch(() => undefined);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const publish = (line: string) => onUpdate?.({ content: [{ type: "text", text: line }], details: details(runs.map(withoutMessages)) });

      /** Runs one task as runs[index], publishing its progress. */
      const total = params.tasks?.length ?? params.chain?.length ?? 1;
      const runOne = async (index: number, item: { agent: string; task: string; cwd?: string }, progressLine: () => string): Promise<SubagentRun> => {
        const requestId = runner.newRequestId();
        const run: SubagentRun = { agent: item.agent, task: item.task, status: "waiting", usage: { ...ZERO } };
        runs[index] = run;
        if (signal?.aborted) return Object.assign(run, { status: "failed", stopReason: "aborted", errorMessage: "Stopped." });
        live.add(requestId);
        try {
          const outcome = await runner.run(
            {
              requestId,
              toolCallId,
              agent: item.agent,
              task: item.task,
              ...(item.cwd !== undefined ? { cwd: item.cwd } : {}),
              scope,
              upcoming: total - index - 1,
              ...(runner.parentModel() ? { parentModel: runner.parentModel() } : {}),
            },
            (p) => {
              Object.assign(run, { sessionId: p.sessionId, status: p.running || run.status === "waiting" ? "running" : run.status, usage: p.usage, ...(p.model ? { model: p.model } : {}), ...(p.latest ? { latest: p.latest } : {}) });
              publish(progressLine());
            },
          );
          Object.assign(run, {
            sessionId: outcome.sessionId,
            status: outcome.ok ? "done" : "failed",
            usage: outcome.usage,
            output: outcome.output,
            messages: outcome.messages,
            ...(outcome.model ? { model: outcome.model } : {}),
            ...(outcome.stopReason ? { stopReason: outcome.stopReason } : {}),
            ...(outcome.errorMessage ? { errorMessage: outcome.errorMessage } : {}),
            ...(outcome.notice ? { notice: outcome.notice } : {}),
          });
        } catch (error) {
          Object.assign(run, { status: "failed", stopReason: "error", errorMessage: error instanceof Error ? error.message : String(error) });
        } finally {
          live.delete(requestId);
        }
        publish(progressLine());
        return run;
      };

      try {
        if (hasSingle) {
          const run = await runOne(0, { agent: params.agent!, task: params.task!, cwd: params.cwd }, () => `${params.agent}: ${runs[0]?.latest ?? "working…"}`);
          if (run.status === "failed") throw new ToolFailure(capped(`Agent ${run.stopReason || "failed"} (${run.agent}): ${failureText(run)}`), details(runs));
          return text(capped(withNotice(run, run.output || "(no output)")), details(runs));
        }

        if (hasTasks) {
          const tasks = params.tasks!;
          const line = () => {
            const done = runs.filter((r) => r && (r.status === "done" || r.status === "failed")).length;
            const running = runs.filter((r) => r?.status === "running").length;
            return `Parallel: ${done}/${tasks.length} done, ${running} running`;
          };
          await mapLimited(tasks, MAX_CONCURRENCY, (t, i) => runOne(i, t, line));
          const ok = runs.filter((r) => r.status === "done").length;
          const parts = runs.map((r) => `[${r.agent}] ${r.status === "done" ? "completed" : "failed"}:\n${r.status === "done" ? withNotice(r, r.output || "(no output)") : failureText(r)}`);
          return text(capped(`Parallel: ${ok}/${runs.length} succeeded\n\n${parts.join("\n\n")}`), details(runs));
        }

        const steps = params.chain!;
        let previous = "";
        for (let i = 0; i < steps.length; i++) {
          const step = steps[i];
          // A function replacement: "$&" or "$1" in the previous output stay as they are.
          const task = step.task.replace(/\{previous\}/g, () => previous);
          const run = await runOne(i, { ...step, task }, () => `Chain: step ${i + 1}/${steps.length} (${step.agent}): ${runs[i]?.latest ?? "working…"}`);
          if (run.status === "failed") {
            throw new ToolFailure(capped(`Chain stopped at step ${i + 1} (${step.agent}): ${failureText(run)}`), details(runs));
          }
          previous = run.output ?? "";
        }
        const last = runs[runs.length - 1];
        return text(capped(withNotice(last, last.output || "(no output)")), details(runs));
      } finally {
        signal?.removeEventListener("abort", onAbort);
      }
    },
  };
}

const ZERO: SubagentUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0, turns: 0 };

function text(value: string, details: SubagentDetails): AgentToolResult<SubagentDetails> {
  return { content: [{ type: "text", text: value }], details };
}

function failureText(run: SubagentRun): string {
  return run.errorMessage || run.output || "(no output)";
}

function withNotice(run: SubagentRun, body: string): string {
  return run.notice ? `Note: ${run.notice}\n\n${body}` : body;
}

function withoutMessages({ messages: _messages, ...run }: SubagentRun): SubagentRun {
  return run;
}

/** Usage summed over the runs of one call. */
export function sumRunUsage(runs: readonly (SubagentRun | undefined)[]): SubagentUsage {
  const total = { ...ZERO };
  for (const run of runs) {
    if (!run) continue;
    for (const key of Object.keys(total) as (keyof SubagentUsage)[]) total[key] += run.usage[key] ?? 0;
  }
  return total;
}

/**
 * At most MAX_OUTPUT_BYTES of `value` (UTF-8), cut at a character boundary, with a marker saying how much was left
 * out; the full messages are in the details.
 */
export function capped(value: string): string {
  const bytes = Buffer.byteLength(value, "utf8");
  if (bytes <= MAX_OUTPUT_BYTES) return value;
  const kept = Buffer.from(value, "utf8").subarray(0, MAX_OUTPUT_BYTES).toString("utf8").replace(/\uFFFD$/, "");
  const left = bytes - Buffer.byteLength(kept, "utf8");
  return `${kept}\n\n[Output truncated: ${left} of ${bytes} bytes left out. The full messages are in the tool result's details.]`;
}

/** Runs `fn` over `items`, at most `limit` at once, in order of start; resolves with every result in item order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
