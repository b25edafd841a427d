/**
 * A chat's choice of MCP servers where it meets the rest: the session channel's frame guard, and the transcript's
 * meta records it is journaled in (so it survives a restart, and a bad one is skipped, not fatal).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadTranscript, TranscriptWriter } from "../../../../src/shared-node/session-files/transcript-store";
import { checkRpcMessage } from "../../../../src/agent-worker/host/transport/frame-guard";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "paddock-mcp-choice-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const call = (method: string, ...args: unknown[]) => ({ id: "c1", type: "APPLY", path: [method], argumentList: args.map((value) => ({ type: "RAW", value })) });

describe("a chat's MCP servers", () => {
  it("reach the worker only as a list of server ids", () => {
    expect(checkRpcMessage(call("setChatOptions", { mcpServers: ["github", "everything"] }))).toMatchObject({ ok: true });
    expect(checkRpcMessage(call("setChatOptions", { mcpServers: [] }))).toMatchObject({ ok: true });
    expect(checkRpcMessage(call("setChatOptions", { mcpServers: "github" }))).toMatchObject({ ok: false });
    expect(checkRpcMessage(call("setChatOptions", { mcpServers: ["Not An Id"] }))).toMatchObject({ ok: false });
  });

  it("are kept in the transcript and read back after a restart; a bad record is skipped and reported", async () => {
    const file = join(dir, "s.jsonl");
    const writer = await TranscriptWriter.open(file);
    await writer.append({ t: "meta", chatOptions: { temperature: 0.5, mcpServers: ["github"] } });
    await writer.close();
    expect((await loadTranscript(file)).chatOptions).toEqual({ temperature: 0.5, mcpServers: ["github"] });

    await writeFile(file, `${JSON.stringify({ t: "meta", chatOptions: { mcpServers: ["github"] } })}\n${JSON.stringify({ t: "meta", chatOptions: { mcpServers: [42] } })}\n`);
    const loaded = await loadTranscript(file);
    expect(loaded.chatOptions).toEqual({ mcpServers: ["github"] });
    expect(loaded.problems).toEqual([{ line: 2, kind: "corrupt-line", detail: expect.stringContaining("MCP servers must be a list") }]);
  });
});
