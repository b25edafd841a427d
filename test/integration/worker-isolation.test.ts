import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startHarness, waitForIdle, waitForView, type Harness } from "../../testkit/worker-harness";
import { messageText } from "../../testkit/message-text";
import { isAlive } from "../../testkit/processes";

let h: Harness;
beforeEach(async () => {
  h = await startHarness({ keepSpare: true });
});
afterEach(async () => {
  await h.close();
});


describe("several sessions", () => {
  it("stream at once without interfering, in separate processes", async () => {
    h.server.setFallback((body) => {
      const last = body.messages.at(-1);
      const text = typeof last.content === "string" ? last.content : last.content.map((c: { text?: string }) => c.text ?? "").join("");
      return { text: `${text} `.repeat(60), chunkChars: 7, tokensPerSecond: 3000 };
    });
    const a = await h.client("iso-a");
    const b = await h.client("iso-b");
    await Promise.all([a.prompt("alpha"), b.prompt("bravo")]);
    await waitForView(a, (v) => !v.state.isStreaming);
    await waitForView(b, (v) => !v.state.isStreaming);
    expect(messageText(a.mirror.getView().state.messages[1])).toBe("alpha ".repeat(60));
    expect(messageText(b.mirror.getView().state.messages[1])).toBe("bravo ".repeat(60));
    const pa = (await h.broker.attach("iso-a", "probe")).worker.pid;
    const pb = (await h.broker.attach("iso-b", "probe")).worker.pid;
    expect(pa).not.toBe(pb);
    for (const c of [a, b]) expect(c.mirror.stats.digestMismatches).toBe(0);
  });

  it("lets two viewers watch one session, and ending the session leaves no process behind", async () => {
    h.server.enqueue({ text: "shared reply", chunkChars: 2, tokensPerSecond: 500 });
    const first = await h.client("shared", "window-1");
    const second = await h.client("shared", "window-2");
    await first.prompt("hello both");
    await waitForIdle(first);
    await waitForView(second, (v) => !v.state.isStreaming && v.state.messages.length === 2);
    expect(second.mirror.getView().state.messages).toEqual(first.mirror.getView().state.messages);
    const pid = (await h.broker.attach("shared", "probe")).worker.pid!;
    h.broker.detach("shared", "probe");
    first.close(); // the window closes...
    h.broker.detach("shared", "window-1"); // ...and main lets go of its view
    expect(isAlive(pid)).toBe(true);
    second.close();
    const closed = new Promise<void>((resolve) => h.broker.onEvent((e) => e.type === "session-closed" && e.sessionId === "shared" && resolve()));
    h.broker.detach("shared", "window-2"); // the last viewer: an idle worker stops after the grace period (0 here)
    await closed;
    expect(isAlive(pid)).toBe(false);
    expect(h.broker.openSessionIds()).not.toContain("shared");
  });

  it("tells a worker's transcript problems to its first viewer only", async () => {
    mkdirSync(join(h.dataDir, "sessions"), { recursive: true });
    const good = JSON.stringify({ t: "message", message: { role: "user", content: "hello", timestamp: 1 } });
    writeFileSync(join(h.dataDir, "sessions", "damaged.jsonl"), `${good}\n{ not json\n${good}\n`);
    const first = await h.broker.attach("damaged", "window-1");
    const second = await h.broker.attach("damaged", "window-2");
    expect(first.problems).toEqual([expect.stringMatching(/^line 2: corrupt-line/)]);
    expect(second.problems).toEqual([]);
  });
});
