import type { AgentTool } from "../../../shared/agent/types";
import type { FolderIdentity } from "../../../shared/protocol/control-protocol";
import { join } from "node:path";
import { BASH_OUTPUT_FOLDER, bashTool } from "./bash-tool";
import { editTool } from "./edit-tool";
import { findTool } from "./find-tool";
import { grepTool } from "./grep-tool";
import { lsTool } from "./ls-tool";
import { readTool } from "./read-tool";
import type { ShellSandbox } from "./sandbox";
import { WorkspacePaths } from "./workspace-paths";
import { writeTool } from "./write-tool";

export { DEFAULT_DENY_READ, createShellSandbox, detectSandbox, disposeSandboxRuntime, knowSandboxSupport, unsandboxedShell } from "./sandbox";
export type { SandboxOptions, SandboxSupport, ShellSandbox } from "./sandbox";
export { WorkspaceEscapeError, WorkspacePaths } from "./workspace-paths";
export { previewChange } from "./change-preview";
export { unpackedAsarPath } from "./packaged-path";
export { ripgrepPath } from "./ripgrep";
export { WORKSPACE_TOOL_PROMPTS } from "./prompt-lines";

export interface WorkspaceToolsOptions {
  /** The chat's workspace folder: every path the tools touch resolves inside it (symlinks followed). */
  root: string;
  /** A per-session folder: saved bash output (`bash-output/`) and the commands' TMPDIR (`tmp/`). */
  sessionDir: string;
  /** Where bash commands run: `createShellSandbox()` where `detectSandbox()` allows, else `unsandboxedShell()`. */
  sandbox: ShellSandbox;
  /** The folder main checked (a subagent's): the tools are made only if `root` still is it (see WorkspacePaths). */
  identity?: FolderIdentity;
}

/**
 * pi coding-agent's workspace tools (read, bash, edit, write, grep, find, ls), confined to one workspace. Throws a
 * WorkspaceEscapeError when `identity` is given and `root` is not that folder.
 */
export function workspaceTools(options: WorkspaceToolsOptions): AgentTool<any>[] {
  // The saved full output of a long command is read with `read`, as bash's truncation marker suggests.
  const paths = new WorkspacePaths(options.root, [join(options.sessionDir, BASH_OUTPUT_FOLDER)], options.identity);
  return [
    readTool(paths),
    bashTool({ root: paths.root, sessionDir: options.sessionDir, sandbox: options.sandbox }),
    editTool(paths),
    writeTool(paths),
    grepTool(paths),
    findTool(paths),
    lsTool(paths),
  ];
}
