import type { AgentTool } from "../../../shared/agent/types";
import type { FolderIdentity } from "../../../shared/protocol/control-protocol";
import { bashTool } from "./bash-tool";
import { bashOutputDir } from "../../../shared-node/session-files/session-folder";
import { editTool } from "./edit-tool";
import { findTool } from "./find-tool";
import { grepTool } from "./grep-tool";
import { lsTool } from "./ls-tool";
import { privateFolders, type PrivateFolders } from "./private-folders";
import { readTool } from "./read-tool";
import type { ShellSandbox } from "./sandbox";
import { WorkspacePaths } from "./workspace-paths";
import { writeTool } from "./write-tool";
import { ProtectedChanges } from "./protected-changes";

export { DEFAULT_DENY_READ, createShellSandbox, detectSandbox, disposeSandboxRuntime, knowSandboxSupport, refreshRunningNetworkLists, unsandboxedShell } from "./sandbox";
export type { NetworkAsk, RunningCommand, SandboxOptions, SandboxSupport, ShellSandbox } from "./sandbox";
export { WorkspaceEscapeError, WorkspacePaths } from "./workspace-paths";
export { privateFolders } from "./private-folders";
export type { PrivateFolder, PrivateFolders } from "./private-folders";
export { previewChange } from "./change-preview";
export { ProtectedChanges } from "./protected-changes";
export { unpackedAsarPath } from "./packaged-path";
export { ripgrepPath } from "./ripgrep";
export { WorkspaceFiles } from "./workspace-files";
export { WORKSPACE_TOOL_PROMPTS } from "./prompt-lines";

export interface WorkspaceToolsOptions {
  /** The chat's workspace folder: every path the tools touch resolves inside it (symlinks followed). */
  root: string;
  /** A per-session folder: saved bash output (`bash-output/`) and the commands' TMPDIR (`tmp/`). */
  sessionDir: string;
  /** Where bash commands run: `createShellSandbox()` where `detectSandbox()` allows, else `unsandboxedShell()`. */
  sandbox: ShellSandbox;
  /**
   * What the approval judged of protected files (git hooks, shell start-up files: protected-paths.ts), for `write`
   * and `edit` to check as they write. Default: a fresh one, which knows of no question, so those tools refuse to
   * change a protected file at all.
   */
  protectedFiles?: ProtectedChanges;
  /**
   * What no file tool reads or writes, even inside the workspace: the sandbox's list for commands (give both the same
   * `privateFolders(…)`). Default: the credential stores in the home folder.
   */
  privateFolders?: PrivateFolders;
  /** The folder main checked (a subagent's): the tools are made only if `root` still is it (see WorkspacePaths). */
  identity?: FolderIdentity;
  /**
   * pi's `shellCommandPrefix` (Settings → Tools): lines bash runs before every command, asked at each command (so
   * a change applies to the next). Absent, or blank: none.
   */
  shellCommandPrefix?: () => string | undefined;
  /** Whether `bash` runs its commands with the workspace read-only (the Read-only profile), asked at each command. */
  readOnlyCommands?: () => boolean;
  /**
   * Folders outside the workspace the file tools may read by absolute path, never write: the listed skills' folders
   * (main's SkillListing), so the model can read a SKILL.md and what it refers to.
   */
  readable?: readonly string[];
}

/**
 * pi coding-agent's workspace tools (read, bash, edit, write, grep, find, ls), confined to one workspace. Throws a
 * WorkspaceEscapeError when `identity` is given and `root` is not that folder.
 */
export function workspaceTools(options: WorkspaceToolsOptions): AgentTool<any>[] {
  // The saved full output of a long command is read with `read`, as bash's truncation marker suggests.
  const paths = new WorkspacePaths(options.root, [bashOutputDir(options.sessionDir), ...(options.readable ?? [])], options.privateFolders ?? privateFolders(), options.identity);
  const protectedFiles = options.protectedFiles ?? new ProtectedChanges(paths);
  return [
    readTool(paths),
    bashTool({ root: paths.root, sessionDir: options.sessionDir, sandbox: options.sandbox, commandPrefix: options.shellCommandPrefix, readOnly: options.readOnlyCommands }),
    editTool(paths, protectedFiles),
    writeTool(paths, protectedFiles),
    grepTool(paths),
    findTool(paths),
    lsTool(paths),
  ];
}
