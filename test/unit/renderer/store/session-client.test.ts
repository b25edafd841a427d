import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import * as Comlink from "comlink";
import { describe, expect, it } from "vitest";
import { createAgentStateData } from "../../../../src/shared/agent/state";
import type { SessionSnapshot } from "../../../../src/shared/protocol/session-protocol";
import { rpcEndpoint } from "../../../../src/shared/transport/comlink-endpoint";
import { BaseTransport } from "../../../../src/shared/transport/transport";
import { SessionClient } from "../../../../src/renderer/store/session-client";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** One end of an in-memory channel: what one end sends, the other receives a microtask later. */
class MemoryEnd extends BaseTransport {
  peer: MemoryEnd | undefined;
  sent: unknown[] = [];
  protected deliver(message: unknown): void {
    this.sent.push(message);
    const copy: unknown = structuredClone(message);
    const peer = this.peer;
    queueMicrotask(() => peer?.receive(copy));
  }
  protected closeUnderlying(): void {
    this.peer?.markClosed("peer closed");
  }
}

function snapshot(sessionId: string): SessionSnapshot {
  const { pendingToolCalls, ...state } = createAgentStateData();
  return {
    sessionId,
    seq: 0,
    state: { ...state, pendingToolCalls: [...pendingToolCalls] },
    steering: [],
    followUp: [],
    steeringMode: "one-at-a-time",
    followUpMode: "one-at-a-time",
    toolExecution: "parallel",
    toolRuns: {},
    approvals: [],
  } as unknown as SessionSnapshot;
}

/** A worker whose `continue` (Retry) never answers, as one whose run goes on after the page left. */
function fakeWorker(sessionId: string) {
  const page = new MemoryEnd();
  const worker = new MemoryEnd();
  page.peer = worker;
  worker.peer = page;
  Comlink.expose(
    {
      getSnapshot: async () => snapshot(sessionId),
      continue: () => new Promise<void>(() => {}),
    },
    rpcEndpoint(worker),
  );
  return { page, worker };
}

describe("SessionClient.close", () => {
  it("rejects the calls still pending and refuses new ones", async () => {
    const { page } = fakeWorker("s1");
    const client = new SessionClient("s1", async () => ({ transport: page }));
    await client.start();
    const pending = client.continue();
    await new Promise((r) => setTimeout(r, 10));
    client.close();
    await expect(pending).rejects.toThrow(/connection was lost/);
    await expect(client.continue()).rejects.toThrow(/Not connected/);
    expect(client.mirror.getView().connection).toBe("closed");
  });

  it("lets go of the client, its transport and its pending calls once closed", async () => {
    const refs = await (async () => {
      const { page } = fakeWorker("s2");
      const client = new SessionClient("s2", async () => ({ transport: page }));
      await client.start();
      void client.continue().catch(() => {});
      await new Promise((r) => setTimeout(r, 10));
      client.close();
      return { client: new WeakRef(client), transport: new WeakRef(page) };
    })();
    for (let i = 0; i < 10 && (refs.client.deref() || refs.transport.deref()); i++) {
      await new Promise((r) => setTimeout(r, 20));
      gc();
    }
    expect(refs.client.deref()).toBeUndefined();
    expect(refs.transport.deref()).toBeUndefined();
  });
});
