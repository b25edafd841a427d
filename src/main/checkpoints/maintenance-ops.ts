/**
 * The checkpoint store's clean-up as main runs it: the store's own maintenance (shared-node/checkpoints/maintenance.ts)
 * in a few plain operations, each answering plain data. Synchronous file work: main runs them off its event loop
 * (`CheckpointUpkeep`, through a `MaintenanceRunner`), never on a page's call path.
 */
import { listCheckpoints, listSessions, dropSession } from "../../shared-node/checkpoints/checkpoint-refs";
import { checkpointsRoot, checkpointStoreBytes, enforceCheckpointSizeLimit, sweepCheckpoints } from "../../shared-node/checkpoints/maintenance";

export interface DroppedFrom {
  /** The sessions that lost checkpoints, and how many each lost. */
  sessions: Record<string, number>;
  bytesBefore: number;
  bytesAfter: number;
  withinLimit: boolean;
}

export const MAINTENANCE_OPS = {
  /** The store's size in bytes. */
  bytes(dataDir: string): number {
    return checkpointStoreBytes(dataDir);
  },

  /** Removes these sessions' checkpoints, then what nothing reaches any more. */
  removeSessions(dataDir: string, sessions: readonly string[], graceMs: number): { removedBytes: number } {
    const root = checkpointsRoot(dataDir);
    for (const session of sessions) dropSession(root, session);
    return { removedBytes: sweepCheckpoints(dataDir, { graceMs }).removedBytes };
  },

  /** Holds the store under `maxBytes`, oldest checkpoints first (each session keeps its newest). */
  enforceLimit(dataDir: string, maxBytes: number, graceMs: number): DroppedFrom {
    const result = enforceCheckpointSizeLimit(dataDir, maxBytes, { graceMs });
    const sessions: Record<string, number> = {};
    for (const r of result.dropped) sessions[r.session] = (sessions[r.session] ?? 0) + 1;
    return { sessions, bytesBefore: result.bytesBefore, bytesAfter: result.bytesAfter, withinLimit: result.withinLimit };
  },

  /**
   * "Clear all": every session's checkpoints go, except the newest of those in `keepNewest` (a running agent's
   * store builds on its latest checkpoint), then what nothing reaches any more.
   */
  clearAll(dataDir: string, keepNewest: readonly string[], graceMs: number): DroppedFrom {
    const root = checkpointsRoot(dataDir);
    const bytesBefore = checkpointStoreBytes(dataDir);
    const keep = new Set(keepNewest);
    const sessions: Record<string, number> = {};
    for (const session of listSessions(root)) {
      if (keep.has(session)) continue;
      const count = listCheckpoints(root, session).length;
      dropSession(root, session);
      if (count > 0) sessions[session] = count;
    }
    // What the kept sessions hold beyond their newest goes too: a limit of 0 drops every droppable checkpoint.
    const rest = enforceCheckpointSizeLimit(dataDir, 0, { graceMs });
    for (const r of rest.dropped) sessions[r.session] = (sessions[r.session] ?? 0) + 1;
    return { sessions, bytesBefore, bytesAfter: rest.bytesAfter, withinLimit: true };
  },
};

export type MaintenanceOps = typeof MAINTENANCE_OPS;
export type MaintenanceOp = keyof MaintenanceOps;

/** Runs one operation somewhere off main's event loop (a worker thread), or at least after the current call. */
export interface MaintenanceRunner {
  run<K extends MaintenanceOp>(op: K, ...args: Parameters<MaintenanceOps[K]>): Promise<ReturnType<MaintenanceOps[K]>>;
  dispose(): Promise<void>;
}

/** The operations in main's own thread, each after the current call has returned (tests; a host without the thread). */
export const inlineRunner: MaintenanceRunner = {
  run: async (op, ...args) => {
    await new Promise((resolve) => setImmediate(resolve));
    return (MAINTENANCE_OPS[op] as (...a: unknown[]) => never)(...args);
  },
  dispose: async () => {},
};
