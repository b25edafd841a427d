/**
 * Paddock's data folder is its user's alone: folders 0700, files 0600, for what Paddock writes now (settings, keys,
 * transcripts, attachments, the compile cache) and for what an older Paddock left behind readable by every local user
 * (0755 folders, 0644 files), fixed when the core starts. Links and what they lead to are never changed: a workspace's
 * files keep their modes. POSIX only (Windows protects files otherwise, and the pass does nothing there).
 */
import { chmodSync, mkdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCore, type Core } from "../../src/main/broker/core";
import { NodeWorkerLauncher } from "../../src/main/broker/node-worker-launcher";
import { plaintextDevCipher } from "../../src/main/broker/secrets";
import { AttachmentStore } from "../../src/agent-worker/host/attachments/attachment-store";
import { TempFolders } from "../../testkit/temp-folders";
import { WORKER_FILE } from "../../testkit/worker-harness";

const temp = new TempFolders("paddock-modes-");
let dir: string;
let core: Core<never> | undefined;
let umask: number;

beforeEach(() => {
  dir = temp.make();
  // Most systems' default: without care, new files would be 0644 and folders 0755.
  umask = process.umask(0o022);
});
afterEach(async () => {
  await core?.shutdown();
  core = undefined;
  process.umask(umask);
  temp.removeAll();
});

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

function start(): Promise<Core<never>> {
  return createCore({ dataDir: dir, launcher: new NodeWorkerLauncher(WORKER_FILE), sessionTransport: "websocket", cipher: plaintextDevCipher, keepSpare: false, openSession: async () => {} }).then((c) => (core = c));
}

describe.skipIf(process.platform === "win32")("the data folder's modes", () => {
  it("an older Paddock's folder, readable by every local user, is the user's alone once the core starts", async () => {
    const id = "11111111-2222-3333-4444-555555555555";
    const workspace = temp.make({ "notes.txt": "the user's\n" });
    chmodSync(join(workspace, "notes.txt"), 0o644);
    // As an older version left it (with the usual umask of 022).
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, "secrets.json"), JSON.stringify({ version: 2, keys: {} }), { mode: 0o644 });
    writeFileSync(join(dir, "web-host.json"), "{}", { mode: 0o644 });
    mkdirSync(join(dir, "sessions", id, "attachments"), { recursive: true, mode: 0o755 });
    chmodSync(join(dir, "sessions"), 0o755);
    writeFileSync(join(dir, "sessions", "index.json"), JSON.stringify({ version: 1, sessions: [] }), { mode: 0o644 });
    writeFileSync(join(dir, "sessions", `${id}.jsonl`), "", { mode: 0o644 });
    // Links in the data folder (a chat's workspace linked there, say) are not followed: their targets keep their modes.
    symlinkSync(join(workspace, "notes.txt"), join(dir, "linked-notes.txt"));
    symlinkSync(workspace, join(dir, "sessions", "linked-workspace"));

    await start();
    expect(modeOf(dir)).toBe("700");
    expect(modeOf(join(dir, "secrets.json"))).toBe("600");
    expect(modeOf(join(dir, "web-host.json"))).toBe("600");
    expect(modeOf(join(dir, "sessions"))).toBe("700");
    expect(modeOf(join(dir, "sessions", "index.json"))).toBe("600");
    expect(modeOf(join(dir, "sessions", `${id}.jsonl`))).toBe("600");
    expect(modeOf(join(dir, "sessions", id))).toBe("700");
    expect(modeOf(workspace)).toBe("700"); // as TempFolders made it: untouched
    expect(modeOf(join(workspace, "notes.txt"))).toBe("644");
  });

  it("creates settings, keys, transcripts, attachments and the compile cache for the user alone", async () => {
    const c = await start();
    c.settings.update({ theme: "dark" });
    await c.service.setApiKey("anthropic", "sk-test");
    const chat = await c.service.createSession();
    // The worker opens the chat's transcript when it takes the chat.
    await c.broker.attach(chat.id, "viewer");
    await new AttachmentStore(join(c.broker.sessionDir(chat.id), "attachments")).put("notes.txt", "text/plain", Buffer.from("hi").toString("base64"));
    expect(modeOf(dir)).toBe("700");
    expect(modeOf(join(dir, "settings.json"))).toBe("600");
    expect(modeOf(join(dir, "secrets.json"))).toBe("600");
    expect(modeOf(join(dir, "sessions"))).toBe("700");
    expect(modeOf(c.broker.transcriptFile(chat.id))).toBe("600");
    expect(modeOf(c.broker.sessionDir(chat.id))).toBe("700");
    expect(modeOf(join(c.broker.sessionDir(chat.id), "attachments"))).toBe("700");
    expect(modeOf(c.files.compileCacheDir)).toBe("700");
    await c.index.flush();
    expect(modeOf(c.files.sessionIndexFile)).toBe("600");
  });
});
