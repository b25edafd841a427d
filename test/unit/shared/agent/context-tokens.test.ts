/** How full the context is (the meter's and the worker's one rule), and what the model is sent after a compaction. */
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../../src/shared/agent/types";
import { compactedView, summaryForModel } from "../../../../src/shared/agent/compaction";
import {
  compactionSettings,
  compactionThreshold,
  contextTokens,
  estimateTokens,
  PI_KEEP_RECENT_TOKENS,
  PI_RESERVE_TOKENS,
} from "../../../../src/shared/agent/context-tokens";
import { call, marker, reply, result, usage, user, words } from "./compaction-fixtures";

describe("estimateTokens", () => {
  it("counts four characters a token, rounding up, over every kind of content", () => {
    expect(estimateTokens(user("abcd"))).toBe(1);
    expect(estimateTokens(user("abcde"))).toBe(2);
    expect(estimateTokens(reply(words(10)))).toBe(10);
    expect(estimateTokens(result("c1", words(7)))).toBe(7);
    // A tool call counts its name and its arguments as JSON.
    expect(estimateTokens(call("c1", "read", { path: "a.ts" }))).toBe(Math.ceil(("read" + '{"path":"a.ts"}').length / 4));
  });

  it("counts an image as 1,200 tokens, attached files as what the model gets, and a marker as what the model gets of it", () => {
    const withImage: AgentMessage = { role: "user", content: [{ type: "text", text: "abcd" }, { type: "image", data: "AAAA", mimeType: "image/png" }], timestamp: 1 };
    expect(estimateTokens(withImage)).toBe(1 + 1_200);
    const withFiles: AgentMessage = {
      ...user("abcd"),
      attachments: [
        { id: "a".repeat(64) + ".txt", name: "notes.md", mimeType: "text/plain", size: 400 },
        { id: "b".repeat(64) + ".png", name: "shot.png", mimeType: "image/png", size: 90_000 },
      ],
    } as AgentMessage;
    expect(estimateTokens(withFiles)).toBe(1 + 100 + 1_200);
    const m = marker({ firstKeptIndex: 2, summary: words(50) });
    expect(estimateTokens(m)).toBe(Math.ceil(summaryForModel(m).length / 4));
  });
});

describe("compactionSettings", () => {
  it("uses pi's numbers (16,384 reserved, 20,000 kept) for large windows", () => {
    expect(compactionSettings(128_000)).toEqual({ reserveTokens: PI_RESERVE_TOKENS, keepRecentTokens: PI_KEEP_RECENT_TOKENS });
    expect(compactionSettings(200_000)).toEqual({ reserveTokens: 16_384, keepRecentTokens: 20_000 });
    expect(compactionThreshold(128_000)).toBe(128_000 - 16_384);
  });

  it("scales them down for small windows, so what is kept fits under the threshold", () => {
    expect(compactionSettings(2_000)).toEqual({ reserveTokens: 500, keepRecentTokens: 800 });
    for (const window of [2_000, 4_096, 8_192, 32_768]) {
      const { reserveTokens, keepRecentTokens } = compactionSettings(window);
      expect(keepRecentTokens).toBeLessThan(window - reserveTokens);
    }
  });

  it("never compacts for a model whose window is unknown", () => {
    expect(compactionThreshold(0)).toBe(0);
  });
});

describe("contextTokens", () => {
  it("takes the last usable reply's usage and estimates what came after it", () => {
    const messages = [user("hi"), reply("hello", usage(900, 100)), user(words(30))];
    expect(contextTokens(compactedView(messages))).toEqual({ tokens: 1_000 + 30, fromUsage: true });
  });

  it("skips failed and stopped replies, whose usage says nothing", () => {
    const messages = [user("hi"), reply("a", usage(500, 20)), user(words(10)), reply("", usage(0), "error"), reply("half", usage(900, 5), "aborted")];
    expect(contextTokens(compactedView(messages)).tokens).toBe(520 + 10 + 0 + 1);
  });

  it("estimates everything when no reply reported usage", () => {
    expect(contextTokens(compactedView([user(words(40)), reply(words(60))]))).toEqual({ tokens: 100, fromUsage: false });
  });

  it("after a compaction, ignores usage from before it (it measured the longer context)", () => {
    const messages: AgentMessage[] = [user(words(300)), reply(words(300), usage(1_700, 300)), user(words(20)), reply(words(20), usage(1_900, 20)), marker({ firstKeptIndex: 2, tokensAfter: 400 })];
    expect(contextTokens(compactedView(messages))).toEqual({ tokens: 400, fromUsage: false });
    messages.push(user(words(12)));
    expect(contextTokens(compactedView(messages)).tokens).toBe(412);
    messages.push(reply("ok", usage(450, 2)));
    expect(contextTokens(compactedView(messages))).toEqual({ tokens: 452, fromUsage: true });
  });
});

describe("compactedView", () => {
  it("is the transcript itself until a compaction", () => {
    const messages = [user("a"), reply("b")];
    expect(compactedView(messages).messages).toBe(messages);
  });

  it("is the latest marker, then the kept messages and what followed, other markers left out", () => {
    const first = marker({ firstKeptIndex: 2, summary: "first" });
    const second = marker({ firstKeptIndex: 5, summary: "second" });
    const messages: AgentMessage[] = [user("0"), reply("1"), user("2"), reply("3"), first, user("5"), reply("6"), second, user("8")];
    const view = compactedView(messages);
    expect(view.marker).toBe(second);
    expect(view.messages).toEqual([second, messages[5], messages[6], messages[8]]);
    expect(view.freshFrom).toBe(3); // the reply at 6 came before the second marker
  });

  it("counts from the first loaded message when a page has not loaded the oldest ones", () => {
    const m = marker({ firstKeptIndex: 102 });
    const loaded: AgentMessage[] = [user("100"), reply("101"), user("102"), reply("103"), m];
    const view = compactedView(loaded, 100);
    expect(view.messages).toEqual([m, loaded[2], loaded[3]]);
  });
});
