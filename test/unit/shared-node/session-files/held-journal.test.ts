/** Messages held after Stop, in the transcript: the `queues` record's `held` list (older files have none). */
import { appendFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../../src/shared/agent/types";
import { loadTranscript } from "../../../../src/shared-node/session-files/transcript-store";
import { useTempTranscript } from "../../../../testkit/temp-transcript";

const user = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 1 });
const temp = useTempTranscript("paddock-held-");

describe("held messages in the transcript", () => {
  it("come back from the last queues record, and a reset drops them", async () => {
    await temp.write(
      { t: "message", message: user("a") },
      { t: "queues", steering: [], followUp: [], held: [{ queue: "followUp", message: user("old") }] },
      { t: "queues", steering: [user("s")], followUp: [], held: [{ queue: "steering", message: user("h1") }, { queue: "followUp", message: user("h2") }] },
    );
    const loaded = await loadTranscript(temp.file);
    expect(loaded.held).toEqual([{ queue: "steering", message: user("h1") }, { queue: "followUp", message: user("h2") }]);
    expect(loaded.steering).toEqual([user("s")]);

    await temp.write({ t: "reset" });
    expect((await loadTranscript(temp.file)).held).toBeUndefined();
  });

  it("a queues record without `held` (older files, or nothing held) holds nothing", async () => {
    await temp.write(
      { t: "queues", steering: [], followUp: [], held: [{ queue: "followUp", message: user("held") }] },
      { t: "queues", steering: [], followUp: [user("f")] },
    );
    const loaded = await loadTranscript(temp.file);
    expect(loaded.held).toBeUndefined();
    expect(loaded.followUp).toEqual([user("f")]);
  });

  it("a damaged held list is skipped and reported, and the rest loads", async () => {
    await temp.write({ t: "message", message: user("a") });
    await appendFile(temp.file, `${JSON.stringify({ t: "queues", steering: [], followUp: [], held: [{ queue: "later", message: user("x") }] })}\n`);
    const loaded = await loadTranscript(temp.file);
    expect(loaded.messages).toEqual([user("a")]);
    expect(loaded.held).toBeUndefined();
    expect(loaded.problems).toEqual([{ line: 2, kind: "corrupt-line", detail: "queues record with an invalid held list" }]);
  });
});
