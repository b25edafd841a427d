/**
 * A chat's workspace as its worker uses it: the folder, its project context files and the tools that work in it.
 * Loaded when the worker starts and again whenever main says the chat's workspace changed.
 */
import type { AgentTool } from "../../shared/agent/types";
import type { WorkspaceInfo } from "../../shared/protocol/session-protocol";
import { loadContextFiles, type ContextFile } from "./workspace-context";

export interface SessionWorkspace {
  folder: string;
  contextFiles: ContextFile[];
  /** The file and shell tools, confined to the folder. */
  tools: AgentTool<any>[];
  /** What mirrors are told (the chat shows it). */
  info: WorkspaceInfo;
}

/** Reads what the agent needs to know of `folder` (absolute, checked by main). Never throws on the folder's content. */
export async function openWorkspace(folder: string): Promise<SessionWorkspace> {
  const contextFiles = await loadContextFiles(folder);
  const tools: AgentTool<any>[] = [];
  return {
    folder,
    contextFiles,
    tools,
    info: { folder, contextFiles: contextFiles.map((f) => f.path), sandboxed: false, sandboxProblem: "No shell tool yet." },
  };
}
