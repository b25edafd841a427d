import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AppService, toWorkerSettings } from "../../../../src/main/broker/app-service";
import { CheckpointUpkeep } from "../../../../src/main/checkpoints/checkpoint-upkeep";
import { openCheckpointStore } from "../../../../src/shared-node/checkpoints/checkpoint-store";
import { listSessions } from "../../../../src/shared-node/checkpoints/checkpoint-refs";
import { checkpointsRoot } from "../../../../src/shared-node/checkpoints/maintenance";
import { dispatchAppCall } from "../../../../src/main/broker/app-call";
import { SecretStore } from "../../../../src/main/broker/secrets";
import { workerApiKey } from "../../../../src/main/broker/endpoint-keys";
import { SessionBroker } from "../../../../src/main/broker/session-broker";
import { SessionIndex } from "../../../../src/main/broker/session-index";
import { SettingsStore } from "../../../../src/main/broker/settings-store";
import { startAppServiceRig, type AppServiceRig } from "../../../../testkit/app-service-rig";

let rig: AppServiceRig;
let dir: string;
let service: AppService;
let broker: SessionBroker;
let settings: SettingsStore;
let secrets: SecretStore;
let index: SessionIndex;

beforeEach(async () => {
  rig = await startAppServiceRig();
  ({ dir, service, broker, settings, secrets, index } = rig);
});
afterEach(async () => {
  await rig.close();
  vi.useRealTimers();
});

describe("the app service behind every page call", () => {
  it("creates, renames, deletes with undo, and finally forgets a chat, its transcript and its folder", async () => {
    const chat = await service.createSession();
    await service.renameSession(chat.id, "  Trip plans ");
    expect((await service.listSessions()).map((s) => s.title)).toEqual(["Trip plans"]);
    mkdirSync(join(dir, "sessions"), { recursive: true });
    writeFileSync(broker.transcriptFile(chat.id), "{}\n");
    mkdirSync(join(broker.sessionDir(chat.id), "bash-output"), { recursive: true });
    writeFileSync(join(broker.sessionDir(chat.id), "bash-output", "out.log"), "saved output\n");

    await service.deleteSession(chat.id);
    expect(await service.listSessions()).toEqual([]);
    await service.restoreSession(chat.id);
    expect((await service.listSessions()).map((s) => s.id)).toEqual([chat.id]);

    await service.deleteSession(chat.id);
    vi.useFakeTimers({ now: Date.now() + 120_000, toFake: ["Date"] });
    const other = await service.createSession();
    await service.deleteSession(other.id); // purges what was deleted before the undo window
    expect(existsSync(broker.transcriptFile(chat.id))).toBe(false);
    expect(existsSync(broker.sessionDir(chat.id))).toBe(false);
    await service.restoreSession(chat.id);
    expect((await service.listSessions()).map((s) => s.id)).not.toContain(chat.id);
  });

  it("tells every page of each saved draft, numbered in the order kept, with the page that saved it; a refused one is not told", async () => {
    const chat = await service.createSession();
    const told: unknown[] = [];
    service.onEvent((event) => event.type === "draft" && told.push(event));
    const first = await dispatchAppCall(service, "saveDraft", [chat.id, { text: "from window A", attachments: [] }, "page-a"]);
    const second = await dispatchAppCall(service, "saveDraft", [chat.id, { text: "from window B", attachments: [] }, "page-b"]);
    expect(second).toBeGreaterThan(first as number);
    expect(told).toEqual([
      { type: "draft", sessionId: chat.id, draft: { text: "from window A", attachments: [] }, revision: first, writer: "page-a" },
      { type: "draft", sessionId: chat.id, draft: { text: "from window B", attachments: [] }, revision: second, writer: "page-b" },
    ]);
    await expect(dispatchAppCall(service, "saveDraft", [chat.id, { text: "x", attachments: [] }, "no spaces allowed"])).rejects.toThrow(/invalid arguments/);
    await expect(service.saveDraft(chat.id, { text: "x".repeat(1_000_001), attachments: [] }, "page-a")).rejects.toThrow(/too long/);
    expect(told).toHaveLength(2);
    expect(await service.getDraft(chat.id)).toEqual({ text: "from window B", attachments: [] });
  });

  it("keeps a chat's draft through the checked call, refuses a malformed one, and a deleted chat's draft goes with it", async () => {
    const chat = await service.createSession();
    expect(await dispatchAppCall(service, "getDraft", [chat.id])).toEqual({ text: "", attachments: [] });
    await dispatchAppCall(service, "saveDraft", [chat.id, { text: "half a thought", attachments: [] }]);
    expect(await service.getDraft(chat.id)).toEqual({ text: "half a thought", attachments: [] });
    await expect(dispatchAppCall(service, "saveDraft", [chat.id, { text: 42, attachments: [] }])).rejects.toThrow(/saveDraft: invalid arguments: .*text/);
    await expect(dispatchAppCall(service, "saveDraft", [chat.id, { text: "x", attachments: [{ id: "../../secrets.json", name: "x", mimeType: "text/plain", size: 1 }] }])).rejects.toThrow(/invalid arguments/);
    await expect(dispatchAppCall(service, "getDraft", ["../x"])).rejects.toThrow(/invalid arguments/);
    await expect(service.saveDraft("00000000-0000-4000-8000-00000000dead", { text: "x", attachments: [] })).rejects.toThrow("No such chat");
    expect(await service.getDraft(chat.id)).toEqual({ text: "half a thought", attachments: [] });

    // Deleted: back with undo, draft and all; gone for good with the chat once its undo window is over.
    await service.deleteSession(chat.id);
    await service.restoreSession(chat.id);
    expect((await service.getDraft(chat.id)).text).toBe("half a thought");
    await service.deleteSession(chat.id);
    vi.useFakeTimers({ now: Date.now() + 120_000, toFake: ["Date"] });
    await service.deleteSession((await service.createSession()).id);
    expect(existsSync(join(broker.sessionDir(chat.id), "draft.json"))).toBe(false);
    await expect(service.getDraft(chat.id)).rejects.toThrow("No such chat");
  });

  it("removes a deleted chat's checkpoints, and its subagents', only once its undo window is over", async () => {
    const notices: string[] = [];
    const checkpoints = new CheckpointUpkeep({ dataDir: dir, limitBytes: () => 1 << 30, liveSessions: () => [], notify: (t) => notices.push(t), graceMs: 0 });
    const withCheckpoints = new AppService({ settings, secrets, index, broker, openSession: async () => {}, checkpoints, undoWindowMs: 150 });
    const chat = await withCheckpoints.createSession();
    const other = await withCheckpoints.createSession();
    index.upsert({ id: "sub-1", title: "scout (subagent)", created: 1, updated: 1, messageCount: 0, parent: { sessionId: chat.id, toolCallId: "c1", agent: "scout" } });
    index.upsert({ id: "sub-2", title: "nested (subagent)", created: 1, updated: 1, messageCount: 0, parent: { sessionId: "sub-1", toolCallId: "c2", agent: "scout" } });
    const workspace = join(dir, "workspace");
    mkdirSync(workspace);
    writeFileSync(join(workspace, "a.txt"), "a\n");
    for (const session of [chat.id, "sub-1", "sub-2", other.id]) {
      const store = openCheckpointStore(dir, workspace, session);
      await store.baseline();
      await store.close();
    }
    const recorded = () => listSessions(checkpointsRoot(dir)).sort();

    await withCheckpoints.deleteSession(chat.id);
    await withCheckpoints.restoreSession(chat.id);
    await new Promise((r) => setTimeout(r, 400));
    expect(recorded()).toEqual([chat.id, other.id, "sub-1", "sub-2"].sort());

    await withCheckpoints.deleteSession(chat.id);
    expect(recorded()).toHaveLength(4);
    await vi.waitFor(() => expect(recorded()).toEqual([other.id]), { timeout: 3000 });
    expect(notices).toEqual([]);
    withCheckpoints.dispose();
    await checkpoints.dispose();
  });

  it("gives workers the checkpoints settings as their store wants them", async () => {
    await service.updateSettings({ checkpoints: { enabled: false, maxFileMB: 5 } });
    expect(toWorkerSettings(settings.get()).checkpoints).toEqual({ enabled: false, maxFileBytes: 5 * 1024 * 1024 });
    await expect(service.checkpointStorage()).rejects.toThrow("Checkpoints are not kept here.");
  });

  it("a subagent's folder is its launch's: a page cannot change it", async () => {
    const chat = await service.createSession();
    index.upsert({
      id: "sub-1",
      title: "scout (subagent)",
      created: 1,
      updated: 1,
      messageCount: 0,
      workspace: dir,
      parent: { sessionId: chat.id, toolCallId: "c1", agent: "scout" },
      launch: { version: 1, instructions: "You scout.", tools: ["read"], workspace: dir },
    });
    await expect(service.setWorkspace("sub-1", null)).rejects.toThrow("A subagent works in the folder its parent chat gave it; that cannot change.");
    expect(index.get("sub-1")?.workspace).toBe(dir);
  });

  it("lists custom endpoints' models, and built-in providers' only with a key", async () => {
    await service.updateSettings({ customProviders: [{ id: "lab", name: "Lab", baseUrl: "http://127.0.0.1:9/v1", models: ["m1"] }] });
    const models = await service.listModels();
    expect(models.filter((m) => m.provider === "custom:lab").map((m) => m.id)).toEqual(["m1"]);
    const before = models.filter((m) => m.provider === "groq").length;
    await expect(service.setApiKey("not-a-provider", "k")).rejects.toThrow('Unknown provider "not-a-provider"');
    await expect(service.setApiKey("custom:nowhere", "k")).rejects.toThrow("add it as a custom endpoint first");
    await service.setApiKey("custom:lab", "lab-key"); // a configured endpoint's key is taken
    const tooMany = Array.from({ length: 501 }, (_, i) => `m${i}`);
    await expect(service.updateSettings({ customProviders: [{ id: "big", name: "Big", baseUrl: "http://127.0.0.1:9/v1", models: tooMany }] })).rejects.toThrow(/models/);
    await service.setApiKey("groq", "gsk-test");
    expect((await service.listModels()).filter((m) => m.provider === "groq").length).toBeGreaterThan(before);
    expect((await service.providerStatus()).find((p) => p.provider === "groq")?.keySource).toBe("settings");
    expect(JSON.stringify(await service.providerStatus())).not.toContain("gsk-test");
  });

  it("removes only providers' keys: an MCP server's secret in the same store is out of a page's reach", async () => {
    secrets.set("mcp:github:env:GITHUB_TOKEN", "ghp-secret", "program:0");
    await expect(service.setApiKey("mcp:github:env:GITHUB_TOKEN", null)).rejects.toThrow("Unknown provider");
    expect(secrets.get("mcp:github:env:GITHUB_TOKEN", "program:0")).toBe("ghp-secret");
    // Nor can a worker ask for it as a key.
    expect(workerApiKey("mcp:github:env:GITHUB_TOKEN", undefined, secrets, [], () => undefined)).toBeUndefined();
    await service.setApiKey("groq", "gsk-test");
    await service.setApiKey("groq", null);
    await service.setApiKey("custom:gone", null); // an endpoint's key can be removed after the endpoint
    expect((await service.providerStatus()).find((p) => p.provider === "groq")?.keySource).not.toBe("settings");
  });

  it("binds an endpoint's key to its address: moved elsewhere it is not used and Settings say so; removing the endpoint removes it", async () => {
    const lab = (baseUrl: string) => ({ id: "lab", name: "Lab", baseUrl, models: ["m1"] });
    const keyForWorkers = () => workerApiKey("custom:lab", undefined, secrets, settings.get().customProviders, () => undefined);
    const status = async () => (await service.providerStatus()).find((p) => p.provider === "custom:lab");
    await service.updateSettings({ customProviders: [lab("http://10.1.1.1:8000/v1")] });
    expect(await status()).toEqual({ provider: "custom:lab", keySource: "none", origin: "http://10.1.1.1:8000" });
    await service.setApiKey("custom:lab", "sk-lab");
    expect(await status()).toEqual({ provider: "custom:lab", keySource: "settings", origin: "http://10.1.1.1:8000" });
    expect(keyForWorkers()).toBe("sk-lab");

    await service.updateSettings({ customProviders: [lab("https://10.1.1.2/v1")] });
    expect(keyForWorkers()).toBeUndefined();
    expect(await status()).toEqual({ provider: "custom:lab", keySource: "none", origin: "https://10.1.1.2", keySavedFor: "http://10.1.1.1:8000" });
    await service.setApiKey("custom:lab", null); // Settings' Remove
    expect(await status()).toEqual({ provider: "custom:lab", keySource: "none", origin: "https://10.1.1.2" });

    await service.setApiKey("custom:lab", "sk-second");
    await service.updateSettings({ customProviders: [] });
    expect(secrets.has("custom:lab")).toBe(false);
    await service.updateSettings({ customProviders: [lab("https://10.1.1.2/v1")] });
    expect(keyForWorkers()).toBeUndefined();
    expect(await status()).toEqual({ provider: "custom:lab", keySource: "none", origin: "https://10.1.1.2" });
  });

  it("drops keys of endpoints removed while it was not running", async () => {
    secrets.set("custom:gone", "sk-gone", "http://10.9.9.9");
    secrets.set("openai", "sk-o");
    const again = new AppService({ settings, secrets, index, broker, openSession: async () => {} });
    expect(secrets.providers()).toEqual(["openai"]);
    expect(await again.takeNotices()).toEqual([]);
  });

  it("passes on what the stores had to set aside, and a chat list that could not be saved", async () => {
    writeFileSync(join(dir, "settings.json"), "{ torn");
    const damaged = SettingsStore.open({ cwd: dir });
    const again = new AppService({ settings: damaged, secrets, index, broker, openSession: async () => {} });
    index.upsert({ id: "c1", title: "t", created: 1, updated: 1, messageCount: 0 });
    rmSync(join(dir, "sessions"), { recursive: true, force: true });
    writeFileSync(join(dir, "sessions"), "a file where the folder should be");
    await expect(index.flush()).rejects.toThrow();
    const notices = await again.takeNotices();
    expect(notices.map((n) => n.text)).toEqual([
      expect.stringMatching(/^Your settings file was unreadable; it was saved as .*settings\.corrupt-.*\.json and defaults were restored\.$/),
      expect.stringMatching(/^Could not save the list of chats/),
    ]);
    rmSync(join(dir, "sessions"));
  });

  it("rejects malformed calls before they reach the service", async () => {
    await expect(dispatchAppCall(service, "eval", [])).rejects.toThrow(/Unknown call/);
    await expect(dispatchAppCall(service, "renameSession", ["../../etc", "x"])).rejects.toThrow(/invalid arguments/);
    await expect(dispatchAppCall(service, "updateSettings", [{ theme: "neon" }])).rejects.toThrow(/invalid arguments/);
    await expect(dispatchAppCall(service, "listSessions", "nope")).rejects.toThrow(/invalid arguments/);
    expect(await dispatchAppCall(service, "listSessions", [])).toEqual([]);
  });
});
