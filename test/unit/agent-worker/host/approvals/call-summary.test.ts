/**
 * The line an approval question shows (agent-worker/host/approvals/call-summary.ts): a built-in tool's call by the arguments
 * the tool declares and will use, never by extra ones a model added; a tool we do not know by all its arguments.
 */
import { afterAll, describe, expect, it } from "vitest";
import { describeToolCall, formatArguments } from "../../../../../src/agent-worker/host/approvals/call-summary";
import { unsandboxedShell, workspaceTools } from "../../../../../src/agent-worker/tools/workspace";
import { calculateTool } from "../../../../../src/agent-worker/tools/calculate-tool";
import { TempFolders } from "../../../../../testkit/temp-folders";

const folders = new TempFolders();
const root = folders.make();
const tools = workspaceTools({ root, sessionDir: folders.make(), sandbox: unsandboxedShell() });
const tool = (name: string) => tools.find((t) => t.name === name)!;

describe("an approval question's line", () => {
  it("describes a write by the path it writes and its size, not by a decoy `command` beside them", () => {
    const summary = describeToolCall(tool("write"), { command: "git status", path: "a.txt", content: "x" });
    expect(summary).toBe("write a.txt (1 byte)");
    expect(describeToolCall(tool("write"), { path: "b.txt", content: "é\n" })).toBe("write b.txt (3 bytes)");
  });

  it("bash by its command, edit by its path, other tools by their declared arguments, path first", () => {
    expect(describeToolCall(tool("bash"), { path: "README.md", command: "rm -rf src", timeout: 5 })).toBe("rm -rf src");
    expect(describeToolCall(tool("edit"), { path: "notes.txt", edits: [], command: "git status" })).toBe("edit notes.txt");
    expect(describeToolCall(tool("read"), { path: "a.txt", offset: 3, command: "ls" })).toBe("read a.txt offset=3");
    expect(describeToolCall(tool("grep"), { pattern: "TODO", path: "src" })).toBe('grep src pattern="TODO"');
    expect(describeToolCall(calculateTool, { expression: "2+3" })).toBe('calculate expression="2+3"');
  });

  it("a tool it does not know by every argument", () => {
    expect(describeToolCall(undefined, { path: "x", url: "https://evil" }, "mystery")).toBe('mystery path="x" url="https://evil"');
    expect(describeToolCall(undefined, "odd", "mystery")).toBe('mystery "odd"');
    expect(formatArguments({})).toBe("");
  });
});

afterAll(() => folders.removeAll());
