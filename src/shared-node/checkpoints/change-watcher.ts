/**
 * Which paths changed since the last full look, told by the system (inotify, FSEvents, ReadDirectoryChangesW through
 * `fs.watch`), so that the checkpoint after a shell command re-examines only those instead of lstat'ing the whole
 * tree (a stat walk of 45,000 files costs what git's own `add -A` costs; see docs/checkpoints.md).
 *
 * Linux watches folder by folder: the scanner calls `watchDir` for each folder it is about to read (before reading
 * it, so a change right after the read is still told), and re-watches a folder whose inode changed (removed and made
 * again). macOS and Windows watch the whole tree with one recursive watcher.
 *
 * The watcher is only a narrowing: whenever it cannot be sure (a watch could not be set, too many folders, a burst of
 * events large enough that the system's queue may have overflowed, an event without a name) `take` answers null and
 * the caller does a full scan, which is always right.
 */
import { watch, type FSWatcher } from "node:fs";
import { join } from "node:path";

export interface ChangeWatcherOptions {
  /** More folders than this: give up (full scans). Default 50,000. */
  maxWatches?: number;
  /** More events than this between two takes: the system's queue may have overflowed; full scan. Default 4,000. */
  maxEvents?: number;
}

export class ChangeWatcher {
  private readonly watchers = new Map<string, { watcher: FSWatcher; ino: number }>();
  private dirty = new Set<string>();
  private events = 0;
  private sure = true;
  private broken = false;
  private readonly recursive = process.platform === "darwin" || process.platform === "win32";
  private readonly maxWatches: number;
  private readonly maxEvents: number;

  constructor(
    private readonly workspace: string,
    options: ChangeWatcherOptions = {},
  ) {
    this.maxWatches = options.maxWatches ?? 50_000;
    this.maxEvents = options.maxEvents ?? 4_000;
  }

  /** Watches the folder `rel` ("" = the root), whose inode is `ino`; again if it is another folder than before. */
  watchDir(rel: string, ino: number): void {
    if (this.broken) return;
    if (this.recursive && rel !== "") return;
    const known = this.watchers.get(rel);
    if (known?.ino === ino) return;
    known?.watcher.close();
    if (this.watchers.size >= this.maxWatches) return this.giveUp();
    try {
      const watcher = watch(rel === "" ? this.workspace : join(this.workspace, rel), { persistent: false, recursive: this.recursive }, (event, name) => {
        this.events++;
        if (name === null || name === undefined) {
          this.sure = false;
          return;
        }
        const child = process.platform === "win32" ? String(name).split("\\").join("/") : String(name);
        const path = rel === "" ? child : `${rel}/${child}`;
        this.dirty.add(path);
        // A folder removed, moved or made again: its watches (and those under it) watch what is gone, even where
        // the new folder got the same inode number; the scan that reads it again watches it again.
        if (event === "rename" && this.watchers.has(path)) this.unwatchTree(path);
      });
      watcher.on("error", () => {
        // The folder went (or the system dropped the watch): what it held is looked at again.
        watcher.close();
        if (this.watchers.get(rel)?.watcher === watcher) this.watchers.delete(rel);
        this.dirty.add(rel);
      });
      this.watchers.set(rel, { watcher, ino });
    } catch {
      this.giveUp();
    }
  }

  /** Stops watching `rel` and every folder under it (they are no longer in the workspace's state). */
  unwatchTree(rel: string): void {
    for (const [path, { watcher }] of this.watchers) {
      if (rel === "" || path === rel || path.startsWith(`${rel}/`)) {
        watcher.close();
        this.watchers.delete(path);
      }
    }
  }

  /**
   * The paths changed since the last take, after the events already queued were delivered; null when the watcher
   * cannot be sure (the caller scans everything). Either way the next take starts afresh.
   */
  async take(): Promise<string[] | null> {
    // A timer turn then an immediate: one full pass of the event loop's poll phase, which reads the queued events.
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    await new Promise<void>((resolve) => setImmediate(resolve));
    const sure = this.sure && !this.broken && this.events <= this.maxEvents;
    const dirty = [...this.dirty];
    this.dirty = new Set();
    this.events = 0;
    this.sure = true;
    return sure ? dirty : null;
  }

  get watching(): boolean {
    return !this.broken;
  }

  get size(): number {
    return this.watchers.size;
  }

  close(): void {
    for (const { watcher } of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private giveUp(): void {
    this.broken = true;
    this.close();
  }
}
