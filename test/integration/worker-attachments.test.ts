/**
 * Attachments and a chat's own options with real workers and the loopback model: an image reaches a model that reads
 * images as an image part, and is refused (nothing sent) for one that does not; a text file is inlined with its
 * name; the files stay in the session's folder and survive a new worker; a chat's instructions, temperature and
 * output limit reach the request, every window sees them, and a new worker keeps them.
 */
import { describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startHarness, testSettings, waitForView, type Harness, settled } from "../../testkit/worker-harness";
import { harnessPerTest } from "../../testkit/harness-per-test";
import { bandsPng } from "../../testkit/png";
import type { SessionClient } from "../../src/renderer/store/session-client";
import { attachmentsOf } from "../../src/shared/protocol/attachments";

const harnesses = harnessPerTest();
const folders = harnesses.folders;

/** The loopback server twice: as a text-only endpoint (the default model) and as one whose models read images. */
const withVision = (server: { baseUrl: string }) => [
  ...testSettings(server).customProviders,
  { id: "vision", name: "Vision", baseUrl: server.baseUrl, models: ["seeing-model"], images: true },
];
async function harness(options: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  const started = await harnesses.start(options);
  started.settings.customProviders = withVision(started.server);
  return started;
}

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64");
/** The content of the last user message the model was sent. */
const lastUserContent = (harness: Harness) => {
  const messages = harness.server.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
  return messages.filter((m) => m.role === "user").at(-1)!.content;
};
/** Leaves the chat and waits for its worker to stop (the idle grace is 0), so the next client gets a new one. */
async function reopen(harness: Harness, client: SessionClient, sessionId: string, viewer: string, next: string): Promise<SessionClient> {
  const closed = new Promise<void>((resolve) => harness.broker.onEvent((e) => e.type === "session-closed" && resolve()));
  client.close();
  harness.broker.detach(sessionId, viewer);
  await closed;
  return harness.client(sessionId, next);
}

describe("attachments", () => {
  it("an image reaches a model that reads images as image content, ahead of the text; the message keeps a reference", async () => {
    const h = await harness();
    const client = await h.client("img", "w1");
    await client.setModel({ provider: "custom:vision", id: "seeing-model" });
    const png = bandsPng(16, 8);
    const ref = await client.putAttachment("chart.png", "image/png", b64(png));
    expect(ref).toMatchObject({ name: "chart.png", mimeType: "image/png", size: png.length });
    await client.prompt("What is in the picture?", [ref]);
    await settled(client, 2);
    expect(lastUserContent(h)).toEqual([
      { type: "image_url", image_url: { url: `data:image/png;base64,${b64(png)}` } },
      { type: "text", text: "What is in the picture?" },
    ]);
    // The transcript and the mirror hold the reference, not the bytes; the file is in the session's folder.
    const sent = client.mirror.getView().state.messages[0];
    expect(attachmentsOf(sent)).toEqual([ref]);
    expect(readFileSync(join(h.dataDir, "sessions", "img", "attachments", ref.id))).toEqual(png);
    const journal = readFileSync(join(h.dataDir, "sessions", "img.jsonl"), "utf8");
    expect(journal).toContain(ref.id);
    expect(journal).not.toContain(b64(png));
    // A page gets the bytes back to show them.
    expect(await client.getAttachment(ref.id)).toEqual({ mimeType: "image/png", data: b64(png) });
  });

  it("a model that reads text only: the message with an image is refused with the reason and nothing is sent", async () => {
    const h = await harness();
    const client = await h.client("text-only");
    const ref = await client.putAttachment("photo.png", "image/png", b64(bandsPng(4, 4)));
    const before = h.server.requests.length;
    await expect(client.prompt("Describe this", [ref])).rejects.toThrow("test-model does not read images: remove the images, or choose a model that does.");
    await expect(client.followUp("and this", [ref])).rejects.toThrow(/does not read images/);
    expect(h.server.requests.length).toBe(before);
    expect(client.mirror.getView().state.messages).toEqual([]);
    expect(client.mirror.getView().followUp).toEqual([]);
  });

  it("an image sent before the chat moved to a text-only model is named as left out, not sent", async () => {
    const h = await harness();
    const client = await h.client("switch");
    await client.setModel({ provider: "custom:vision", id: "seeing-model" });
    const ref = await client.putAttachment("before.png", "image/png", b64(bandsPng(4, 4)));
    await client.prompt("Look", [ref]);
    await settled(client, 2);
    await client.setModel({ provider: "custom:loopback", id: "test-model" });
    await client.prompt("And now?");
    await settled(client, 4);
    const messages = h.server.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
    expect(JSON.stringify(messages)).not.toContain("image_url");
    expect(messages.find((m) => m.role === "user")!.content).toEqual([
      { type: "text", text: '[Image "before.png" left out: this model does not read images.]' },
      { type: "text", text: "Look" },
    ]);
  });

  it("a text file is inlined with its name, for any model; a file the worker refuses never becomes a message", async () => {
    const h = await harness();
    const client = await h.client("text");
    const ref = await client.putAttachment("notes.md", "text/markdown", b64("# Plan\n- ship it\n"));
    await client.prompt("Summarise", [ref]);
    await settled(client, 2);
    expect(lastUserContent(h)).toEqual([
      { type: "text", text: '<file name="notes.md">\n# Plan\n- ship it\n\n</file>' },
      { type: "text", text: "Summarise" },
    ]);
    await expect(client.putAttachment("a.out", "application/octet-stream", b64(new Uint8Array([0x7f, 0x45, 0x00])))).rejects.toThrow(
      "a.out cannot be attached: only PNG, JPEG, GIF and WebP images and text files can be attached.",
    );
    const forged = { ...ref, id: `${"0".repeat(64)}.txt` };
    await expect(client.prompt("again", [forged])).rejects.toThrow("notes.md is not stored in this chat: attach it again.");
    expect(client.mirror.getView().state.messages).toHaveLength(2);
  });

  it("survives a new worker: the message keeps its image, the page can show it, and the model gets it again", async () => {
    const h = await harness({ integrityCheck: true });
    let client = await h.client("restart", "w1");
    await client.setModel({ provider: "custom:vision", id: "seeing-model" });
    const png = bandsPng(6, 6, [[200, 30, 30]]);
    const ref = await client.putAttachment("red.png", "image/png", b64(png));
    await client.prompt("Colour?", [ref]);
    await settled(client, 2);

    client = await reopen(h, client, "restart", "w1", "w2");
    expect(attachmentsOf(client.mirror.getView().state.messages[0])).toEqual([ref]);
    expect((await client.getAttachment(ref.id)).data).toBe(b64(png));
    await client.prompt("Still there?");
    await settled(client, 4);
    const firstUser = (h.server.requests.at(-1)!.body.messages as { role: string; content: unknown[] }[]).find((m) => m.role === "user")!;
    expect(firstUser.content[0]).toEqual({ type: "image_url", image_url: { url: `data:image/png;base64,${b64(png)}` } });
    expect(readdirSync(join(h.dataDir, "sessions", "restart", "attachments"))).toEqual([ref.id]);
  });
});

describe("a chat's own instructions and parameters", () => {
  it("reach the request, show in every window, and stay with the chat in a new worker", async () => {
    const h = await harnesses.start({ settings: { defaultSystemPrompt: "Default rules." } });
    let client = await h.client("opts", "w1");
    const other = await h.client("opts", "w2");
    await client.prompt("first");
    await settled(client, 2);
    let body = h.server.requests.at(-1)!.body;
    expect(body.messages[0]).toMatchObject({ role: "system", content: "Default rules." });
    expect(body.temperature).toBeUndefined();

    await client.setChatOptions({ systemPrompt: "You are a pirate.", temperature: 0.3, maxTokens: 200 });
    await waitForView(other, (v) => v.chatOptions?.systemPrompt === "You are a pirate.");
    expect(other.mirror.getView().chatOptions).toEqual({ systemPrompt: "You are a pirate.", temperature: 0.3, maxTokens: 200 });
    await client.prompt("second");
    await settled(client, 4);
    body = h.server.requests.at(-1)!.body;
    expect(body.messages[0]).toMatchObject({ role: "system", content: "You are a pirate." });
    expect(body.temperature).toBe(0.3);
    expect(body.max_tokens).toBe(200);

    other.close();
    h.broker.detach("opts", "w2");
    client = await reopen(h, client, "opts", "w1", "w3");
    expect(client.mirror.getView().chatOptions).toEqual({ systemPrompt: "You are a pirate.", temperature: 0.3, maxTokens: 200 });
    expect(client.mirror.getView().state.systemPrompt).toBe("You are a pirate.");

    // Back to the defaults: Settings' instructions, no temperature, the model's own limit.
    await client.setChatOptions({});
    await client.prompt("third");
    await settled(client, 6);
    body = h.server.requests.at(-1)!.body;
    expect(body.messages[0]).toMatchObject({ role: "system", content: "Default rules." });
    expect(body.temperature).toBeUndefined();
    expect(body.max_tokens).toBe(4096);
    await expect(client.setChatOptions({ temperature: 3 })).rejects.toThrow(/setChatOptions: invalid arguments/);
  });

  it("caps max output tokens at the endpoint's limit; a changed default reaches a live chat", async () => {
    const h = await harnesses.start();
    h.settings.customProviders = [{ ...h.settings.customProviders[0], maxTokens: 1000 }];
    const client = await h.client("cap");
    await client.setChatOptions({ maxTokens: 50_000 });
    await client.prompt("go");
    await settled(client, 2);
    expect(h.server.requests.at(-1)!.body.max_tokens).toBe(1000);
    expect(h.server.requests.at(-1)!.body.messages[0].role).toBe("user"); // no instructions anywhere: no system message

    Object.assign(h.settings, { defaultSystemPrompt: "Now with rules." });
    await h.broker.broadcastSettings(h.settings);
    await client.prompt("again");
    await settled(client, 4);
    expect(h.server.requests.at(-1)!.body.messages[0]).toMatchObject({ role: "system", content: "Now with rules." });
  });

  it("in a workspace Settings' default instructions are added to Paddock's prompt: the tool list and the folder rule stay", async () => {
    const root = folders.make({ "AGENTS.md": "Use tabs." });
    const h = await harnesses.start({ workspaceOf: () => root, settings: { defaultSystemPrompt: "Always answer in French." } });
    const client = await h.client("ws-default");
    await client.prompt("hello");
    await settled(client, 2);
    const system = String(h.server.requests.at(-1)!.body.messages[0].content);
    expect(system.startsWith("You are a coding assistant running inside Paddock")).toBe(true);
    expect(system).toMatch(/<tools>\n- read: .*\n- bash: .*\n- edit: .*\n- write: /s);
    expect(system).toContain("- Work only inside the working directory: paths outside it are refused");
    expect(system).toContain("<user_instructions>\nAlways answer in French.\n</user_instructions>");
    expect(system).toContain(`<project_instructions path="${join(root, "AGENTS.md")}">\nUse tabs.\n</project_instructions>`);
    expect(system).toContain(`<cwd>\n${root}\n</cwd>`);

    // What the page shows as "what the agent was told" is that very prompt, its parts named.
    const briefing = await client.agentBriefing();
    expect(briefing.systemPrompt).toBe(system);
    expect(briefing.instructions).toEqual({ from: "settings", text: "Always answer in French." });
    expect(briefing.base).toContain("<tools>\n- read: ");
    expect(briefing.contextFiles).toEqual([{ path: join(root, "AGENTS.md"), content: "Use tabs." }]);
  });

  it("in a workspace the chat's own instructions are added too, in place of Settings' default, and AGENTS.md and the folder are still given", async () => {
    const root = folders.make({ "AGENTS.md": "Use tabs." });
    const h = await harnesses.start({ workspaceOf: () => root, settings: { defaultSystemPrompt: "Always answer in French." } });
    const client = await h.client("ws");
    await client.setChatOptions({ systemPrompt: "Only ever answer in haiku." });
    await client.prompt("hello");
    await settled(client, 2);
    const system = String(h.server.requests.at(-1)!.body.messages[0].content);
    expect(system.startsWith("You are a coding assistant running inside Paddock")).toBe(true);
    expect(system).toContain("<tools>\n- read: ");
    expect(system).toContain("- Work only inside the working directory: paths outside it are refused");
    expect(system).toContain("<user_instructions>\nOnly ever answer in haiku.\n</user_instructions>");
    expect(system).not.toContain("Always answer in French.");
    expect(system).toContain("Use tabs.");
    expect(system).toContain(`<cwd>\n${root}\n</cwd>`);
    expect((await client.agentBriefing()).instructions).toEqual({ from: "chat", text: "Only ever answer in haiku." });
    expect(existsSync(join(root, "attachments"))).toBe(false);
  });
});
