import type { SessionSummary } from "../../../shared/protocol/app-api";

export interface SessionGroup {
  label: string;
  sessions: SessionSummary[];
}

const DAY = 86_400_000;

/** The sidebar's order: the most recently updated first (ties: the newer chat, then by id, so it never flickers). */
export function newestFirst(a: SessionSummary, b: SessionSummary): number {
  return b.updated - a.updated || b.created - a.created || a.id.localeCompare(b.id);
}

/** Newest first, grouped as Today / Yesterday / Previous 7 days / Older, relative to `now`. Empty groups are left out. */
export function groupSessions(sessions: readonly SessionSummary[], now: number): SessionGroup[] {
  const startOfToday = new Date(now).setHours(0, 0, 0, 0);
  const bounds: [string, number][] = [
    ["Today", startOfToday],
    ["Yesterday", startOfToday - DAY],
    ["Previous 7 days", startOfToday - 7 * DAY],
    ["Older", -Infinity],
  ];
  const groups = bounds.map(([label]) => ({ label, sessions: [] as SessionSummary[] }));
  for (const s of [...sessions].sort(newestFirst)) {
    const i = bounds.findIndex(([, from]) => s.updated >= from);
    groups[i].sessions.push(s);
  }
  return groups.filter((g) => g.sessions.length > 0);
}

/** A project's chats in the sidebar: its folder (undefined: "No project"), its label, its chats newest first. */
export interface ProjectGroup {
  /** The project's key: its folder, or "" for the chats without one. */
  key: string;
  folder?: string;
  /** The folder's name ("parent/name" where two projects share a name); "No project". */
  label: string;
  sessions: SessionSummary[];
}

export const NO_PROJECT = "No project";

/**
 * The project a chat belongs to: its workspace folder; a worktree chat's is the user's folder it was made from (its
 * repository's checkout, not the worktree Paddock made), so it sits with the chats working there. Undefined: none.
 */
export function projectFolder(session: Pick<SessionSummary, "workspace" | "worktree">): string | undefined {
  const { worktree } = session;
  if (worktree) {
    // The worktree's counterpart of the user's folder: the same path below the repository's root as below the worktree's.
    const below = worktree.folder.startsWith(worktree.path) ? worktree.folder.slice(worktree.path.length) : "";
    return trimSeparators(worktree.repositoryRoot + below);
  }
  return session.workspace === undefined ? undefined : trimSeparators(session.workspace);
}

/**
 * The chats by project, each project's newest first, the projects by their latest chat (the one worked in last on
 * top); chats without a workspace together under "No project", placed by their latest as well.
 */
export function groupByProject(sessions: readonly SessionSummary[]): ProjectGroup[] {
  const groups = new Map<string, ProjectGroup>();
  for (const s of [...sessions].sort(newestFirst)) {
    const folder = projectFolder(s);
    const key = folder ?? "";
    let group = groups.get(key);
    if (!group) {
      group = { key, ...(folder !== undefined ? { folder } : {}), label: folder === undefined ? NO_PROJECT : baseName(folder), sessions: [] };
      groups.set(key, group);
    }
    group.sessions.push(s);
  }
  const list = [...groups.values()];
  // Two projects of the same name say which folder each is in.
  const named = new Map<string, number>();
  for (const group of list) if (group.folder !== undefined) named.set(group.label, (named.get(group.label) ?? 0) + 1);
  for (const group of list) {
    if (group.folder !== undefined && named.get(group.label)! > 1) group.label = `${baseName(parentOf(group.folder))}/${group.label}`;
  }
  return list;
}

function trimSeparators(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, "");
  return trimmed === "" ? path.slice(0, 1) : trimmed;
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() || path;
}

function parentOf(path: string): string {
  const at = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return at > 0 ? path.slice(0, at) : path;
}
