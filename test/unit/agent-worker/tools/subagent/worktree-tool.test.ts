/** The parent's `worktree` tool: its schema and description, and what it tells the model of main's answers. */
import { describe, expect, it } from "vitest";
import { WORKTREE_TOOL_DESCRIPTION, worktreeQuestion, worktreeTool } from "../../../../../src/agent-worker/tools/subagent/worktree-tool";
import { validateToolArguments } from "../../../../../src/agent-worker/agent/tool-validation";
import type { TaskWorktreeRequest } from "../../../../../src/shared/protocol/control-protocol";

describe("the worktree tool", () => {
  it("takes an action (apply, keep or discard) as a string enum, the task's session id and an optional merge", () => {
    const tool = worktreeTool(async () => ({ ok: true, text: "" }));
    expect(tool.name).toBe("worktree");
    expect(tool.description).toBe(WORKTREE_TOOL_DESCRIPTION);
    expect(tool.description).toContain("isolation: worktree");
    const schema = tool.parameters as unknown as { properties: Record<string, { type?: string; enum?: string[] }>; required: string[] };
    expect(schema.properties.action).toMatchObject({ type: "string", enum: ["apply", "keep", "discard"] });
    expect(schema.required.sort()).toEqual(["action", "sessionId"]);
    const call = (args: unknown) => ({ type: "toolCall", id: "w1", name: "worktree", arguments: args }) as never;
    expect(validateToolArguments(tool, call({ action: "apply", sessionId: "s1", merge: true }))).toEqual({ action: "apply", sessionId: "s1", merge: true });
    expect(() => validateToolArguments(tool, call({ action: "merge", sessionId: "s1" }))).toThrow();
    expect(() => validateToolArguments(tool, call({ action: "keep" }))).toThrow();
  });

  it("passes the call to main (merge only with apply) and gives the model main's words; a refusal is an error result", async () => {
    const asked: TaskWorktreeRequest[] = [];
    const tool = worktreeTool(async (request) => {
      asked.push(request);
      return request.action === "apply" ? { ok: false, text: "Nothing was applied: a.txt" } : { ok: true, text: "Kept: branch paddock/x" };
    });
    const kept = await tool.execute("w1", { action: "keep", sessionId: "s1", merge: true });
    expect(kept.content).toEqual([{ type: "text", text: "Kept: branch paddock/x" }]);
    await expect(tool.execute("w2", { action: "apply", sessionId: "s1", merge: true })).rejects.toThrow("Nothing was applied: a.txt");
    expect(asked).toEqual([
      { action: "keep", sessionId: "s1" },
      { action: "apply", sessionId: "s1", merge: true },
    ]);
  });

  it("words the approval question by action", () => {
    expect(worktreeQuestion("apply", true, "1 file.")).toBe("Apply a subagent task's changes to the workspace (merging files the workspace also changed). 1 file.");
    expect(worktreeQuestion("keep", false, "1 file.")).toBe("Remove a subagent task's worktree and keep its branch. 1 file.");
    expect(worktreeQuestion("discard", false, "1 file.")).toBe("Discard a subagent task's worktree and branch (its changes are lost). 1 file.");
  });
});
