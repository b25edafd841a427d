/**
 * The project a chat belongs to, for "Allowed in this project" (project-grants.ts): its workspace folder; for a chat
 * (or an isolated subagent task) working in a git worktree Paddock made, the user's folder it was made from (the
 * repository's checkout, at the same subfolder), not the worktree. So a grant made in a worktree chat holds for the
 * project's other chats, and theirs for it, as the sidebar groups them (renderer's groupSessions.ts, projectFolder).
 * Electron-free.
 */
import { isAbsolute, join, relative } from "node:path";
import type { WorktreeRecord } from "../../shared/protocol/worktrees";

/** Where the chat's project is: `workspace` itself, or its counterpart in the repository a worktree was made from. */
export function projectFolder(workspace: string | undefined, worktree: Pick<WorktreeRecord, "repositoryRoot" | "path"> | undefined): string | undefined {
  if (!workspace || !worktree) return workspace;
  const below = relative(worktree.path, workspace);
  // A workspace outside the worktree (moved on since): that folder is the project.
  if (below.startsWith("..") || isAbsolute(below)) return workspace;
  return below === "" ? worktree.repositoryRoot : join(worktree.repositoryRoot, below);
}
