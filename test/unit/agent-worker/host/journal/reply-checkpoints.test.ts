/**
 * Checkpoints of a streaming reply, as the worker writes them: the reply as mirrors hold it (a real
 * StateEventEncoder fed provider-style events over a partial mutated in place), appended to a real transcript file.
 */
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AssistantMessage, AssistantMessageEvent } from "@earendil-works/pi-ai";
import { createAgentStateData, type AgentStateEvent } from "../../../../../src/shared/agent/state";
import { StateEventEncoder } from "../../../../../src/shared/protocol/wire-events";
import { CHECKPOINT_INTERVAL_MS, ReplyCheckpoints } from "../../../../../src/agent-worker/host/journal/reply-checkpoints";
import { loadTranscript, TranscriptWriter, type TranscriptRecord } from "../../../../../src/shared-node/session-files/transcript-store";
import { INTERRUPTED_REPLY_ERROR, isInterruptedReply, unfinishedReplyAsSaid } from "../../../../../src/shared/agent/unfinished-reply";
import { messageText } from "../../../../../testkit/message-text";

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "paddock-checkpoints-"));
  file = join(dir, "s.jsonl");
});
afterEach(async () => {
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

/** A provider's live partial, mutated in place, and the encoder the worker runs its events through. */
function streamingReply() {
  const encoder = new StateEventEncoder();
  const state = createAgentStateData();
  const live: AssistantMessage = {
    role: "assistant", content: [], api: "openai-completions", provider: "custom:local", model: "m",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: "stop", timestamp: 1,
  };
  const send = (event: AgentStateEvent) => encoder.encode(event, state);
  const update = (ame: Partial<AssistantMessageEvent>) =>
    send({ type: "message_update", message: { ...live }, assistantMessageEvent: { ...ame, partial: live } as AssistantMessageEvent });
  send({ type: "message_start", message: { ...live } });
  return {
    encoder,
    live,
    text(delta: string) {
      let block = live.content.at(-1);
      if (block?.type !== "text") {
        block = { type: "text", text: "" };
        live.content.push(block);
        update({ type: "text_start", contentIndex: live.content.length - 1 });
      }
      block.text += delta;
      update({ type: "text_delta", contentIndex: live.content.length - 1, delta });
    },
    toolCallStart(name: string) {
      live.content.push({ type: "toolCall", id: "t1", name, arguments: {} });
      update({ type: "toolcall_start", contentIndex: live.content.length - 1 });
    },
  };
}

async function openWriter() {
  const writer = await TranscriptWriter.open(file);
  return { writer, append: (record: TranscriptRecord) => writer.appendCheckpoint(record) };
}

describe("reply checkpoints", () => {
  it("cost O(delta) on disk: a long reply checkpointed 200 times takes about its own length", async () => {
    const reply = streamingReply();
    const { writer, append } = await openWriter();
    const checkpoints = new ReplyCheckpoints({ streaming: () => reply.encoder.mirroredStreamingMessage, append });
    const piece = "lorem ipsum dolor sit amet, ";
    for (let i = 0; i < 4_000; i++) {
      reply.text(piece);
      if (i % 20 === 19) checkpoints.save();
    }
    await writer.close();
    const textLength = piece.length * 4_000; // 112,000 characters
    const { size } = await stat(file);
    // Whole-message checkpoints would write ~200 * 56 KB = 11 MB; deltas add only a small envelope each.
    expect(size).toBeGreaterThan(textLength);
    expect(size).toBeLessThan(textLength * 1.3);
    const loaded = await loadTranscript(file);
    expect(loaded.messages).toHaveLength(1);
    expect(messageText(loaded.messages[0])).toBe(piece.repeat(4_000));
    expect(isInterruptedReply(loaded.messages[0])).toBe(true);
    expect(loaded.messages[0]).toMatchObject({ stopReason: "error", errorMessage: INTERRUPTED_REPLY_ERROR });
  });

  it("save at most one interval after a change, at once on a tool-call block, and never while nothing streams", async () => {
    vi.useFakeTimers();
    const reply = streamingReply();
    const records: TranscriptRecord[] = [];
    const checkpoints = new ReplyCheckpoints({
      streaming: () => reply.encoder.mirroredStreamingMessage,
      append: async (record) => void records.push(record),
    });
    expect(vi.getTimerCount()).toBe(0);
    reply.text("Hello");
    checkpoints.changed();
    reply.text(", world");
    checkpoints.changed();
    expect(records).toHaveLength(0);
    vi.advanceTimersByTime(CHECKPOINT_INTERVAL_MS - 1);
    expect(records).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(records).toEqual([{ t: "partial", message: expect.objectContaining({ content: [{ type: "text", text: "Hello, world" }] }) }]);
    expect(vi.getTimerCount()).toBe(0); // nothing new streamed: no timer

    reply.text("!");
    checkpoints.changed();
    reply.toolCallStart("calculate");
    checkpoints.changed(true);
    expect(records.slice(1)).toEqual([{
      t: "partial",
      n: 1,
      p: [{ p: ["content", 0, "text"], a: "!" }, { p: ["content", 1], v: { type: "toolCall", id: "t1", name: "calculate", arguments: {} } }],
    }]);
    expect(vi.getTimerCount()).toBe(0); // the immediate save took the pending one's place

    checkpoints.changed();
    checkpoints.end();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(CHECKPOINT_INTERVAL_MS * 4);
    expect(records).toHaveLength(2);
  });

  it("an unchanged reply writes nothing; a new reply starts with a whole record", async () => {
    const reply = streamingReply();
    const records: TranscriptRecord[] = [];
    const checkpoints = new ReplyCheckpoints({ streaming: () => reply.encoder.mirroredStreamingMessage, append: async (r) => void records.push(r) });
    reply.text("a");
    checkpoints.save();
    checkpoints.save();
    expect(records).toHaveLength(1);
    checkpoints.end();
    reply.text("b");
    checkpoints.save();
    expect(records.map((r) => ("message" in r ? "whole" : "patch"))).toEqual(["whole", "whole"]);
  });

  it("after a failed write the next checkpoint is whole again, so no patch assumes the lost one", async () => {
    const reply = streamingReply();
    const records: TranscriptRecord[] = [];
    let fail = true;
    const checkpoints = new ReplyCheckpoints({
      streaming: () => reply.encoder.mirroredStreamingMessage,
      append: async (record) => {
        if (fail) throw new Error("disk full");
        records.push(record);
      },
    });
    reply.text("lost");
    checkpoints.save();
    await Promise.resolve();
    fail = false;
    reply.text(" and found");
    checkpoints.save();
    expect(records).toEqual([{ t: "partial", message: expect.objectContaining({ content: [{ type: "text", text: "lost and found" }] }) }]);
  });

  it("the text the model is shown of an unfinished reply: its text blocks only, as a finished reply", () => {
    const reply = streamingReply();
    reply.text("Half a");
    reply.toolCallStart("calculate");
    const interrupted = { ...(reply.encoder.mirroredStreamingMessage as AssistantMessage), stopReason: "error" as const, errorMessage: INTERRUPTED_REPLY_ERROR };
    expect(unfinishedReplyAsSaid(interrupted)).toMatchObject({ content: [{ type: "text", text: "Half a" }], stopReason: "stop" });
    expect(unfinishedReplyAsSaid(interrupted)).not.toHaveProperty("errorMessage");
    expect(unfinishedReplyAsSaid({ ...interrupted, content: [] })).toBeUndefined();
  });

  it("go to disk as patches ahead of the reply's final message, which supersedes them", async () => {
    const reply = streamingReply();
    const { writer, append } = await openWriter();
    const checkpoints = new ReplyCheckpoints({ streaming: () => reply.encoder.mirroredStreamingMessage, append });
    reply.text("Once");
    checkpoints.save();
    reply.text(" upon");
    checkpoints.save();
    checkpoints.end();
    await writer.append({ t: "message", message: { ...reply.live, content: [{ type: "text", text: "Once upon a time." }] } });
    await writer.close();
    const lines = (await readFile(file, "utf8")).trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => l.t)).toEqual(["partial", "partial", "message"]);
    expect(lines[1]).toEqual({ t: "partial", n: 1, p: [{ p: ["content", 0, "text"], a: " upon" }] });
    expect(messageText((await loadTranscript(file)).messages[0])).toBe("Once upon a time.");
  });
});
