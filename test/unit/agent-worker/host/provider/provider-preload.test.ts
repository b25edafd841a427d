/**
 * A subagent spare's warm-up: the provider's client loaded and one real HTTP request made, on loopback, leaving
 * nothing behind (no listening server, no open connection) and never failing.
 */
import { describe, expect, it } from "vitest";
import { preloadProvider } from "../../../../../src/agent-worker/host/provider/provider-preload";

const tcpHandles = () => process.getActiveResourcesInfo().filter((r) => r.startsWith("TCP")).length;

describe("preloadProvider", () => {
  it("warms up and leaves no server or connection open", async () => {
    const before = tcpHandles();
    await preloadProvider("openai-completions");
    await new Promise((r) => setTimeout(r, 50)); // closing sockets leave the list on the next turns
    expect(tcpHandles()).toBe(before);
  });

  it("never rejects, for an API it does not know either", async () => {
    await expect(preloadProvider("no-such-api")).resolves.toBeUndefined();
    await expect(preloadProvider(undefined)).resolves.toBeUndefined();
  });
});
