/**
 * Where chat options and attachments meet the rest: the transcript's meta records, the session channel's frame
 * guard and its size limit, Settings' default instructions, and custom endpoints whose models read images.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadTranscript, TranscriptWriter } from "../../../../src/shared-node/session-files/transcript-store";
import { checkRpcMessage } from "../../../../src/agent-worker/host/transport/frame-guard";
import { MAX_FRAME_CHARS } from "../../../../src/shared/protocol/session-protocol";
import { MAX_ATTACHMENT_BASE64_CHARS, MAX_IMAGE_BYTES } from "../../../../src/shared/protocol/attachments";
import { applySettingsPatch, DEFAULT_SETTINGS, migrateSettings, salvageSettings, type Settings } from "../../../../src/shared/settings/schema";
import { customModel } from "../../../../src/shared/providers/custom-provider";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "paddock-options-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const call = (method: string, ...args: unknown[]) => ({ id: "c1", type: "APPLY", path: [method], argumentList: args.map((value) => ({ type: "RAW", value })) });
const ref = { id: `${"f".repeat(64)}.png`, name: "a.png", mimeType: "image/png", size: 10 };

describe("chat options in the transcript", () => {
  it("the last meta record's options win; other meta fields leave them alone; a reset keeps them", async () => {
    const file = join(dir, "s.jsonl");
    const writer = await TranscriptWriter.open(file);
    await writer.append(
      { t: "meta", chatOptions: { systemPrompt: "First", temperature: 1.2 } },
      { t: "meta", title: "A chat" },
      { t: "meta", chatOptions: { systemPrompt: "Second", maxTokens: 300 } },
      { t: "reset" },
    );
    await writer.close();
    const loaded = await loadTranscript(file);
    expect(loaded.chatOptions).toEqual({ systemPrompt: "Second", maxTokens: 300 });
    expect(loaded.title).toBe("A chat");
    expect(loaded.problems).toEqual([]);
  });

  it("a meta record with invalid options is skipped and reported; what came before stays; older files load", async () => {
    const file = join(dir, "s.jsonl");
    await writeFile(file, [
      JSON.stringify({ t: "meta", title: "Old chat", model: { provider: "openai", id: "gpt-4.1" } }),
      JSON.stringify({ t: "meta", chatOptions: { temperature: 0.2 } }),
      JSON.stringify({ t: "meta", chatOptions: { temperature: 9 } }),
      "",
    ].join("\n"));
    const loaded = await loadTranscript(file);
    expect(loaded.chatOptions).toEqual({ temperature: 0.2 });
    expect(loaded.problems).toEqual([{ line: 3, kind: "corrupt-line", detail: "meta record with invalid chat options (temperature must be a number from 0 to 2)" }]);
  });
});

describe("the session channel carries attachments and options", () => {
  it("the largest allowed image fits one frame; a larger upload is refused by the guard", () => {
    expect(MAX_ATTACHMENT_BASE64_CHARS).toBe(4 * Math.ceil(MAX_IMAGE_BYTES / 3));
    expect(MAX_ATTACHMENT_BASE64_CHARS + 10_000).toBeLessThan(MAX_FRAME_CHARS);
    expect(checkRpcMessage(call("putAttachment", "a.png", "image/png", "A".repeat(MAX_ATTACHMENT_BASE64_CHARS)))).toEqual({ ok: true });
    const over = checkRpcMessage(call("putAttachment", "a.png", "image/png", "A".repeat(MAX_ATTACHMENT_BASE64_CHARS + 4)));
    expect(over).toMatchObject({ ok: false, error: expect.stringMatching(/putAttachment: invalid arguments/) });
  });

  it("prompt, steer and follow-up take refs (at most 8, ids of the one shape); getAttachment takes an id only", () => {
    expect(checkRpcMessage(call("prompt", "look", [ref]))).toEqual({ ok: true });
    expect(checkRpcMessage(call("steer", "look", [ref]))).toEqual({ ok: true });
    expect(checkRpcMessage(call("followUp", "look"))).toEqual({ ok: true });
    expect(checkRpcMessage(call("prompt", "look", Array(9).fill(ref)))).toMatchObject({ ok: false });
    expect(checkRpcMessage(call("prompt", "look", [{ ...ref, id: "../secrets.json" }]))).toMatchObject({ ok: false });
    expect(checkRpcMessage(call("prompt", "look", [{ type: "image", data: "x", mimeType: "image/png" }]))).toMatchObject({ ok: false });
    expect(checkRpcMessage(call("getAttachment", ref.id))).toEqual({ ok: true });
    expect(checkRpcMessage(call("getAttachment", "../../x"))).toMatchObject({ ok: false });
  });

  it("setChatOptions takes the three options within their bounds", () => {
    expect(checkRpcMessage(call("setChatOptions", { systemPrompt: "x", temperature: 0.5, maxTokens: 10 }))).toEqual({ ok: true });
    expect(checkRpcMessage(call("setChatOptions", {}))).toEqual({ ok: true });
    expect(checkRpcMessage(call("setChatOptions", { temperature: -1 }))).toMatchObject({ ok: false });
    expect(checkRpcMessage(call("setChatOptions", { systemPrompt: "x".repeat(50_001) }))).toMatchObject({ ok: false });
    expect(checkRpcMessage(call("setChatOptions", { seed: 1 }))).toMatchObject({ ok: false });
  });
});

describe("settings: default instructions and endpoints' models", () => {
  it("default instructions start empty, are patchable, bounded, and a file without them still loads", () => {
    expect(DEFAULT_SETTINGS.defaultSystemPrompt).toBe("");
    const next = applySettingsPatch(DEFAULT_SETTINGS as Settings, { defaultSystemPrompt: "Answer briefly." });
    expect(next.defaultSystemPrompt).toBe("Answer briefly.");
    expect(() => applySettingsPatch(next, { defaultSystemPrompt: "x".repeat(50_001) })).toThrow(/Invalid settings change/);
    const { defaultSystemPrompt: _omitted, ...older } = structuredClone(DEFAULT_SETTINGS) as Settings;
    expect(migrateSettings(older).defaultSystemPrompt).toBe("");
    expect(salvageSettings({ ...older, defaultSystemPrompt: 42 }).defaultSystemPrompt).toBe("");
  });

  it("an endpoint's models read images when it says so, with its context window and output limit", () => {
    const endpoint = { id: "vision", name: "Vision", baseUrl: "http://127.0.0.1:1/v1", models: ["v"] };
    expect(customModel(endpoint, "v").input).toEqual(["text"]);
    const model = customModel({ ...endpoint, images: true, contextWindow: 8192, maxTokens: 1024 }, "v");
    expect(model).toMatchObject({ input: ["text", "image"], contextWindow: 8192, maxTokens: 1024 });
    expect(() => applySettingsPatch(DEFAULT_SETTINGS as Settings, { customProviders: [{ ...endpoint, images: true, maxTokens: 0 }] })).toThrow(/maxTokens/);
  });
});
