/**
 * The `subagent` tool: pi 1.6.0's subagent example extension's interface and texts (single, parallel, chain; agent
 * scopes; project agents confirmed first; per-task statuses; its output caps), so prompts written for it work. Each
 * task runs in a subagent worker process of its own, which main starts and limits (see
 * main/broker/subagent-runs.ts); this side decides what to run, reports progress and shapes what the parent model sees.
 */
import { Type, type TSchema } from "typebox";
import { StringEnum } from "@earendil-works/pi-ai";
import type { AgentTool, AgentToolResult, ThinkingLevel } from "../../../shared/agent/types";
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
import { isFailedRun, type SubagentDetails, type SubagentRun } from "../../../shared/protocol/subagent-details";
import { truncateHead } from "../workspace/truncate";
import { MAX_BYTES, MAX_LINES } from "../workspace/limits";

export type { SubagentDetails, SubagentRun };

export const MAX_PARALLEL_TASKS = 8;
export const MAX_CONCURRENCY = 4;
/** What one parallel task's output may add to the parent model's text, at most (pi's PER_TASK_OUTPUT_CAP). */
export const PER_TASK_OUTPUT_CAP = 50 * 1024;
/** Room kept for the truncation notice when a single or chain result is cut (pi's TRUNCATION_NOTICE_RESERVE). */
const TRUNCATION_NOTICE_RESERVE = 256;

// `isolation: worktree`, as Claude Code's agent files spell it; StringEnum for the same reason as the scope below.
const IsolationSchema = Type.Unsafe<"worktree">(
  StringEnum(["worktree"] as const, {
    description:
      'Set "worktree" to run the agent in a git worktree of its own (a new branch from the workspace\'s last commit): its result lists what it changed there, for you or the user to apply to the workspace. Default: the agent\'s own setting, else the workspace itself.',
  }) as TSchema,
);

const TaskItem = Type.Object({
  agent: Type.String({ description: "Name of the agent to invoke" }),
  task: Type.String({ description: "Task to delegate to the agent" }),
  cwd: Type.Optional(Type.String({ description: "Working directory for the agent process" })),
  isolation: Type.Optional(IsolationSchema),
});

const ChainItem = Type.Object({
  agent: Type.String({ description: "Name of the agent to invoke" }),
  task: Type.String({ description: "Task with optional {previous} placeholder for prior output" }),
  cwd: Type.Optional(Type.String({ description: "Working directory for the agent process" })),
  isolation: Type.Optional(IsolationSchema),
});

// pi-ai's StringEnum, `{ type: "string", enum: [...] }`, as pi's tool has it: Google's API refuses a union of consts.
// (Unsafe only tells TypeBox's types what it holds; the schema sent and validated is StringEnum's as it is.)
const AgentScopeSchema = Type.Unsafe<AgentScope>(
  StringEnum(["user", "project", "both"] as const, {
    description: 'Which agent directories to use. Default: "user". Use "both" to include project-local agents.',
    default: "user",
  }) as TSchema,
);

const parameters = Type.Object({
  agent: Type.Optional(Type.String({ description: "Name of the agent to invoke (for single mode)" })),
  task: Type.Optional(Type.String({ description: "Task to delegate (for single mode)" })),
  tasks: Type.Optional(Type.Array(TaskItem, { description: "Array of {agent, task} for parallel execution" })),
  chain: Type.Optional(Type.Array(ChainItem, { description: "Array of {agent, task} for sequential execution" })),
  agentScope: Type.Optional(AgentScopeSchema),
  confirmProjectAgents: Type.Optional(Type.Boolean({ description: "Prompt before running project-local agents. Default: true.", default: true })),
  cwd: Type.Optional(Type.String({ description: "Working directory for the agent process (single mode)" })),
  isolation: Type.Optional(IsolationSchema),
});

/** What the tool needs of its session (and, through it, of main). */
export interface SubagentRunner {
  /** A project's agents are found from `cwd` (a task's), else from the workspace. */
  listAgents(scope: AgentScope, cwd?: string): Promise<AgentList>;
  /** Asks the user, in this chat, a yes-or-no question about this tool call. */
  confirm(toolCallId: string, question: string, signal?: AbortSignal): Promise<boolean>;
  confirmProjectAgents(names: string[], cwd?: string): Promise<void>;
  /** Runs one task; progress arrives through `onProgress` until it resolves. */
  run(request: SubagentRequest, onProgress: (progress: SubagentProgress) => void): Promise<SubagentOutcome>;
  stop(requestId: string): Promise<void>;
  /** The chat's model now: a subagent's when its definition names none. */
  parentModel(): ModelRef | undefined;
  /** The chat's thinking level now: goes with its model to a subagent whose definition names none. */
  parentThinkingLevel(): ThinkingLevel;
  newRequestId(): string;
}

/** Where the user-scope agents come from, for the tool's description (pi names its agents folder there). */
export interface SubagentToolOptions {
  /** pi's user agents folder (`<pi agent folder>/agents`, moved by PI_CODING_AGENT_DIR). */
  piAgents?: string;
  /** Paddock's own (`<data folder>/agents`). */
  paddockAgents?: string;
  /** The chat has the `worktree` tool: an isolated task's result says to use it (with the task's session id). */
  worktreeTool?: boolean;
}

type Isolation = "worktree";
type Item = { agent: string; task: string; cwd?: string; isolation?: Isolation };
type Params = {
  agent?: string;
  task?: string;
  tasks?: Item[];
  chain?: Item[];
  agentScope?: AgentScope;
  confirmProjectAgents?: boolean;
  cwd?: string;
  /** For every task that does not say (single mode: its task). */
  isolation?: Isolation;
};

/**
 * pi 1.6.0's description, word for word but for where "user" agents come from: pi names its one folder, Paddock's
 * user scope also has its own folder and the built-in agents.
 */
export function subagentDescription(options: SubagentToolOptions = {}): string {
  const folders = [options.piAgents ?? "~/.pi/agent/agents", ...(options.paddockAgents ? [options.paddockAgents] : [])];
  return [
    "Delegate tasks to specialized subagents with isolated context.",
    "Modes: single (agent + task), parallel (tasks array), chain (sequential with {previous} placeholder).",
    `Default agent scope is "user" (from ${folders.join(" and ")}, and the built-in agents).`,
    'To enable project-local agents in .pi/agents, set agentScope: "both" (or "project").',
  ].join(" ");
}

export function subagentTool(runner: SubagentRunner, options: SubagentToolOptions = {}): AgentTool<typeof parameters, SubagentDetails> {
  const hint = options.worktreeTool === true;
  return {
    name: "subagent",
    label: "Subagent",
    description: subagentDescription(options),
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
      const mode: SubagentDetails["mode"] = hasChain ? "chain" : hasTasks ? "parallel" : "single";
      const details = (runs: SubagentRun[]): SubagentDetails => ({
        mode,
        agentScope: scope,
        ...(list.projectAgentsDir ? { projectAgentsDir: list.projectAgentsDir } : {}),
        runs,
        usage: sumRunUsage(runs),
      });
      if (!oneMode) {
        const available = list.agents.map((a) => `${a.name} (${a.source})`).join(", ") || "none";
        throw new ToolFailure(`Invalid parameters. Provide exactly one mode.\nAvailable agents: ${available}`, details([]));
      }
      if (hasTasks && params.tasks!.length > MAX_PARALLEL_TASKS) {
        throw new ToolFailure(`Too many parallel tasks (${params.tasks!.length}). Max is ${MAX_PARALLEL_TASKS}.`, details([]));
      }

      // Project agents are prompts a repository controls: the user says yes first (remembered per file content). A
      // task's are those found from the folder it runs in (its cwd), so they are asked about per cwd.
      const items = hasSingle ? [{ agent: params.agent!, cwd: params.cwd }] : (params.tasks ?? params.chain ?? []);
      const unconfirmed: { cwd: string | undefined; dir: string; names: string[] }[] = [];
      for (const cwd of new Set(items.map((item) => item.cwd || undefined))) {
        const wanted = new Set(items.filter((item) => (item.cwd || undefined) === cwd).map((item) => item.agent));
        // A cwd main refuses (outside the workspace) is said by that task's own failure.
        const found = cwd === undefined ? list : scope === "user" ? undefined : await runner.listAgents(scope, cwd).catch(() => undefined);
        const names = (found?.agents ?? []).filter((a) => a.source === "project" && wanted.has(a.name) && !a.confirmed).map((a) => a.name);
        if (names.length > 0) unconfirmed.push({ cwd, dir: found?.projectAgentsDir ?? "(unknown)", names });
      }
      if (unconfirmed.length > 0) {
        const names = [...new Set(unconfirmed.flatMap((u) => u.names))].join(", ");
        const dir = [...new Set(unconfirmed.map((u) => u.dir))].join(", ");
        if (params.confirmProjectAgents === false) {
          throw new ToolFailure(`Project agents need the user's confirmation first: ${names} (${dir}).`, details([]));
        }
        const ok = await runner.confirm(
          toolCallId,
          `Run project-local agents ${names} from ${dir}? Project agents are prompts the repository controls: only continue for trusted repositories.`,
          signal,
        );
        if (!ok) return text("Canceled: project-local agents not approved.", details([]));
        for (const u of unconfirmed) await runner.confirmProjectAgents(u.names, u.cwd);
      }

      // Parallel tasks are all listed, pending, from the start (pi's placeholders); a chain's steps appear as they start.
      const runs: SubagentRun[] = (params.tasks ?? []).map((t) => pendingRun(t));
      const live = new Set<string>();
      const onAbort = () => {
        for (const id of live) void runner.stop(id).catch(() => undefined);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const publish = (line: string) => onUpdate?.({ content: [{ type: "text", text: line }], details: details(runs) });

      /** Runs one task as runs[index], publishing its progress. */
      const total = params.tasks?.length ?? params.chain?.length ?? 1;
      const runOne = async (index: number, item: Item, progressLine: () => string): Promise<SubagentRun> => {
        const run = runs[index] ?? pendingRun(item);
        runs[index] = run;
        if (signal?.aborted) return Object.assign(run, { status: "aborted", errorMessage: "Subagent was aborted before starting" });
        const requestId = runner.newRequestId();
        live.add(requestId);
        publish(progressLine());
        try {
          const parentModel = runner.parentModel();
          const isolation = item.isolation ?? params.isolation;
          const outcome = await runner.run(
            {
              requestId,
              toolCallId,
              agent: item.agent,
              task: item.task,
              ...(item.cwd !== undefined ? { cwd: item.cwd } : {}),
              ...(isolation ? { isolation } : {}),
              scope,
              index,
              upcoming: total - index - 1,
              ...(parentModel ? { parentModel } : {}),
              parentThinkingLevel: runner.parentThinkingLevel(),
            },
            (p) => {
              Object.assign(run, { sessionId: p.sessionId, status: "running", usage: p.usage, ...(p.model ? { model: p.model } : {}), ...(p.latest ? { latest: p.latest } : {}) });
              publish(progressLine());
            },
          );
          const status: SubagentRun["status"] = outcome.ok ? "completed" : outcome.stopReason === "aborted" || signal?.aborted ? "aborted" : "failed";
          Object.assign(run, {
            sessionId: outcome.sessionId,
            status,
            usage: outcome.usage,
            output: outcome.output,
            ...(outcome.model ? { model: outcome.model } : {}),
            ...(outcome.stopReason ? { stopReason: outcome.stopReason } : {}),
            ...(outcome.errorMessage ? { errorMessage: outcome.errorMessage } : {}),
            ...(outcome.notice ? { notice: outcome.notice } : {}),
            ...(outcome.worktree ? { worktree: outcome.worktree } : {}),
          });
        } catch (error) {
          // It never started (an unknown agent, a cwd outside the workspace, ...): pi's unstarted result, no stop reason.
          Object.assign(run, { status: signal?.aborted ? "aborted" : "failed", errorMessage: error instanceof Error ? error.message : String(error) });
        } finally {
          live.delete(requestId);
        }
        publish(progressLine());
        return run;
      };

      try {
        if (hasSingle) {
          const run = await runOne(0, { agent: params.agent!, task: params.task!, cwd: params.cwd }, () => `${params.agent}: ${runs[0]?.latest ?? "working…"}`);
          if (isFailedRun(run)) throw new ToolFailure(truncateModelOutput(`Agent ${run.stopReason || run.status}: ${failureEvidence(run, hint)}`), details(runs));
          return text(truncateModelOutput(withNotice(run, run.output || "(no output)", hint)), details(runs));
        }

        if (hasTasks) {
          const tasks = params.tasks!;
          const line = () => {
            const running = runs.filter((r) => r.status === "running").length;
            const pending = runs.filter((r) => r.status === "pending").length;
            return `Parallel: ${runs.length - running - pending}/${runs.length} done, ${running} running, ${pending} pending...`;
          };
          await mapLimited(tasks, MAX_CONCURRENCY, (t, i) => runOne(i, t, line));
          const ok = runs.filter((r) => !isFailedRun(r)).length;
          const summaries = runs.map((r) => {
            const output = truncateParallelOutput(isFailedRun(r) ? failureEvidence(r, hint) : withNotice(r, r.output || "(no output)", hint));
            const status = isFailedRun(r) && r.stopReason && r.stopReason !== "end" ? `${r.status} (${r.stopReason})` : r.status;
            return `### [${r.agent}] ${status}\n\n${output}`;
          });
          const summary = `Parallel: ${ok}/${runs.length} succeeded\n\n${summaries.join("\n\n---\n\n")}`;
          // pi marks the call an error when any task failed (its details' isError).
          if (ok < runs.length) throw new ToolFailure(summary, details(runs));
          return text(summary, details(runs));
        }

        const steps = params.chain!;
        let previous = "";
        for (let i = 0; i < steps.length; i++) {
          const step = steps[i];
          // A function replacement: "$&" or "$1" in the previous output stay as they are.
          const task = step.task.replace(/\{previous\}/g, () => previous);
          const run = await runOne(i, { ...step, task }, () => `Chain: step ${i + 1}/${steps.length} (${step.agent}): ${runs[i]?.latest ?? "working…"}`);
          if (isFailedRun(run)) {
            throw new ToolFailure(truncateModelOutput(`Chain stopped at step ${i + 1} (${step.agent}): ${failureEvidence(run, hint)}`), details(runs));
          }
          previous = run.output ?? "";
        }
        const last = runs[runs.length - 1];
        return text(truncateModelOutput(withNotice(last, last.output || "(no output)", hint)), details(runs));
      } finally {
        signal?.removeEventListener("abort", onAbort);
      }
    },
  };
}

const ZERO: SubagentUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0, turns: 0, toolCalls: 0 };

function pendingRun(item: { agent: string; task: string }): SubagentRun {
  return { agent: item.agent, task: item.task, status: "pending", usage: { ...ZERO } };
}

function text(value: string, details: SubagentDetails): AgentToolResult<SubagentDetails> {
  return { content: [{ type: "text", text: value }], details };
}

/** pi's getFailureEvidence: what went wrong and what the subagent last said, each once. */
function failureEvidence(run: SubagentRun, hint = false): string {
  const evidence: string[] = [];
  const seen = new Set<string>();
  const add = (label: string, value: string | undefined) => {
    const line = value?.trim();
    if (!line || seen.has(line)) return;
    seen.add(line);
    evidence.push(`${label}: ${line}`);
  };
  add("Error", run.errorMessage);
  add("Assistant output", run.output);
  return withWorktree(run, evidence.join("\n\n") || "(no output)", hint);
}

function withNotice(run: SubagentRun, body: string, hint = false): string {
  return withWorktree(run, run.notice ? `Note: ${run.notice}\n\n${body}` : body, hint);
}

/** Files listed by name in what the model is told of a worktree's changes; the card lists them all. */
const WORKTREE_FILES_LISTED = 50;

/**
 * An isolated task's output, followed by where it worked and what it changed there (for the parent model); with
 * `hint` (the chat has the `worktree` tool), how to apply, keep or discard them.
 */
export function withWorktree(run: Pick<SubagentRun, "worktree" | "sessionId">, body: string, hint = false): string {
  const worktree = run.worktree;
  if (!worktree) return body;
  const where = `Worked in its own git worktree ${worktree.path} (branch ${worktree.branch})`;
  if (worktree.problem) return `${body}\n\n${where}; its changes could not be listed: ${worktree.problem}`;
  if (worktree.files.length === 0) return `${body}\n\n${where}: no files changed.`;
  const count = worktree.files.length === 1 ? "1 file" : `${worktree.files.length} files`;
  const lines = worktree.files.slice(0, WORKTREE_FILES_LISTED).map((file) => {
    const name = file.oldPath ? `${file.oldPath} → ${file.path}` : file.path;
    return `- ${file.status} ${name}${file.binary ? " (binary)" : ` (+${file.added} −${file.removed})`}`;
  });
  if (worktree.files.length > WORKTREE_FILES_LISTED) lines.push(`- … and ${worktree.files.length - WORKTREE_FILES_LISTED} more`);
  return [
    `${body}\n\n${where}: ${count} changed, +${worktree.added} −${worktree.removed}:`,
    ...lines,
    `These changes are on branch ${worktree.branch}, not in the workspace, until they are applied.`,
    ...(hint && run.sessionId ? [worktreeHint(run.sessionId)] : []),
  ].join("\n");
}

/** How the parent model brings a task's changes over, or ends its worktree. */
export function worktreeHint(sessionId: string): string {
  return `To apply them to the workspace, keep the branch or discard it, call the worktree tool with sessionId "${sessionId}".`;
}

/** Usage summed over the runs of one call. */
export function sumRunUsage(runs: readonly (SubagentRun | undefined)[]): SubagentUsage {
  const total = { ...ZERO };
  for (const run of runs) {
    if (!run) continue;
    for (const key of Object.keys(total) as (keyof SubagentUsage)[]) total[key] = (total[key] ?? 0) + (run.usage[key] ?? 0);
  }
  return total;
}

/**
 * What the model is told of output it does not get. pi's notice says "Full output preserved in tool details", but
 * the model never sees details: it is told where the rest is (for the user) and what it can do about it.
 */
function truncationNotice(omittedBytes: number): string {
  return `[Output truncated: ${omittedBytes} bytes omitted. The whole output is in the subagent's own session, where the user can read it; ask the subagent for a shorter answer if you need the rest.]`;
}

/**
 * pi's truncateParallelOutput: one parallel task's output cut to PER_TASK_OUTPUT_CAP bytes of UTF-8 (whole
 * characters), with a notice of how many bytes were left out. The full output stays in the details (for the card).
 */
export function truncateParallelOutput(output: string): string {
  const byteLength = Buffer.byteLength(output, "utf8");
  if (byteLength <= PER_TASK_OUTPUT_CAP) return output;
  let truncated = output.slice(0, PER_TASK_OUTPUT_CAP);
  while (Buffer.byteLength(truncated, "utf8") > PER_TASK_OUTPUT_CAP) truncated = truncated.slice(0, -1);
  return `${truncated}\n\n${truncationNotice(byteLength - Buffer.byteLength(truncated, "utf8"))}`;
}

/**
 * pi's truncateModelOutput, for a single or chain result: pi's output limits (2,000 lines, 50 KB), whole lines from
 * the start, with room kept for the notice of how many bytes were left out.
 */
export function truncateModelOutput(output: string): string {
  const initial = truncateHead(output);
  if (!initial.truncated) return output;
  const body = truncateHead(output, { maxLines: MAX_LINES - 2, maxBytes: MAX_BYTES - TRUNCATION_NOTICE_RESERVE });
  const notice = truncationNotice(initial.totalBytes - body.outputBytes);
  return body.content ? `${body.content}\n\n${notice}` : notice;
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
