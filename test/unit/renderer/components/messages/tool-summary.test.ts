import { describe, expect, it } from "vitest";
import {
  commandFacts, commandOutput, diffCounts, endedStatus, formatDuration, lastLines, outputShown, STATUS_ICONS, STATUS_WORDS, toolSummary,
} from "../../../../../src/renderer/components/messages/tool-summary";
import type { SubagentDetails, SubagentRun } from "../../../../../src/shared/protocol/subagent-details";

describe("a tool card's one-line summary", () => {
  it("shows a tool's first text argument (else its first number), cut at 60 characters", () => {
    expect(toolSummary("bash", { command: "ls -la", timeout: 5 })).toBe("ls -la");
    expect(toolSummary("read", { offset: 10, path: "a.txt" })).toBe("a.txt");
    expect(toolSummary("wait", { seconds: 3 })).toBe("3");
    expect(toolSummary("bash", { command: "x".repeat(70) })).toBe(`${"x".repeat(60)}…`);
    expect(toolSummary("bash", undefined)).toBe("");
  });

  it("shows what a built-in tool will use, never a decoy argument beside it", () => {
    expect(toolSummary("write", { command: "git status", path: "a.txt", content: "x" })).toBe("a.txt");
    expect(toolSummary("bash", { path: "README.md", command: "rm -rf src" })).toBe("rm -rf src");
    expect(toolSummary("grep", { path: "src", pattern: "TODO" })).toBe("TODO");
    expect(toolSummary("github__search", { q: "bug" })).toBe("bug"); // not ours: its first text argument
  });

  it("says what a subagent call does in each of pi's modes", () => {
    expect(toolSummary("subagent", { agent: "scout", task: "find the config" })).toBe("scout: find the config");
    expect(toolSummary("subagent", { tasks: [{ agent: "scout", task: "a" }, { agent: "planner", task: "b" }, { agent: "scout", task: "c" }] }))
      .toBe("3 tasks: scout \u00d72, planner");
    const four = ["scout", "planner", "scout", "reviewer"].map((agent) => ({ agent, task: "t" }));
    expect(toolSummary("subagent", { tasks: four })).toBe("4 tasks: scout \u00d72, planner, reviewer");
    expect(toolSummary("subagent", { chain: [{ agent: "scout", task: "a" }, { agent: "worker", task: "{previous}" }] })).toBe("chain: scout → worker");
  });

  it("copes with arguments still streaming in or malformed", () => {
    expect(toolSummary("subagent", { tasks: [{ agent: "scout" }, null, {}] })).toBe("3 tasks: scout, ? \u00d72");
    expect(toolSummary("subagent", { chain: [] })).toBe("chain");
    expect(toolSummary("subagent", { agentScope: "both" })).toBe("");
    expect(toolSummary("subagent", { agent: "scout" })).toBe("scout");
  });
});

const runs = (...statuses: SubagentRun["status"][]): SubagentDetails => ({
  mode: "parallel",
  agentScope: "user",
  runs: statuses.map((status) => ({ agent: "scout", task: "t", status, usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0, turns: 0 } })),
  usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0, turns: 0 },
});

describe("how a card says its call ended", () => {
  it("tells done, failed, stopped, denied and timed out apart, each with its own word and icon", () => {
    expect(endedStatus(false, { ending: "stopped" })).toBe("done");
    expect(endedStatus(true, {})).toBe("failed");
    expect(endedStatus(true, undefined)).toBe("failed");
    expect(endedStatus(true, { exitCode: 2 })).toBe("failed");
    expect(endedStatus(true, { ending: "stopped", durationMs: 300 })).toBe("stopped");
    expect(endedStatus(true, { ending: "denied" })).toBe("denied");
    expect(endedStatus(true, { ending: "timeout" })).toBe("timeout");
    const ended = ["done", "failed", "stopped", "denied", "timeout"] as const;
    expect(new Set(ended.map((s) => STATUS_WORDS[s])).size).toBe(5);
    expect(new Set(ended.map((s) => STATUS_ICONS[s])).size).toBe(5);
    expect(STATUS_WORDS.stopped).toBe("stopped");
  });

  it("a subagent call whose tasks were stopped (none failed) is stopped, keeping the ending the worker set first", () => {
    expect(endedStatus(true, undefined, runs("completed", "aborted"))).toBe("stopped");
    expect(endedStatus(true, undefined, runs("aborted", "failed"))).toBe("failed");
    expect(endedStatus(true, { ending: "stopped" }, runs("aborted", "failed"))).toBe("stopped");
    expect(endedStatus(true, undefined, runs("completed", "failed"))).toBe("failed");
  });
});

describe("a finished command's facts", () => {
  it("reads the exit code and duration from bash's details, ignoring anything malformed", () => {
    expect(commandFacts({ exitCode: 0, durationMs: 1234 })).toEqual({ exitCode: 0, durationMs: 1234 });
    expect(commandFacts({ exitCode: "0", durationMs: -1 })).toEqual({});
    expect(commandFacts(undefined)).toEqual({});
  });

  it("says durations as people read them", () => {
    expect(formatDuration(42)).toBe("0.0 s");
    expect(formatDuration(1234)).toBe("1.2 s");
    expect(formatDuration(12_400)).toBe("12 s");
    expect(formatDuration(125_000)).toBe("2 min 5 s");
    expect(formatDuration(120_000)).toBe("2 min");
    expect(formatDuration(3_780_000)).toBe("1 h 3 min");
  });

  it("drops pi's trailers for the model (the status line, the truncation marker) and keeps the output", () => {
    expect(commandOutput("a\nb\n\n\nCommand exited with code 2")).toBe("a\nb\n");
    expect(commandOutput("x\n\n[Showing lines 1001-3000 of 3000. Full output: /s/bash-output/b.log]")).toBe("x");
    expect(commandOutput("x\n\n[Showing lines 2-3 of 3. Full output: /f]\n\nCommand aborted")).toBe("x");
    expect(commandOutput("(no output)\n\nCommand exited with code 4")).toBe("");
    expect(commandOutput("Command exited with code 4 is what it printed")).toBe("Command exited with code 4 is what it printed");
    expect(lastLines("1\n2\n3\n4\n", 3)).toBe("2\n3\n4");
    expect(lastLines("only", 3)).toBe("only");
  });

  it("says what a long output shows: the last lines of how many, or the end of one huge line", () => {
    expect(outputShown({ truncation: { truncated: true, outputLines: 2000, totalLines: 3001, outputBytes: 14000, lastLinePartial: false } }))
      .toBe("last 2,000 of 3,001 lines");
    expect(outputShown({ truncation: { truncated: true, outputLines: 1, totalLines: 3, outputBytes: 51200, lastLinePartial: true } })).toBe("last 50 KB of line 3");
    expect(outputShown({ truncation: { truncated: false, outputLines: 3, totalLines: 3 } })).toBeUndefined();
    expect(outputShown({})).toBeUndefined();
  });
});

describe("a folded diff's counts", () => {
  it("counts added and removed lines, not the file headers, also a removed line that starts with two dashes", () => {
    const patch = "Index: src/csv.ts\n===\n--- src/csv.ts\n+++ src/csv.ts\n@@ -1,3 +1,3 @@\n a\n--- old comment\n-b\n+c\n++d\n";
    expect(diffCounts(patch)).toEqual({ added: 2, removed: 2 });
    expect(diffCounts("+1 new\n-1 old\n 2 same")).toEqual({ added: 1, removed: 1 }); // pi's numbered diff
    expect(diffCounts("")).toEqual({ added: 0, removed: 0 });
  });
});
