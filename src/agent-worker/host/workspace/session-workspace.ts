/**
 * A chat's workspace as its worker uses it: the folder, its project context files and the tools that work in it,
 * with shell commands in the OS sandbox where one can run here.
 * Loaded when the worker starts and again whenever main says the chat's workspace (or the allowed domains) changed.
 */
import { stat } from "node:fs/promises";
import type { AgentTool } from "../../../shared/agent/types";
import type { WorkspaceInfo } from "../../../shared/protocol/session-protocol";
import type { FolderIdentity, SandboxVerdict } from "../../../shared/protocol/control-protocol";
import {
  createShellSandbox,
  detectSandbox,
  knowSandboxSupport,
  previewChange,
  ProtectedChanges,
  privateFolders,
  unsandboxedShell,
  workspaceTools,
  WorkspaceEscapeError,
  WorkspaceFiles,
  WorkspacePaths,
  type NetworkAsk,
  type PrivateFolders,
  type ShellSandbox,
} from "../../tools/workspace";
import { loadContextFiles, type ContextFile } from "./workspace-context";
import { piAgentFolder } from "../../../shared-node/pi-agent-folder";
import { NO_SKILLS, type SkillListing } from "../../../shared/protocol/skills";

/** Where `bash` runs: in the sandbox, or (with the reason) outside any. */
export interface ShellChoice {
  sandboxed: boolean;
  problem?: string;
  /** What this says of the machine, for main to pass on (absent when the reason was this workspace's own). */
  verdict?: SandboxVerdict;
}

export interface SessionWorkspace {
  folder: string;
  contextFiles: ContextFile[];
  /** The file and shell tools, confined to the folder. */
  tools: AgentTool<any>[];
  /**
   * Settles once it is known whether `bash` runs in the sandbox. Finding out loads the sandbox runtime and runs a
   * command in it (about half a second, once per process), so the chat opens without waiting for it; a command
   * waits. Never rejects.
   */
  shell: Promise<ShellChoice>;
  /** The diff an `edit` or `write` call would make (for its approval question); undefined for other calls. */
  preview(toolName: string, args: unknown): Promise<string | undefined>;
  /**
   * Why the call must be asked about every time: it changes a file the sandbox protects from commands (the text
   * names it and says why); undefined for any other call. Remembered for the tool to check as it writes
   * (protected-changes.ts). Never rejects.
   */
  protection(toolCallId: string, toolName: string, args: unknown): Promise<string | undefined>;
  /** What mirrors are told now (the chat shows it). */
  info(): WorkspaceInfo;
  /** The skills the model is told of (main's listing when the workspace opened); their folders are readable. */
  skills: SkillListing["skills"];
  /** The composer's `@`: the folder's files listed and read for a message, through the tools' gate; absent when unusable. */
  files?: WorkspaceFiles;
}

export interface WorkspaceSetup {
  /** The session's own folder: saved command output and the commands' temp folder. */
  sessionDir: string;
  /** The app's data folder (keys, settings, other chats): commands and file tools may not read it, except `sessionDir`. */
  privateDir?: string;
  /** Hosts commands may reach (Settings → Tools). */
  allowedDomains: readonly string[];
  /** Hosts the project allows now (its `net:` grants), read as each command starts. */
  projectHosts?: () => readonly string[];
  /** Asked when a sandboxed command connects to a host neither list allows (the chat's question); absent: refused. */
  askNetwork?: NetworkAsk;
  /** pi's `shellCommandPrefix` (Settings → Tools), as Settings have it at each command; absent or blank: none. */
  shellCommandPrefix?: () => string | undefined;
  /** Whether commands run with the workspace read-only now (the Read-only profile), asked at each command. */
  readOnlyCommands?: () => boolean;
  /** What an earlier worker found about the sandbox here, if main knows. */
  sandbox?: SandboxVerdict;
  /** A subagent's: the identity `folder` had when main checked it (then its real path); see WorkerInitOptions. */
  identity?: FolderIdentity;
  /** The skills main lists for this chat: their folders may be read by the file tools (and commands), never written. */
  skills?: SkillListing;
}

/**
 * Reads what the agent needs to know of `folder` (absolute, checked by main) and builds its tools. Never throws on
 * the folder's content: a folder that is gone, or (a subagent's) is no longer the one main checked, leaves the chat
 * without tools and says so in `info().problem`; a sandbox that cannot run is reported in `info().sandboxProblem`.
 */
export async function openWorkspace(folder: string, setup: WorkspaceSetup): Promise<SessionWorkspace> {
  const problem = await folderProblem(folder);
  if (problem) return unusable(folder, problem);
  // One list for both: what commands may not read is what the file tools may not read (or write).
  const skills = setup.skills ?? NO_SKILLS;
  const folders = privateFolders({ dataDir: setup.privateDir, sessionDir: setup.sessionDir, skillFolders: skills.folders });
  let sandbox: Promise<{ sandbox: ShellSandbox; problem?: string; verdict?: SandboxVerdict }> | undefined;
  const deferred: ShellSandbox = {
    kind: "none", // not read by the tools; `shell` says what it really is
    launch: async (request) => (await sandbox!).sandbox.launch(request),
  };
  let tools: AgentTool<any>[];
  let paths: WorkspacePaths;
  let protectedFiles: ProtectedChanges;
  try {
    // With the identity, both refuse a folder that is no longer the one main checked, checking the very real path
    // they keep (so a link swapped in between a check and their making cannot slip through).
    paths = new WorkspacePaths(folder, [], folders, setup.identity);
    protectedFiles = new ProtectedChanges(paths);
    tools = workspaceTools({
      root: folder,
      sessionDir: setup.sessionDir,
      sandbox: deferred,
      privateFolders: folders,
      protectedFiles,
      identity: setup.identity,
      readable: skills.folders,
      shellCommandPrefix: setup.shellCommandPrefix,
      ...(setup.readOnlyCommands ? { readOnlyCommands: setup.readOnlyCommands } : {}),
    });
  } catch (error) {
    return unusable(folder, error instanceof WorkspaceEscapeError ? error.message : `${folder} cannot be opened (${String(error)}).`);
  }
  let chosen: ShellChoice | undefined;
  sandbox = shellFor(setup, folders);
  const shell = sandbox.then(({ sandbox, problem, verdict }) => {
    chosen = { sandboxed: sandbox.kind !== "none", ...(problem ? { problem } : {}), ...(verdict ? { verdict } : {}) };
    return chosen;
  });
  const context = await loadContextFiles(paths.root, (real) => paths.privateFolderOf(real, "read")?.path, piAgentFolder());
  const contextFiles = context.files;
  return {
    folder,
    contextFiles,
    tools,
    shell,
    preview: (toolName, args) => previewChange(paths, toolName, args),
    protection: (toolCallId, toolName, args) => protectedFiles.judge(toolCallId, toolName, args),
    skills: skills.skills,
    files: new WorkspaceFiles(paths),
    info: () => ({
      folder,
      contextFiles: contextFiles.map((f) => f.path),
      ...(context.skipped.length > 0 ? { contextSkipped: context.skipped } : {}),
      sandboxed: chosen?.sandboxed ?? false,
      ...(chosen ? {} : { sandboxChecking: true }),
      ...(chosen?.problem ? { sandboxProblem: chosen.problem } : {}),
      ...(chosen?.verdict && !chosen.verdict.available && chosen.verdict.cause ? { sandboxCause: chosen.verdict.cause } : {}),
    }),
  };
}

/** A workspace the chat cannot work in: no tools, no context, and why. */
function unusable(folder: string, problem: string): SessionWorkspace {
  return {
    folder,
    contextFiles: [],
    tools: [],
    shell: Promise.resolve({ sandboxed: false }),
    preview: async () => undefined,
    protection: async () => undefined,
    skills: [],
    info: () => ({ folder, contextFiles: [], sandboxed: false, problem }),
  };
}

/**
 * Finds out now whether commands can be sandboxed in this process (a subagent's spare does, before its task: the
 * answer is then ready when its workspace opens). Never rejects.
 */
export async function prepareSandbox(known?: SandboxVerdict): Promise<void> {
  if (known) knowSandboxSupport(known.available ? { ...known, warnings: [] } : known);
  await detectSandbox().catch(() => undefined);
}

/** Why `folder` cannot be worked in now (main checked it when it was chosen, but folders move), or undefined. */
async function folderProblem(folder: string): Promise<string | undefined> {
  try {
    const info = await stat(folder);
    return info.isDirectory() ? undefined : `${folder} is no longer a folder. Choose the workspace again.`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? `${folder} no longer exists. Choose the workspace again.` : `${folder} cannot be opened (${code ?? String(error)}).`;
  }
}

async function shellFor(setup: WorkspaceSetup, folders: PrivateFolders): Promise<{ sandbox: ShellSandbox; problem?: string; verdict?: SandboxVerdict }> {
  try {
    if (setup.sandbox) knowSandboxSupport(setup.sandbox.available ? { ...setup.sandbox, warnings: [] } : setup.sandbox);
    const support = await detectSandbox();
    if (!support.available) return { sandbox: unsandboxedShell(), problem: support.reason, verdict: support };
    const settingsDomains = [...setup.allowedDomains];
    const sandbox = await createShellSandbox({
      allowedDomains: () => [...settingsDomains, ...(setup.projectHosts?.() ?? [])],
      ...(setup.askNetwork ? { askNetwork: setup.askNetwork } : {}),
      denyRead: folders.deny.map((folder) => folder.path),
      allowRead: folders.allowRead,
    });
    return { sandbox, verdict: { available: true, kind: support.kind } };
  } catch (error) {
    return { sandbox: unsandboxedShell(), problem: error instanceof Error ? error.message : String(error) };
  }
}
