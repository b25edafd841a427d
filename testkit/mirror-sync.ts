/** The integrity check integration tests end with: the client's mirror equals what its worker holds. */
import { expect } from "vitest";
import type { SessionClient } from "../src/renderer/store/session-client";

/**
 * Expects that the mirror verified digests, never mismatched or resynced, and holds the worker's messages; returns the
 * worker's snapshot so a test can compare more of it.
 */
export async function expectMirrorInSync(client: SessionClient) {
  expect(client.mirror.stats.digestChecks).toBeGreaterThan(0);
  expect(client.mirror.stats.digestMismatches).toBe(0);
  expect(client.mirror.stats.resyncs).toBe(0);
  const snapshot = await client.call((api) => api.getSnapshot());
  expect(client.mirror.getView().state.messages).toEqual(snapshot.state.messages);
  return snapshot;
}
