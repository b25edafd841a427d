/**
 * A chat's record of its workspace's changes (issue 24 §1–§3), the worker's side: when to checkpoint, the timeline of
 * checkpoints (journaled as `workspace-checkpoint` records, so it survives a restart), and the changes view's
 * commands served from it (protocol/changes.ts).
 *
 * - Recording. The checkpoint store (shared-node/checkpoints/) is loaded and opened on first need only: an idle worker
 *   does not carry it. A run's start is checkpointed (the chat's first through `baseline()`, which works in slices in
 *   the background: the run's first model request does not wait for it; its first tool call does, so the state before
 *   the call is what was recorded). After each call that can change files another is taken: `write`/`edit` re-examine
 *   their path only, `bash`, MCP tools not marked read-only and a `subagent`'s whole task a full scan. The call's
 *   result then carries what it changed (`details.fileChanges`, for its card's ChangeStat).
 * - The timeline. Each checkpoint notes how many messages the chat had (`at`): "since message i" is the latest one
 *   taken before message i existed. A run starting at `at` makes the later ones (a version the user left by editing or
 *   rewinding) no longer count for that lookup; they stay in the chain, which is in time order, for authorship.
 * - Reverts (a turn, a file, a hunk), rewinds and redos restore through the store's conflict rule (a path changed
 *   outside since the agent's latest checkpoint is a conflict, and nothing is written until the user answers) and are
 *   recorded as checkpoints of their own, with an action id, so redo takes them back.
 * A workspace that cannot be recorded (no data folder, the store failing) turns recording off for the chat, which says so.
 */
import { lstatSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { randomUUID } from "node:crypto";
import type { CheckpointStore } from "../../../shared-node/checkpoints/checkpoint-store";
import type { Change } from "../../../shared-node/checkpoints/tree-diff";
import type { WorkspaceCheckpoint } from "../../../shared-node/session-files/workspace-checkpoint-record";
import type { WorkerCheckpointSettings, WorktreeStart } from "../../../shared/protocol/control-protocol";
import type {
  ChangeAuthor,
  ChangeConflict,
  ChangeSet,
  ChangesSince,
  ConflictAnswer,
  FileDiff,
  RevertResult,
  ToolFileChanges,
} from "../../../shared/protocol/changes";
import type { FileHistory } from "../../../shared/changes/diff-view";
import type { FileVersion } from "../../../shared/changes/attribution";
import type { FileContent } from "../../../shared/changes/file-content";
import { countChanges } from "../../../shared/changes/summary";

type Views = typeof import("./change-views");
let views: Promise<Views> | undefined;
/** The diff and attribution code, loaded on first use (change-views.ts). */
const loadViews = (): Promise<Views> => (views ??= import("./change-views"));
/** The checkpoint store's code, loaded on first need (an idle worker has none of it). */
let storeModule: Promise<typeof import("../../../shared-node/checkpoints/checkpoint-store")> | undefined;
const loadStore = () => (storeModule ??= import("../../../shared-node/checkpoints/checkpoint-store"));
import { errorText } from "../../../shared/error-text";

export interface WorkspaceChangesHost {
  sessionId: string;
  /** Paddock's data folder (the store lives in its `checkpoints/`); undefined: checkpoints are off. */
  dataFolder: string | undefined;
  /** The chat's workspace folder now (undefined: none). */
  workspace(): string | undefined;
  /** The active path's message count, and its messages (for "since this turn"). */
  messageCount(): number;
  userMessageIndexes(): number[];
  /** Journals a checkpoint (resolves once it is on disk). */
  journal(checkpoint: WorkspaceCheckpoint): Promise<void>;
  /** Tells the chat (once) that its checkpoints are off, and why. */
  off(reason: string): void;
  /** Settings → Checkpoints now (absent: on, the store's default largest file). Read at each store opening. */
  checkpointSettings(): WorkerCheckpointSettings | undefined;
  /** The git worktree the chat works in, if it does (its changes can be shown since the worktree's `base`). */
  worktree?: WorktreeStart;
}

/** Which calls can change files, and how to find out what they changed. */
export type CallScope = { paths: string[] } | "all" | null;

/**
 * What a call of `toolName` may have changed: its path (`write`, `edit`), anything (`bash`, an MCP tool, a subagent,
 * a task's worktree applied), nothing.
 */
export function callScope(toolName: string, args: unknown, isReadOnlyMcp: (name: string) => boolean | undefined): CallScope {
  if (toolName === "write" || toolName === "edit") {
    const path = typeof args === "object" && args !== null ? (args as { path?: unknown }).path : undefined;
    return typeof path === "string" && path !== "" ? { paths: [path] } : "all";
  }
  if (toolName === "bash" || toolName === "subagent") return "all";
  // The parent's `worktree` tool: an apply writes a task's changes into the workspace (keep and discard end the
  // task's worktree and branch only, outside it).
  if (toolName === "worktree") return typeof args === "object" && args !== null && (args as { action?: unknown }).action === "apply" ? "all" : null;
  const readOnly = isReadOnlyMcp(toolName);
  if (readOnly === undefined) return null; // a built-in tool that reads (read, ls, grep, find, calculate, wait)
  return readOnly ? null : "all";
}

/** What "since the worktree started" is measured from, in words. */
function baseNote(worktree: WorktreeStart): string {
  return `Compared with commit ${worktree.base.slice(0, 7)}, where the worktree's branch ${worktree.branch} started (what "Apply to workspace" brings over).`;
}

const OUTSIDE: ChangeAuthor = { kind: "tool", id: "", name: "outside", label: "changed outside the chat" };
const OFF_IN_SETTINGS = "Settings → Checkpoints turns them off";
const NOTE_IGNORED = "Files that .gitignore leaves out are not tracked.";
const NOTE_TOO_LARGE = "Some files are over the size limit: their changes are listed, without a copy to show or restore.";

export class WorkspaceChanges {
  private readonly timeline: WorkspaceCheckpoint[];
  private store: Promise<CheckpointStore | null> | null = null;
  private storeFolder: string | undefined;
  /** Whether the open store has taken its baseline (in this process). */
  private baselined = false;
  private offReason: string | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private runStart: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly host: WorkspaceChangesHost,
    loaded: readonly WorkspaceCheckpoint[] = [],
  ) {
    this.timeline = [...loaded];
  }

  /** Why checkpoints are off for this chat, if they are. */
  get off(): string | undefined {
    return this.offReason;
  }

  /**
   * The chat opened with a workspace: loads the store's code and opens the store (its saved state read) now, while the
   * user reads and types, so a run's first tool call, which waits for the run's start to be recorded, waits only for
   * the snapshot itself. Nothing is scanned until a run starts.
   */
  warm(): void {
    if (!this.host.workspace() || !this.host.dataFolder || this.host.checkpointSettings()?.enabled === false) return;
    if (this.host.worktree) {
      // A worktree chat: its folder is still the base commit's tree (main made it just now, or the chat has recorded
      // it before), so its state is recorded at once, before anything can change it: "since the worktree started".
      void this.enqueue(async () => {
        const store = await this.open();
        if (!store || this.chain(store.workspace).length > 0) return;
        const id = await store.baseline();
        this.baselined = true;
        await this.add({ id, workspace: store.workspace, at: this.host.messageCount(), cause: "run" });
      }).catch((error: unknown) => this.turnOff(`the workspace's state could not be recorded (${errorText(error)})`));
      return;
    }
    void this.enqueue(() => this.open()).catch(() => undefined);
  }

  /** A run starts: checkpoint the workspace (in the background; the run's first tool call waits for it). */
  runStarted(): void {
    if (!this.host.workspace()) return;
    const at = this.host.messageCount();
    this.runStart = this.enqueue(async () => {
      const store = await this.open();
      if (!store) return;
      const id = this.baselined ? await store.snapshot() : await store.baseline();
      this.baselined = true;
      await this.add({ id, workspace: store.workspace, at, cause: "run" });
    }).catch((error: unknown) => this.turnOff(`the workspace's state could not be recorded (${errorText(error)})`));
  }

  /** Resolves once the run's start is recorded: a tool call waits for it before it may change anything. */
  beforeCall(): Promise<unknown> {
    return this.runStart;
  }

  /**
   * After a call that may have changed files: checkpoints them and answers what changed (undefined when nothing did,
   * or nothing is recorded).
   */
  async afterCall(scope: CallScope, by: ChangeAuthor): Promise<ToolFileChanges | undefined> {
    if (scope === null || !this.host.workspace()) return undefined;
    const at = this.host.messageCount();
    return this.enqueue(async () => {
      const store = await this.open();
      const previous = this.latest();
      if (!store || !previous) return undefined;
      const id = await store.snapshot(scope === "all" ? {} : { paths: scope.paths });
      await this.add({ id, workspace: store.workspace, at, cause: "tool", by });
      const files = store.changes(previous.id, id).filter((c) => c.kind !== "dir");
      if (files.length === 0) return undefined;
      const { fileChange } = await loadViews();
      return countChanges(files.map((c) => fileChange(this.content(store, c, "before"), this.content(store, c, "after"))));
    }).catch((error: unknown) => {
      this.turnOff(`the workspace's state could not be recorded (${errorText(error)})`);
      return undefined;
    });
  }

  async listChanges(since: ChangesSince): Promise<ChangeSet> {
    return this.enqueue(async () => {
      const { store, chain } = await this.ready();
      const { AuthorTable, changedFileOf } = await loadViews();
      const [from, to] = since.kind === "range" ? this.bounds(chain, since.from, since.to) : [this.since(chain, since), chain[chain.length - 1]];
      const table = new AuthorTable();
      const histories = this.histories(store, chain, from, to);
      const files = histories.map((h) => changedFileOf(h, table)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      const notes = [NOTE_IGNORED];
      if (files.some((f) => f.tooLarge)) notes.push(NOTE_TOO_LARGE);
      if (since.kind === "base" && this.host.worktree) notes.unshift(baseNote(this.host.worktree));
      return { since, from: from.id, to: to.id, files, authors: table.authors, totals: countChanges(files), notes };
    });
  }

  async fileDiff(fromId: string, toId: string, path: string): Promise<FileDiff> {
    return this.enqueue(async () => {
      const { store, chain } = await this.ready();
      const [from, to] = this.bounds(chain, fromId, toId);
      const history = this.histories(store, chain, from, to, path).find((h) => h.path === path || h.oldPath === path);
      if (!history) throw new Error(`${path} did not change between these checkpoints`);
      return (await loadViews()).fileDiffOf(from.id, to.id, history);
    });
  }

  /** Takes back everything changed between two checkpoints (a turn; since a message), or only `paths`. */
  async revert(fromId: string, toId: string, paths: string[] | undefined, answer: ConflictAnswer | undefined): Promise<RevertResult> {
    return this.enqueue(async () => {
      const { store, chain } = await this.ready();
      const [from, to] = this.bounds(chain, fromId, toId);
      return this.revertBetween(store, chain, from, to, paths, answer, "revert");
    });
  }

  private async revertBetween(
    store: CheckpointStore,
    chain: WorkspaceCheckpoint[],
    from: WorkspaceCheckpoint,
    to: WorkspaceCheckpoint,
    paths: string[] | undefined,
    answer: ConflictAnswer | undefined,
    name: string,
  ): Promise<RevertResult> {
    // Unscoped, so a renamed file's old path comes with it.
    const changed = store.changes(from.id, to.id).filter((c) => !paths || paths.includes(c.path) || (c.from !== undefined && paths.includes(c.from)));
    let scope = [...new Set([...(paths ?? []), ...changed.flatMap((c) => (c.from ? [c.path, c.from] : [c.path]))])];
    if (scope.length === 0) return this.done(store, chain, name, [], [], [], []);
    // A file changed outside the chat since the range's start (the user's edit between runs, kept beside a reverted
    // hunk, or just now in their editor, which is recorded first) is the user's work too: taking the range back would
    // overwrite it, so it is a conflict to answer.
    await this.recordOutside(store, chain, scope);
    const outside = this.changedOutside(store, chain, from, chain[chain.length - 1], scope);
    if (outside.size > 0 && answer === undefined) {
      const { conflictOf } = await loadViews();
      const paths = [...outside.keys()].sort();
      return { done: false, conflicts: paths.map((path) => this.conflict(store, path, outside.get(path) ?? from.id, conflictOf)) };
    }
    let keptOutside: string[] = [];
    if (answer === "keep-mine" && outside.size > 0) {
      keptOutside = [...outside.keys()];
      scope = scope.filter((p) => !outside.has(p));
      if (scope.length === 0) return this.done(store, chain, name, [], [], keptOutside, []);
    }
    const result = await this.restore(store, chain, from.id, scope, answer, name, to.id);
    return result.done && keptOutside.length > 0 ? { ...result, kept: [...keptOutside, ...result.kept] } : result;
  }

  /**
   * The paths of `scope` that changes made outside the chat touched between `from` and `to` (checkpoints without an
   * author: a run's start, or what a takeback found first), each with the checkpoint before that change (the state
   * the chat had left it in, which a conflict shows against the disk).
   */
  private changedOutside(store: CheckpointStore, chain: WorkspaceCheckpoint[], from: WorkspaceCheckpoint, to: WorkspaceCheckpoint, scope: string[]): Map<string, string> {
    const found = new Map<string, string>();
    const start = chain.indexOf(from);
    const end = chain.indexOf(to);
    for (let k = start + 1; k <= end; k++) {
      const cur = chain[k];
      if (cur.by) continue;
      for (const c of store.changes(chain[k - 1].id, cur.id, { paths: scope })) {
        if (c.kind === "dir" && !c.kindBefore) continue;
        for (const p of c.from ? [c.path, c.from] : [c.path]) if (scope.includes(p) && !found.has(p)) found.set(p, chain[k - 1].id);
      }
    }
    return found;
  }

  /**
   * Before a takeback writes `paths`: records what changed there outside the chat since its latest checkpoint, as
   * a checkpoint of its own, so the takeback's checkpoint does not pass the user's edits off as the chat's.
   */
  private async recordOutside(store: CheckpointStore, chain: WorkspaceCheckpoint[], paths: string[]): Promise<void> {
    const latest = chain[chain.length - 1];
    const id = await store.snapshot({ paths });
    if (store.changes(latest.id, id, { paths }).length === 0) return;
    await this.add({ id, workspace: store.workspace, at: this.host.messageCount(), cause: "outside" });
    chain.push(this.timeline[this.timeline.length - 1]);
  }

  /** Takes back one hunk (by its header) of a file's change between two checkpoints, keeping the disk's other edits. */
  async revertHunk(fromId: string, toId: string, path: string, header: string, answer: ConflictAnswer | undefined): Promise<RevertResult> {
    return this.enqueue(async () => {
      const { store, chain } = await this.ready();
      const [from, to] = this.bounds(chain, fromId, toId);
      const history = this.histories(store, chain, from, to, path).find((h) => h.path === path);
      if (!history) throw new Error(`${path} did not change between these checkpoints`);
      const { attribute, conflictOf, findHunk, revertHunk } = await loadViews();
      const { hunks } = attribute(history.versions);
      const hunk = findHunk(hunks, header);
      if (!hunk) throw new Error(`${path} has no hunk ${header} between these checkpoints`);
      const agent = history.versions[history.versions.length - 1]?.content ?? null;
      if (typeof agent !== "string" && !(agent instanceof Uint8Array)) throw new Error(`${path} is not a text file the agent left: revert the whole file`);
      const agentText = typeof agent === "string" ? agent : new TextDecoder().decode(agent);
      const file = join(store.workspace, path);
      const disk = readDisk(file);
      const result = revertHunk(agentText, disk, hunk, { overwrite: answer === "overwrite" });
      if (result.kind === "conflict") {
        if (answer === "keep-mine") return this.done(store, chain, "revert", [], [], [path], []);
        return { done: false, conflicts: [conflictOf(path, agent, disk)] };
      }
      // The user's edits elsewhere in the file stay in it: recorded as theirs before the revert is recorded.
      await this.recordOutside(store, chain, [path]);
      const before = chain[chain.length - 1];
      const stat = lstatSync(file, { throwIfNoEntry: false });
      if (stat && !stat.isFile()) throw new Error(`${path} is not a regular file now`);
      // Never through a link: the folder it is in must still be inside the workspace.
      const parent = realpathSync(dirname(file));
      if (parent !== store.workspace && !parent.startsWith(`${store.workspace}${sep}`)) throw new Error(`${path} is no longer inside the workspace`);
      writeFileSync(file, result.text);
      return this.done(store, chain, "revert", [path], [path], [], [], before.id);
    });
  }

  /** Files back to the checkpoint before user message `index` (everything the agent changed since). */
  async rewindFiles(index: number, answer: ConflictAnswer | undefined): Promise<RevertResult> {
    return this.enqueue(async () => {
      const { store, chain } = await this.ready();
      return this.revertBetween(store, chain, this.since(chain, { kind: "message", index }), chain[chain.length - 1], undefined, answer, "rewind");
    });
  }

  /** Brings back what a revert, rewind or redo took away. */
  async redo(actionId: string, answer: ConflictAnswer | undefined): Promise<RevertResult> {
    return this.enqueue(async () => {
      const { store, chain } = await this.ready();
      const entry = chain.find((c) => c.action?.id === actionId);
      if (!entry?.action) throw new Error("There is nothing to redo by that id in this chat.");
      if (entry.action.paths.length === 0) return this.done(store, chain, "redo", [], [], [], []);
      return this.restore(store, chain, entry.action.before, entry.action.paths, answer, "redo");
    });
  }

  /** The chat's workspace changed: the next checkpoint is of the new folder (the old one's timeline stays on file). */
  async workspaceChanged(): Promise<void> {
    const old = this.store;
    this.store = null;
    this.storeFolder = undefined;
    this.baselined = false;
    this.offReason = undefined;
    await old?.then((s) => s?.close()).catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.queue.catch(() => undefined);
    await this.store?.then((s) => s?.close()).catch(() => undefined);
  }

  // ---- restore, record ----

  private async restore(
    store: CheckpointStore,
    chain: WorkspaceCheckpoint[],
    targetId: string,
    scope: string[],
    answer: ConflictAnswer | undefined,
    name: string,
    agentLeftId?: string,
  ): Promise<RevertResult> {
    const before = chain[chain.length - 1];
    const { conflictOf } = await loadViews();
    const conflict = (path: string, agentLeftId: string) => this.conflict(store, path, agentLeftId, conflictOf);
    let paths = scope;
    let kept: string[] = [];
    const force = answer === "overwrite" ? [""] : [];
    let result = await store.restore(targetId, { paths, expectedId: before.id, force });
    if (result.conflicts.length > 0) {
      if (answer !== "keep-mine") {
        return { done: false, conflicts: result.conflicts.map((c) => conflict(c.path, agentLeftId ?? before.id)) };
      }
      kept = result.conflicts.map((c) => c.path);
      paths = paths.filter((p) => !kept.some((k) => k === p || k.startsWith(`${p}/`)));
      result = paths.length > 0 ? await store.restore(targetId, { paths, expectedId: before.id }) : { conflicts: [], restored: [], skipped: [], paths: [] };
      if (result.conflicts.length > 0) return { done: false, conflicts: result.conflicts.map((c) => conflict(c.path, before.id)) };
    }
    const noCopy = result.skipped.filter((s) => s.reason === "too-large").map((s) => s.path);
    const reverted = result.restored.filter((r) => r.action !== "kept-folder" && r.action !== "created-folder").map((r) => r.path);
    return this.done(store, chain, name, result.paths, reverted, kept, noCopy, before.id);
  }

  /** Records a revert (or one that changed nothing) as a checkpoint with its action id. */
  private async done(
    store: CheckpointStore,
    chain: WorkspaceCheckpoint[],
    name: string,
    touched: string[],
    reverted: string[],
    kept: string[],
    noCopy: string[],
    beforeId = chain[chain.length - 1].id,
  ): Promise<RevertResult> {
    const actionId = randomUUID();
    if (touched.length > 0) {
      const id = await store.snapshot({ paths: touched });
      await this.add({
        id,
        workspace: store.workspace,
        at: this.host.messageCount(),
        cause: "revert",
        by: { kind: "revert", id: actionId, name },
        action: { id: actionId, before: beforeId, paths: touched },
      });
    }
    return { done: true, actionId, reverted, kept, noCopy };
  }

  private conflict(store: CheckpointStore, path: string, agentLeftId: string, conflictOf: Views["conflictOf"]): ChangeConflict {
    const first = this.timeline.find((c) => c.workspace === store.workspace);
    let agent: FileContent = null;
    if (first) {
      const change = store.changes(first.id, agentLeftId, { paths: [path] }).find((c) => c.path === path && c.kind !== "dir");
      if (change) agent = this.content(store, change, "after");
      else agent = readDisk(join(store.workspace, path)); // unchanged since the start: nothing to compare against
    }
    return conflictOf(path, agent, readDisk(join(store.workspace, path)));
  }

  // ---- the timeline ----

  private async add(checkpoint: WorkspaceCheckpoint): Promise<void> {
    this.timeline.push(checkpoint);
    await this.host.journal(checkpoint).catch(() => undefined);
  }

  /** The current workspace's checkpoints, in time order. */
  private chain(folder: string): WorkspaceCheckpoint[] {
    return this.timeline.filter((c) => c.workspace === folder);
  }

  private latest(): WorkspaceCheckpoint | undefined {
    const folder = this.storeFolder;
    return folder === undefined ? undefined : this.chain(folder).at(-1);
  }

  /** The checkpoint a change set starts from. */
  private since(chain: WorkspaceCheckpoint[], since: Exclude<ChangesSince, { kind: "range" }>): WorkspaceCheckpoint {
    if (since.kind === "base" && !this.host.worktree) throw new Error("This chat does not work in a worktree: there is no branch to compare with.");
    // The folder's first checkpoint: for a worktree chat, taken as it opened (warm), the base commit's tree.
    if (since.kind === "chat" || since.kind === "base") return chain[0];
    const index = since.kind === "message" ? since.index : (this.host.userMessageIndexes().at(-1) ?? 0);
    // The active path's checkpoints: a run starting at `at` ends the later ones' claim to their indexes.
    let found: WorkspaceCheckpoint | undefined;
    const live: WorkspaceCheckpoint[] = [];
    for (const c of chain) {
      if (c.cause === "run") while (live.length > 0 && live[live.length - 1].at > c.at) live.pop();
      live.push(c);
    }
    for (const c of live) if (c.at <= index) found = c;
    return found ?? chain[0];
  }

  private bounds(chain: WorkspaceCheckpoint[], fromId: string, toId: string): [WorkspaceCheckpoint, WorkspaceCheckpoint] {
    const from = chain.findIndex((c) => c.id === fromId);
    const to = chain.findIndex((c) => c.id === toId);
    if (from < 0 || to < 0) throw new Error("These checkpoints are not this chat's (the workspace may have changed since): list the changes again.");
    if (from > to) throw new Error("The changes' start comes after their end.");
    return [chain[from], chain[to]];
  }

  /** Each file changed between `from` and `to`, with its version after every call that changed it. */
  private histories(store: CheckpointStore, chain: WorkspaceCheckpoint[], from: WorkspaceCheckpoint, to: WorkspaceCheckpoint, only?: string): FileHistory[] {
    const net = store.changes(from.id, to.id, only ? { paths: [only] } : {}).filter((c) => c.kind !== "dir" || c.kindBefore);
    if (net.length === 0) return [];
    const wanted = new Set(net.flatMap((c) => (c.from ? [c.path, c.from] : [c.path])));
    const steps = new Map<string, FileVersion<ChangeAuthor>[]>();
    const start = chain.indexOf(from);
    const end = chain.indexOf(to);
    const scope = only ? [...wanted] : undefined;
    for (let k = start + 1; k <= end; k++) {
      const prev = chain[k - 1];
      const cur = chain[k];
      const by = cur.by ?? OUTSIDE;
      for (const c of store.changes(prev.id, cur.id, scope ? { paths: scope } : {})) {
        if (c.kind === "dir" && !c.kindBefore) continue;
        if (wanted.has(c.path)) push(steps, c.path, { content: this.content(store, c, "after"), by });
        if (c.from && wanted.has(c.from)) push(steps, c.from, { content: null, by });
      }
    }
    return net.map((c): FileHistory => {
      const startContent = this.content(store, c, "before");
      const versions: FileVersion<ChangeAuthor>[] = [{ content: startContent }, ...(steps.get(c.path) ?? [])];
      if (versions.length === 1) versions.push({ content: this.content(store, c, "after"), by: OUTSIDE });
      return {
        path: c.path,
        ...(c.from ? { oldPath: c.from, status: "renamed" as const } : {}),
        ...(c.kind === "symlink" ? { symlink: true } : {}),
        versions,
      };
    });
  }

  /** One side of a change as the changes view reads it. */
  private content(store: CheckpointStore, change: Change, side: "before" | "after"): FileContent {
    const exists = side === "before" ? change.status !== "added" : change.status !== "deleted";
    if (!exists) return null;
    const kind = side === "before" ? (change.kindBefore ?? change.kind) : change.kind;
    if (kind === "dir") return null;
    if (kind === "symlink") return change[side] ?? "";
    if (side === "before" ? change.tooLargeBefore : change.tooLargeAfter) {
      return { tooLarge: true, size: (side === "before" ? change.sizeBefore : change.sizeAfter) ?? 0 };
    }
    const blob = change[side];
    return blob ? new Uint8Array(store.read(blob)) : new Uint8Array(0);
  }

  // ---- the store ----

  private async ready(): Promise<{ store: CheckpointStore; chain: WorkspaceCheckpoint[] }> {
    const store = await this.open();
    if (!store) throw new Error(`Checkpoints are off for this chat: ${this.offReason ?? "it has no workspace"}.`);
    if (!this.baselined) {
      // A restarted worker: the store takes its state as it finds it now.
      const id = await store.baseline();
      this.baselined = true;
      if (this.chain(store.workspace).length === 0) await this.add({ id, workspace: store.workspace, at: this.host.messageCount(), cause: "run" });
    }
    const chain = this.chain(store.workspace);
    if (chain.length === 0) throw new Error("This chat has not recorded its workspace yet.");
    return { store, chain };
  }

  private open(): Promise<CheckpointStore | null> {
    const folder = this.host.workspace();
    const settings = this.host.checkpointSettings();
    if (settings?.enabled === false) {
      this.turnOff(OFF_IN_SETTINGS);
      return Promise.resolve(null);
    }
    if (this.offReason === OFF_IN_SETTINGS) {
      // Turned on again in Settings: record from here (a new baseline), and say so no longer.
      this.offReason = undefined;
      this.store = null;
    }
    if (this.offReason !== undefined && this.storeFolder === folder) return Promise.resolve(null);
    if (this.store && this.storeFolder === folder) return this.store;
    this.storeFolder = folder;
    this.baselined = false;
    const dataFolder = this.host.dataFolder;
    if (!folder) return (this.store = Promise.resolve(null));
    if (!dataFolder) {
      this.turnOff("Paddock's data folder is not known to this chat");
      return (this.store = Promise.resolve(null));
    }
    this.store = loadStore().then(
      ({ openCheckpointStore }) =>
        openCheckpointStore(dataFolder, folder, this.host.sessionId, settings ? { maxFileBytes: settings.maxFileBytes } : {}),
      (error: unknown) => {
        this.turnOff(errorText(error));
        return null;
      },
    );
    this.store = this.store.catch((error: unknown) => {
      this.turnOff(errorText(error));
      return null;
    });
    return this.store;
  }

  private turnOff(reason: string): void {
    if (this.offReason !== undefined) return;
    this.offReason = reason;
    this.host.off(`Checkpoints are off for this chat: ${reason}. Its changes cannot be reviewed or taken back.`);
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** A file on disk now, as the changes view reads a version (absent: null; not a regular file: its path's absence). */
function readDisk(file: string): FileContent {
  const stat = lstatSync(file, { throwIfNoEntry: false });
  if (!stat) return null;
  if (stat.isSymbolicLink()) return null;
  if (!stat.isFile()) return null;
  return new Uint8Array(readFileSync(file));
}
