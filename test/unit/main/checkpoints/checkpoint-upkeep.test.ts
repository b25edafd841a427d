/**
 * Main's clean-up of the checkpoint store on real folders: a deleted chat's checkpoints (and its subagents') removed
 * and swept, the storage limit held oldest first across chats with what was dropped kept and reported, "Clear all"
 * sparing the latest checkpoint of a chat whose agent runs, and failures said in words, never thrown at the caller.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openCheckpointStore } from "../../../../src/shared-node/checkpoints/checkpoint-store";
import { listCheckpoints, listSessions } from "../../../../src/shared-node/checkpoints/checkpoint-refs";
import { checkpointsRoot, checkpointStoreBytes } from "../../../../src/shared-node/checkpoints/maintenance";
import { CheckpointUpkeep, dropReportFile, type CheckpointUpkeepOptions } from "../../../../src/main/checkpoints/checkpoint-upkeep";
import { inlineRunner, type MaintenanceRunner } from "../../../../src/main/checkpoints/maintenance-ops";
import { dropReportText } from "../../../../src/shared/protocol/checkpoint-storage";

let base: string;
let data: string;
const upkeeps: CheckpointUpkeep[] = [];

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "paddock-upkeep-"));
  data = join(base, "data");
  mkdirSync(data);
});

afterEach(async () => {
  for (const u of upkeeps.splice(0)) await u.dispose();
  rmSync(base, { recursive: true, force: true });
});

function upkeep(options: Partial<CheckpointUpkeepOptions> = {}): CheckpointUpkeep {
  const u = new CheckpointUpkeep({ dataDir: data, limitBytes: () => 1 << 30, liveSessions: () => [], notify: () => {}, graceMs: 0, ...options });
  upkeeps.push(u);
  return u;
}

/** `session` records its own workspace `count` times, a new random 10,000-byte file each time; returns the ids. */
async function record(session: string, count: number): Promise<string[]> {
  const ws = join(base, `ws-${session}`);
  mkdirSync(ws, { recursive: true });
  const store = openCheckpointStore(data, ws, session);
  const ids = [await store.baseline()];
  for (let i = 0; i < count - 1; i++) {
    writeFileSync(join(ws, "data.bin"), randomBytes(10_000));
    ids.push(await store.snapshot({ paths: ["data.bin"] }));
  }
  await store.close();
  return ids;
}

const root = () => checkpointsRoot(data);

describe("main's checkpoint upkeep", () => {
  it("removes a deleted chat's checkpoints and its subagents', sweeping what only they reached", async () => {
    await record("chat-1", 3);
    await record("sub-of-1", 2);
    const kept = await record("chat-2", 2);
    const before = checkpointStoreBytes(data);
    expect(await upkeep().removeChats(["chat-1", "sub-of-1"])).toBe(true);
    expect(listSessions(root()).sort()).toEqual(["chat-2"]);
    expect(existsSync(join(root(), "sessions", "chat-1"))).toBe(false);
    expect(listCheckpoints(root(), "chat-2").map((r) => r.id)).toEqual(kept);
    expect(checkpointStoreBytes(data)).toBeLessThan(before - 30_000);
  });

  it("holds the store under the limit oldest first across chats, keeps what it dropped, and shows it with the store's use", async () => {
    const a = await record("chat-a", 4);
    const sub = await record("sub-of-a", 3);
    const b = await record("chat-b", 3);
    const limitBytes = 32_000;
    const u = upkeep({ limitBytes: () => limitBytes, chatOf: (s) => (s === "sub-of-a" ? "chat-a" : s) });
    const before = Date.now();
    expect(await u.enforceLimit()).toBe(true);
    expect(checkpointStoreBytes(data)).toBeLessThanOrEqual(limitBytes);
    // Each session keeps its newest; what went were the oldest.
    expect(listCheckpoints(root(), "chat-a").map((r) => r.id)).toEqual(a.slice(-1));
    expect(listCheckpoints(root(), "sub-of-a").map((r) => r.id)).toEqual(sub.slice(-1));
    expect(listCheckpoints(root(), "chat-b").map((r) => r.id)).toEqual(b.slice(-1));
    const status = await u.status();
    expect(status.bytes).toBe(checkpointStoreBytes(data));
    expect(status.limitBytes).toBe(limitBytes);
    expect(status.lastDrop).toMatchObject({ reason: "limit", chats: 2, checkpoints: 3 + 2 + 2, limitBytes });
    expect(status.lastDrop!.at).toBeGreaterThanOrEqual(before);
    expect(status.lastDrop!.freedBytes).toBeGreaterThan(35_000);
    expect(dropReportText(status.lastDrop!)).toBe("Dropped the oldest checkpoints of 2 chats to stay under 31.3 KB");
    // Kept across a restart.
    expect(JSON.parse(readFileSync(dropReportFile(data), "utf8")).lastDrop).toEqual(status.lastDrop);
    expect((await upkeep().status()).lastDrop).toEqual(status.lastDrop);
  });

  it("drops nothing, and reports nothing, while the store fits", async () => {
    await record("chat-a", 3);
    const u = upkeep();
    expect(await u.enforceLimit()).toBe(true);
    expect(listCheckpoints(root(), "chat-a")).toHaveLength(3);
    expect((await u.status()).lastDrop).toBeUndefined();
    expect(existsSync(dropReportFile(data))).toBe(false);
  });

  it("checks the limit once, a while after the last of several runs ends", async () => {
    await record("chat-a", 3);
    const runs: string[] = [];
    const runner: MaintenanceRunner = { run: (op, ...args) => (runs.push(op), inlineRunner.run(op, ...args)), dispose: async () => {} };
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const u = upkeep({ runner, debounceMs: 1000, limitBytes: () => 1 });
      u.scheduleLimit();
      vi.advanceTimersByTime(600);
      u.scheduleLimit();
      vi.advanceTimersByTime(600);
      expect(runs).toEqual([]);
      vi.advanceTimersByTime(500);
    } finally {
      vi.useRealTimers();
    }
    await vi.waitFor(() => expect(listCheckpoints(root(), "chat-a")).toHaveLength(1));
    expect(runs).toEqual(["enforceLimit"]);
  });

  it("clears every chat's checkpoints but the latest of a chat whose agent runs", async () => {
    await record("closed", 3);
    const running = await record("running", 3);
    const u = upkeep({ liveSessions: () => ["running"] });
    const status = await u.clearAll();
    expect(listSessions(root())).toEqual(["running"]);
    expect(listCheckpoints(root(), "running").map((r) => r.id)).toEqual(running.slice(-1));
    expect(status.lastDrop).toMatchObject({ reason: "clear", chats: 2, checkpoints: 3 + 2 });
    expect(status.bytes).toBe(checkpointStoreBytes(data));
    expect(dropReportText(status.lastDrop!)).toMatch(/^Cleared all checkpoints \(\d+(\.\d)? KB freed\)$/);
  });

  it("says a failure in words and resolves, so what asked for it (a chat's delete) stays done", async () => {
    const notices: string[] = [];
    const runner: MaintenanceRunner = {
      run: (op, ...args) => (op === "bytes" ? inlineRunner.run(op, ...args) : Promise.reject(new Error("EACCES: permission denied, rmdir '/x'"))),
      dispose: async () => {},
    };
    const u = upkeep({ runner, notify: (t) => notices.push(t) });
    expect(await u.removeChats(["chat-1"])).toBe(false);
    expect(notices).toEqual(["Could not remove a deleted chat's checkpoints: EACCES: permission denied, rmdir '/x'"]);
    expect((await u.status()).problem).toBe(notices[0]);
    await expect(u.clearAll()).rejects.toThrow("Could not clear the checkpoints: EACCES");
  });

  it("leaves a clean-up another process is running to a later try, unsaid", async () => {
    await record("chat-a", 2);
    mkdirSync(join(root(), "maintenance.lock"));
    const notices: string[] = [];
    const u = upkeep({ notify: (t) => notices.push(t), debounceMs: 60_000 });
    expect(await u.removeChats(["chat-a"])).toBe(false);
    expect(notices).toEqual([]);
    expect((await u.status()).problem).toBeUndefined();
    await expect(u.clearAll()).rejects.toThrow("Another clean-up of the checkpoints is running: try again in a moment.");
  });

  it("sets aside a damaged record of drops and says so once", async () => {
    writeFileSync(dropReportFile(data), "{ not json");
    const u = upkeep();
    expect(u.notices).toHaveLength(1);
    expect(u.notices[0]).toMatch(/^The record of dropped checkpoints was unreadable/);
    expect((await u.status()).lastDrop).toBeUndefined();
  });
});
