/** The header's context meter: its figures, colour levels and a label that never grows past six characters a side. */
import { describe, expect, it } from "vitest";
import { contextFigures, shortTokens, transcriptTokens } from "../../../../../src/renderer/components/common/context-meter-figures";
import { marker, reply, usage, user, words } from "../../../shared/agent/compaction-fixtures";

describe("the context meter's figures", () => {
  it("adds the reply streaming now to the transcript's tokens", () => {
    const transcript = transcriptTokens([user("hi"), reply("hello", usage(900, 100)), user(words(20))], 0);
    expect(contextFigures(transcript, undefined, 2_000)).toMatchObject({ tokens: 1_020, contextWindow: 2_000, threshold: 1_500, fromUsage: true });
    expect(contextFigures(transcript, reply(words(50)), 2_000).tokens).toBe(1_070);
  });

  it("is amber from four fifths of the compaction threshold and red past it", () => {
    const at = (tokens: number) => contextFigures({ tokens, fromUsage: true }, undefined, 2_000).level;
    expect(at(1_199)).toBe("ok");
    expect(at(1_200)).toBe("near");
    expect(at(1_500)).toBe("near");
    expect(at(1_501)).toBe("full");
    expect(contextFigures({ tokens: 5_000, fromUsage: false }, undefined, 0).level).toBe("ok"); // window unknown
  });

  it("counts from the marker after a compaction, not the stale usage before it", () => {
    const messages = [user(words(300)), reply(words(300), usage(1_600, 300)), user(words(10)), marker({ firstKeptIndex: 2, tokensAfter: 500 })];
    expect(transcriptTokens(messages, 0)).toEqual({ tokens: 500, fromUsage: false });
  });

  it("writes token counts short", () => {
    expect([0, 850, 999, 1_000, 12_345, 99_949, 99_950, 128_000, 999_499, 1_000_000, 2_000_000].map(shortTokens)).toEqual([
      "0", "850", "999", "1.0k", "12.3k", "99.9k", "100k", "128k", "999k", "1.0M", "2.0M",
    ]);
  });
});
