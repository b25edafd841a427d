/**
 * The one line a tool card's header shows beside the tool's name, from the call's arguments (which may still be
 * streaming in, so partial and malformed ones are expected): what the call is about at a glance, at most 60
 * characters. Never throws.
 */
import { isRecord } from "../../../shared/is-record";
import { toolEnding } from "../../../shared/protocol/tool-ending";
import type { SubagentDetails } from "../../../shared/protocol/subagent-details";

const MAX = 60;

export function toolSummary(name: string, args: Record<string, unknown> | undefined): string {
  if (!args) return "";
  const main = MAIN_ARGUMENT[name];
  const text = name === "subagent" ? subagentSummary(args) : main ? mainArgument(args, main) : firstScalar(args);
  return text.length > MAX ? `${text.slice(0, MAX)}…` : text;
}

/**
 * The argument that says what a built-in tool's call does, by the tool's own parameters: a model may add others
 * (a decoy `command` on `write`), which the tool never reads, so they must not stand in for it.
 */
const MAIN_ARGUMENT: Readonly<Record<string, string>> = {
  bash: "command",
  read: "path",
  write: "path",
  edit: "path",
  ls: "path",
  grep: "pattern",
  find: "pattern",
  calculate: "expression",
};

function mainArgument(args: Record<string, unknown>, key: string): string {
  const value = args[key];
  return typeof value === "string" || typeof value === "number" ? String(value) : "";
}

/** The first text argument (a command, a path, a query), else the first number: for most tools what says the most. */
function firstScalar(args: Record<string, unknown>): string {
  const values = Object.values(args);
  const first = values.find((v) => typeof v === "string") ?? values.find((v) => typeof v === "number");
  return first === undefined ? "" : String(first);
}

/**
 * pi's subagent modes: single "scout: find the config", parallel "4 tasks: scout ×2, planner, reviewer", chain
 * "chain: scout → planner → worker". An agent given several tasks of a parallel call is named once, with its count.
 */
function subagentSummary(args: Record<string, unknown>): string {
  const agentOf = (step: unknown) => (isRecord(step) && typeof step.agent === "string" ? step.agent : "?");
  if (Array.isArray(args.chain)) return args.chain.length > 0 ? `chain: ${args.chain.map(agentOf).join(" → ")}` : "chain";
  if (Array.isArray(args.tasks)) {
    const n = args.tasks.length;
    return `${n} ${n === 1 ? "task" : "tasks"}: ${countedNames(args.tasks.map(agentOf))}`;
  }
  if (typeof args.agent === "string") return typeof args.task === "string" ? `${args.agent}: ${args.task}` : args.agent;
  return "";
}

/** "scout ×2, planner, reviewer": each name once, in order of first appearance, with how often it came. */
function countedNames(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${name} \u00d7${n}` : name)).join(", ");
}

/**
 * How a card's call stands. Ended badly, it says how: the user stopped it (or stopped a subagent it ran), the user
 * (or nobody) denied it, it ran out of time, or it failed; each looks different (icon, word, colour).
 */
export type CardStatus = "pending" | "running" | "done" | "failed" | "stopped" | "denied" | "timeout";

export const STATUS_WORDS: Readonly<Record<CardStatus, string>> = {
  pending: "waiting",
  running: "running",
  done: "done",
  failed: "failed",
  stopped: "stopped",
  denied: "denied",
  timeout: "timed out",
};

/** The glyph beside the word (colour is never the only sign). */
export const STATUS_ICONS: Readonly<Record<CardStatus, string>> = {
  pending: "",
  running: "",
  done: "\u2713",
  failed: "\u2715",
  stopped: "\u25a0",
  denied: "\u2298",
  timeout: "\u23f1",
};

/**
 * An ended call's status from its result: not an error, done; else the ending the worker recorded (tool-ending.ts),
 * else a subagent call whose tasks were stopped and none failed, stopped; else failed.
 */
export function endedStatus(isError: boolean, details: unknown, subagents?: SubagentDetails): CardStatus {
  if (!isError) return "done";
  const ending = toolEnding(details);
  if (ending) return ending;
  const runs = subagents?.runs.filter(Boolean) ?? [];
  if (runs.some((r) => r.status === "aborted") && !runs.some((r) => r.status === "failed")) return "stopped";
  return "failed";
}

/** What a command's card says of its end: its exit code and how long it ran (bash's details), when known. */
export function commandFacts(details: unknown): { exitCode?: number; durationMs?: number } {
  if (!isRecord(details)) return {};
  const facts: { exitCode?: number; durationMs?: number } = {};
  if (typeof details.exitCode === "number" && Number.isInteger(details.exitCode)) facts.exitCode = details.exitCode;
  if (typeof details.durationMs === "number" && Number.isFinite(details.durationMs) && details.durationMs >= 0) facts.durationMs = details.durationMs;
  return facts;
}

/** "0.4 s", "12 s", "2 min 5 s", "1 h 3 min". */
export function formatDuration(ms: number): string {
  if (ms < 10_000) return `${(Math.round(ms / 100) / 10).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
  return minutes % 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${Math.floor(minutes / 60)} h`;
}

/**
 * A command's output without what pi puts after it for the model (the truncation marker naming the saved file, and
 * the status: "Command exited with code 2", "Command aborted", "Command timed out…"): the card says those itself.
 */
export function commandOutput(text: string): string {
  let out = text.replace(/\n\n(Command exited with code \d+|Command aborted|Command timed out after [^\n]*)$/, "");
  out = out.replace(/\n\n\[Showing [^\n]*\]$/, "");
  return out === "(no output)" ? "" : out;
}

/** The last `n` lines of a text (a trailing newline ends the last line, it does not start another). */
export function lastLines(text: string, n: number): string {
  const lines = text.replace(/\n$/, "").split("\n");
  return lines.slice(-n).join("\n");
}

const count = (n: number) => n.toLocaleString("en-US");

/**
 * What a long output's card shows of it, from the tool's truncation details: "last 2,000 of 3,001 lines", or for one
 * huge line "last 50 KB of line 3,001"; undefined when nothing was cut.
 */
export function outputShown(details: unknown): string | undefined {
  const truncation = isRecord(details) ? details.truncation : undefined;
  if (!isRecord(truncation) || truncation.truncated !== true) return undefined;
  const { outputLines, totalLines, outputBytes } = truncation;
  if (typeof outputLines !== "number" || typeof totalLines !== "number") return undefined;
  if (truncation.lastLinePartial === true && typeof outputBytes === "number") return `last ${Math.round(outputBytes / 1024)} KB of line ${count(totalLines)}`;
  return `last ${count(outputLines)} of ${count(totalLines)} lines`;
}

/** Lines a unified (or pi's numbered) diff adds and removes, headers aside: the "+10 −2" of a collapsed diff. */
export function diffCounts(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  const lines = diff.split("\n");
  // A unified diff's file headers come before its first hunk (inside one, a removed "-- x" line reads "--- x");
  // pi's numbered diff has neither headers nor hunks.
  const unified = lines.some((line) => line.startsWith("@@"));
  let inHunk = !unified;
  for (const line of lines) {
    if (unified && line.startsWith("@@")) inHunk = true;
    else if (unified && (line.startsWith("Index:") || line.startsWith("==="))) inHunk = false;
    else if (inHunk && line.startsWith("+")) added++;
    else if (inHunk && line.startsWith("-")) removed++;
  }
  return { added, removed };
}
