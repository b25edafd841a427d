/**
 * Main's part of the checkpoint store with the real core (createCore, built workers, the built clean-up thread): a
 * deleted chat's checkpoints (and its subagent's) go once the undo window is over, not before; the storage limit
 * drops the oldest checkpoints first across chats, after a run ends or when the limit is lowered, and Settings get
 * what was dropped, with the date, and the store's use; "Clear all" empties it.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Core } from "../../src/main/broker/core";
import { openCheckpointStore } from "../../src/shared-node/checkpoints/checkpoint-store";
import { listCheckpoints, listSessions } from "../../src/shared-node/checkpoints/checkpoint-refs";
import { checkpointsRoot } from "../../src/shared-node/checkpoints/maintenance";
import { dropReportText } from "../../src/shared/protocol/checkpoint-storage";
import { SessionClient } from "../../src/renderer/store/session-client";
import { startOpenAIServer, type OpenAITestServer } from "../../src/web-host/openai-test-server";
import { askInNewChat, CHECKPOINT_MAINTENANCE_FILE, createTestCore } from "../../testkit/test-core";
import { Worker } from "node:worker_threads";

const MB = 1024 * 1024;
let dir: string;
let data: string;
let workspace: string;
let core: Core<never> | undefined;
let server: OpenAITestServer | undefined;
const clients: SessionClient[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "paddock-checkpoint-upkeep-"));
  data = join(dir, "data");
  workspace = join(dir, "workspace");
  mkdirSync(workspace);
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await core?.shutdown();
  core = undefined;
  await server?.close();
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function start(): Promise<Core<never>> {
  server = await startOpenAIServer({ models: ["test-model"] });
  const baseUrl = server.baseUrl;
  core = await createTestCore({
    dataDir: data,
    timing: { undoWindowMs: 300, graceMs: 0, debounceMs: 200, startDelayMs: 60_000 },
    prepareSettings: (settings) =>
      settings.update({
        customProviders: [{ id: "loopback", name: "Loopback", baseUrl, models: ["test-model"] }],
        defaultModel: { provider: "custom:loopback", id: "test-model" },
      }),
  });
  return core;
}

/** `session` records the workspace's `big.bin` as `sizes` random files one after another (MB each); returns the ids. */
async function record(session: string, sizes: number[]): Promise<string[]> {
  const ws = join(workspace, session);
  mkdirSync(ws, { recursive: true });
  const store = openCheckpointStore(data, ws, session, { maxFileBytes: 64 * MB });
  const ids: string[] = [];
  for (const [i, size] of sizes.entries()) {
    writeFileSync(join(ws, "big.bin"), randomBytes(size * MB));
    ids.push(i === 0 ? await store.baseline() : await store.snapshot({ paths: ["big.bin"] }));
  }
  await store.close();
  return ids;
}

const root = () => checkpointsRoot(data);

describe("the checkpoint store's upkeep in the real core", () => {
  it("removes a deleted chat's checkpoint folder, and its subagent's, once the undo window is over", async () => {
    const c = await start();
    const chat = await c.service.createSession();
    const other = await c.service.createSession();
    c.index.upsert({ id: "sub-1", title: "scout (subagent)", created: 1, updated: 1, messageCount: 0, parent: { sessionId: chat.id, toolCallId: "c1", agent: "scout" } });
    await record(chat.id, [1, 1]);
    await record("sub-1", [1]);
    await record(other.id, [1]);
    const folder = join(root(), "sessions", chat.id);
    expect(existsSync(folder)).toBe(true);
    // The store's folder is made at start, for the user alone (what it holds are copies of workspaces' files).
    if (process.platform !== "win32") expect(statSync(root()).mode & 0o777).toBe(0o700);

    await c.service.deleteSession(chat.id);
    // Within the undo window nothing goes, and undo brings the chat back with its checkpoints.
    await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(folder)).toBe(true);
    await c.service.restoreSession(chat.id);
    await new Promise((r) => setTimeout(r, 700));
    expect(listSessions(root()).sort()).toEqual([chat.id, other.id, "sub-1"].sort());

    await c.service.deleteSession(chat.id);
    await vi.waitFor(() => expect(existsSync(folder)).toBe(false), { timeout: 5000, interval: 50 });
    expect(listSessions(root())).toEqual([other.id]);
    expect(await c.service.takeNotices()).toEqual([]);
  });

  it("drops the oldest checkpoints first across chats when a run ends over the limit, and Settings show it", async () => {
    const c = await start();
    await c.service.updateSettings({ checkpoints: { storageLimitMB: 100 } });
    // Chat A's first state is the oldest; B's is newer. 120 MB in all; each chat's newest (60 MB) always stays.
    const a = await record("chat-a", [30, 30]);
    const b = await record("chat-b", [30, 30]);
    const before = Date.now();
    expect((await c.service.checkpointStorage()).lastDrop).toBeUndefined();
    // A run ending (any chat's) checks the limit a moment later.
    await askInNewChat(c, "hello", clients);
    await vi.waitFor(async () => expect((await c.service.checkpointStorage()).lastDrop).toBeDefined(), { timeout: 10_000, interval: 100 });
    expect(listCheckpoints(root(), "chat-a").map((r) => r.id)).toEqual(a.slice(1));
    expect(listCheckpoints(root(), "chat-b").map((r) => r.id)).toEqual(b);
    const status = await c.service.checkpointStorage();
    expect(status.bytes).toBeLessThanOrEqual(100 * MB);
    expect(status.bytes).toBeGreaterThan(80 * MB);
    expect(status.limitBytes).toBe(100 * MB);
    expect(status.lastDrop!.at).toBeGreaterThanOrEqual(before);
    expect(dropReportText(status.lastDrop!)).toBe("Dropped the oldest checkpoints of 1 chat to stay under 100 MB");

    // "Clear all": nothing of closed chats is left.
    const cleared = await c.service.clearCheckpoints();
    expect(listSessions(root())).toEqual([]);
    expect(cleared.bytes).toBeLessThan(1 * MB);
    expect(cleared.lastDrop).toMatchObject({ reason: "clear", chats: 2, checkpoints: 3 });
  });

  it("runs the clean-up in the built thread, which refuses what is not one of its operations", async () => {
    await record("chat-a", [1]);
    const thread = new Worker(CHECKPOINT_MAINTENANCE_FILE);
    try {
      const answers: unknown[] = [];
      thread.on("message", (m) => answers.push(m));
      thread.postMessage({ id: 1, op: "bytes", args: [data] });
      thread.postMessage({ id: 2, op: "constructor", args: [] });
      await vi.waitFor(() => expect(answers).toHaveLength(2));
      expect(answers[0]).toEqual({ id: 1, result: expect.any(Number) });
      expect((answers[0] as { result: number }).result).toBeGreaterThan(MB);
      expect(answers[1]).toEqual({ id: 2, error: "no such clean-up: constructor" });
    } finally {
      await thread.terminate();
    }
  });

  it("checks the limit at once when Settings lower it", async () => {
    const c = await start();
    await record("chat-a", [40, 40]);
    await record("chat-b", [40]);
    await c.service.updateSettings({ checkpoints: { storageLimitMB: 100 } });
    await vi.waitFor(async () => expect((await c.service.checkpointStorage()).lastDrop?.chats).toBe(1), { timeout: 10_000, interval: 100 });
    expect(listCheckpoints(root(), "chat-a")).toHaveLength(1);
    expect(listCheckpoints(root(), "chat-b")).toHaveLength(1);
  });
});
