/**
 * The one line a tool card's header shows beside the tool's name, from the call's arguments (which may still be
 * streaming in, so partial and malformed ones are expected): what the call is about at a glance, at most 60
 * characters. Never throws.
 */
import { isRecord } from "../../../shared/is-record";

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
 * pi's subagent modes: single "scout: find the config", parallel "2 tasks: scout, planner", chain
 * "chain: scout → planner → worker". Agents repeated in a parallel call are named once.
 */
function subagentSummary(args: Record<string, unknown>): string {
  const agentOf = (step: unknown) => (isRecord(step) && typeof step.agent === "string" ? step.agent : "?");
  if (Array.isArray(args.chain)) return args.chain.length > 0 ? `chain: ${args.chain.map(agentOf).join(" → ")}` : "chain";
  if (Array.isArray(args.tasks)) {
    const n = args.tasks.length;
    return `${n} ${n === 1 ? "task" : "tasks"}: ${[...new Set(args.tasks.map(agentOf))].join(", ")}`;
  }
  if (typeof args.agent === "string") return typeof args.task === "string" ? `${args.agent}: ${args.task}` : args.agent;
  return "";
}
