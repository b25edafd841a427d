/**
 * Branches: a chat's other versions of its messages. Editing a user message or regenerating a reply does not throw
 * the old version away: the active messages from that point on (the "tail") are set aside as a version of the
 * point, and the new message starts another. `messages` stays the active path (what the model is sent and the page
 * shows); the versions not shown live in `BranchPoint`s, each with the branch points inside it (a version edited
 * again within), so switching back brings nested versions back too.
 *
 * Every function here is pure and shared by the worker's reducer, the mirrors' reducer and transcript replay, so the
 * three agree. Indexes (`at`) are session-wide positions on the active path; a caller whose `messages` holds only
 * the newest part of the path (a mirror before older history loaded) passes `offset`, the index of its
 * `messages[0]`, and must not apply an operation that reaches before it (the decoder refuses: the mirror resyncs).
 */
import type { AgentMessage } from "./types";

/** One version not shown: its messages from the branch point on, and the branch points inside them. */
export interface StoredTail {
  messages: AgentMessage[];
  branches: BranchPoint[];
}

/** The versions at one position of the active path. */
export interface BranchPoint {
  /** Session-wide index on the active path where the versions differ (their first message). */
  at: number;
  /** Which version is active (0-based, of `stored.length + 1`). */
  active: number;
  /** The other versions in order, the active one left out (it is in `messages`). */
  stored: StoredTail[];
}

/** The part of the state branches touch. `branches` is absent when there are none (never an empty array). */
export interface BranchedPath {
  messages: AgentMessage[];
  branches?: BranchPoint[];
}

/** What the UI shows on the first message of a branched tail: `‹ active+1 / count ›`. */
export interface BranchInfo {
  active: number;
  count: number;
}

/** The branch point at `at`, if any. */
export function branchAt(branches: readonly BranchPoint[] | undefined, at: number): BranchInfo | undefined {
  const point = branches?.find((b) => b.at === at);
  return point ? { active: point.active, count: point.stored.length + 1 } : undefined;
}

function orNone(branches: BranchPoint[]): BranchPoint[] | undefined {
  return branches.length > 0 ? branches : undefined;
}

/**
 * Sets the active tail from `at` aside as a version and truncates the path to `at`: whatever is appended next forms
 * the new (active, last) version. `at` may be the path's length (a new version of an empty tail). Returns `path`
 * itself when `at` is out of range.
 */
export function branchPath<T extends BranchedPath>(path: T, at: number, offset = 0): T {
  const local = at - offset;
  if (local < 0 || local > path.messages.length) return path;
  const branches = path.branches ?? [];
  const tail: StoredTail = { messages: path.messages.slice(local), branches: branches.filter((b) => b.at > at) };
  const kept = branches.filter((b) => b.at < at);
  const existing = branches.find((b) => b.at === at);
  const stored = existing ? [...existing.stored.slice(0, existing.active), tail, ...existing.stored.slice(existing.active)] : [tail];
  const point: BranchPoint = { at, active: stored.length, stored };
  return { ...path, messages: path.messages.slice(0, local), branches: [...kept, point].sort((a, b) => a.at - b.at) };
}

/**
 * Makes version `version` of the branch point at `at` the active tail; the tail active before is stored in its place
 * (with its nested branch points). Returns `path` itself when there is no such point or version, or it is active.
 */
export function switchPath<T extends BranchedPath>(path: T, at: number, version: number, offset = 0): T {
  const local = at - offset;
  const branches = path.branches ?? [];
  const point = branches.find((b) => b.at === at);
  if (!point || local < 0 || local > path.messages.length) return path;
  if (!Number.isInteger(version) || version < 0 || version > point.stored.length || version === point.active) return path;
  const current: StoredTail = { messages: path.messages.slice(local), branches: branches.filter((b) => b.at > at) };
  const all = [...point.stored.slice(0, point.active), current, ...point.stored.slice(point.active)];
  const chosen = all[version];
  const stored = all.filter((_, i) => i !== version);
  const kept = branches.filter((b) => b.at < at);
  return {
    ...path,
    messages: [...path.messages.slice(0, local), ...chosen.messages],
    branches: [...kept, { at, active: version, stored }, ...chosen.branches],
  };
}

/**
 * Removes `count` messages from `start` on the active path. Branch points inside the removed range go with it
 * (their other versions too); later ones move back by `count`, nested ones included. Returns `path` itself when the
 * range is empty or out of range.
 */
export function deleteFromPath<T extends BranchedPath>(path: T, start: number, count: number, offset = 0): T {
  const local = start - offset;
  if (count <= 0 || local < 0 || local + count > path.messages.length) return path;
  const end = start + count;
  const branches = (path.branches ?? []).filter((b) => b.at < start || b.at >= end);
  return {
    ...path,
    messages: [...path.messages.slice(0, local), ...path.messages.slice(local + count)],
    branches: orNone(branches.map((b) => (b.at >= end ? shifted(b, -count) : b))),
  };
}

function shifted(point: BranchPoint, by: number): BranchPoint {
  return {
    at: point.at + by,
    active: point.active,
    stored: point.stored.map((tail) => ({ messages: tail.messages, branches: tail.branches.map((b) => shifted(b, by)) })),
  };
}

/** After the path shrank to `length` messages (Retry's drop): branch points past its end cannot be reached. */
export function prunePath<T extends BranchedPath>(path: T): T {
  const length = path.messages.length;
  if (!path.branches?.some((b) => b.at > length)) return path;
  return { ...path, branches: orNone(path.branches.filter((b) => b.at <= length)) };
}

/**
 * The index where the last reply starts (the first message after the last user message), for Regenerate; undefined
 * when there is no user message or no reply after it. A compaction marker made as the reply began is not part of
 * it: it summarises only what came before, so it stays in force for the new version.
 */
export function lastReplyStart(messages: readonly AgentMessage[]): number | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role !== "user") continue;
    let start = i + 1;
    while (messages[start]?.role === "compaction") start++;
    return start < messages.length ? start : undefined;
  }
  return undefined;
}

/**
 * What deleting the message at `index` removes: it and what follows up to the next user message (the replies and
 * tool results that answered or depend on it), so the context the model gets stays well-formed.
 */
export function deletionRange(messages: readonly AgentMessage[], index: number): { start: number; count: number } {
  let end = index + 1;
  while (end < messages.length && messages[end].role !== "user") end++;
  return { start: index, count: end - index };
}
