import { describe, expect, it } from "vitest";
import { toolSummary } from "../../../../../src/renderer/components/messages/tool-summary";

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
      .toBe("3 tasks: scout, planner");
    expect(toolSummary("subagent", { chain: [{ agent: "scout", task: "a" }, { agent: "worker", task: "{previous}" }] })).toBe("chain: scout → worker");
  });

  it("copes with arguments still streaming in or malformed", () => {
    expect(toolSummary("subagent", { tasks: [{ agent: "scout" }, null, {}] })).toBe("3 tasks: scout, ?");
    expect(toolSummary("subagent", { chain: [] })).toBe("chain");
    expect(toolSummary("subagent", { agentScope: "both" })).toBe("");
    expect(toolSummary("subagent", { agent: "scout" })).toBe("scout");
  });
});
