import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentTool, AgentToolResult } from "../../../../../src/shared/agent/types";
import { isToolErrorResult } from "../../../../../src/shared/agent/tool-failure";
import { unsandboxedShell, workspaceTools, type ShellSandbox } from "../../../../../src/agent-worker/tools/workspace";

/** A temporary workspace (`root`) beside a session folder and an `outside` folder, with its tools. */
export interface WorkspaceFixture {
  base: string;
  root: string;
  sessionDir: string;
  outside: string;
  tool(name: string): AgentTool<any>;
  /** Runs a tool; the text of its result (content texts joined). */
  run(name: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<string>;
  result(name: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<AgentToolResult<any>>;
  /**
   * The error a tool call ends in: its thrown message, or the text of an error result (bash's non-zero exit); fails
   * the test when the call succeeds.
   */
  failure(name: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<string>;
  remove(): void;
}

/** `options.shellCommandPrefix`: Settings' line run before every bash command (none by default). */
export function createWorkspace(sandbox: ShellSandbox = unsandboxedShell(), options: { shellCommandPrefix?: string } = {}): WorkspaceFixture {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "paddock-tools-")));
  const root = join(base, "workspace");
  const sessionDir = join(base, "session");
  const outside = join(base, "outside");
  for (const dir of [root, sessionDir, outside]) mkdirSync(dir);
  const tools = workspaceTools({ root, sessionDir, sandbox, shellCommandPrefix: () => options.shellCommandPrefix });
  const tool = (name: string) => {
    const found = tools.find((t) => t.name === name);
    if (!found) throw new Error(`no tool ${name}`);
    return found;
  };
  const result = (name: string, params: Record<string, unknown>, signal?: AbortSignal) => {
    const t = tool(name);
    return t.execute("call-1", t.prepareArguments ? t.prepareArguments(params) : params, signal);
  };
  const run = async (name: string, params: Record<string, unknown>, signal?: AbortSignal) => textOf(await result(name, params, signal));
  const failure = async (name: string, params: Record<string, unknown>, signal?: AbortSignal) => {
    let ended: AgentToolResult<any>;
    try {
      ended = await result(name, params, signal);
    } catch (error) {
      return (error as Error).message;
    }
    // As pi 1.6.0, a command that exits with another code than 0 is an error result, not a thrown error.
    if (isToolErrorResult(ended)) return textOf(ended);
    throw new Error(`${name} ${JSON.stringify(params)} did not fail`);
  };
  return { base, root, sessionDir, outside, tool, run, result, failure, remove: () => rmSync(base, { recursive: true, force: true }) };
}

export function textOf(result: AgentToolResult<unknown>): string {
  return result.content.map((c) => (c.type === "text" ? c.text : `[image ${c.mimeType}]`)).join("\n");
}
