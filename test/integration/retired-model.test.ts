/**
 * A chat whose model pi-ai's catalogue no longer lists (saved with an older pi-ai) opens normally, without a model,
 * and says why and what to pick: main's words, naming the closest current model (issue 22). Real worker processes.
 */
import { describe, expect, it } from "vitest";
import { waitForIdle } from "../../testkit/worker-harness";
import { harnessPerTest } from "../../testkit/harness-per-test";

const harnesses = harnessPerTest();

describe("a chat naming a retired model", () => {
  it("opens, and a prompt is told the model is gone and which current one is closest", async () => {
    const h = await harnesses.start({ settings: { defaultModel: { provider: "anthropic", id: "claude-opus-4-1" } } });
    const client = await h.client("retired");
    expect(client.mirror.getView().state.messages).toEqual([]);
    // The page that connects after the chat opened is told too, once, in main's words.
    const told = client.mirror.getView().notices.filter((n) => n.text.includes('no longer offers the model "claude-opus-4-1"'));
    expect(told).toHaveLength(1);
    expect(told[0].text).toMatch(/The closest current model is .+: pick it/);
    // It names the model that is gone, so the page can offer the closest one it lists ("Use …").
    expect(told[0].model).toEqual({ provider: "anthropic", id: "claude-opus-4-1" });
    await expect(client.prompt("hi")).rejects.toThrow(/Anthropic no longer offers the model "claude-opus-4-1"\. The closest current model is .+: pick it/);
    await expect(client.prompt("hi")).rejects.not.toThrow(/has no model/);
    // Picking a model clears it: the chat works from there.
    await client.setModel({ provider: "custom:loopback", id: "test-model" });
    h.server.enqueue({ text: "hello" });
    await client.prompt("hi");
    await waitForIdle(client);
  });
});
