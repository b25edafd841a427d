/**
 * Paddock's reading of Comlink's wire format (shared/transport/comlink-messages.ts), checked against the real
 * Comlink: what `wrap` sends is read as the call it is, and the refusal the frame guard sends rejects the caller's
 * promise with its message. A Comlink upgrade that changes the format fails here first.
 */
import { describe, expect, it } from "vitest";
import { wrap, type Endpoint } from "comlink";
import { readMethodCall, thrownErrorReply } from "../../../../src/shared/transport/comlink-messages";

/** A Comlink endpoint whose outgoing messages are recorded and whose incoming ones the test delivers. */
function recordingEndpoint() {
  const sent: unknown[] = [];
  const listeners = new Set<(event: { data: unknown }) => void>();
  const endpoint: Endpoint = {
    postMessage: (message: unknown) => void sent.push(message),
    addEventListener: (_type: string, listener: never) => void listeners.add(listener),
    removeEventListener: (_type: string, listener: never) => void listeners.delete(listener),
  };
  const deliver = (data: unknown) => {
    for (const listener of listeners) listener({ data });
  };
  return { endpoint, sent, deliver };
}

describe("Comlink's messages", () => {
  it("a call through wrap() reads as that method call with its plain arguments", async () => {
    const { endpoint, sent } = recordingEndpoint();
    const remote = wrap<{ prompt(text: string, options: { n: number }): Promise<void> }>(endpoint);
    void remote.prompt("hello", { n: 2 });
    await Promise.resolve();
    const reading = readMethodCall(sent[0]);
    expect(reading).toEqual({ ok: true, call: { id: expect.any(String), path: ["prompt"], args: ["hello", { n: 2 }] } });
  });

  it("property reads, writes and proxies are refused, with the id to answer", async () => {
    const { endpoint, sent } = recordingEndpoint();
    const remote = wrap<{ value: number }>(endpoint) as unknown as { value: Promise<number> };
    void remote.value.then(() => {}, () => {});
    await Promise.resolve();
    const reading = readMethodCall(sent[0]);
    expect(reading).toMatchObject({ ok: false, id: expect.any(String), error: "Only method calls are allowed (got GET)" });
    expect(readMethodCall({ id: "1", type: "APPLY", path: ["f"], argumentList: [{ type: "HANDLER", name: "proxy", value: 1 }] }))
      .toEqual({ ok: false, id: "1", error: "f: arguments must be plain values" });
    expect(readMethodCall({ type: "APPLY", path: ["f"] })).toEqual({ ok: false, error: "RPC message needs a string id" });
    expect(readMethodCall("garbage")).toEqual({ ok: false, error: "RPC message must be an object" });
  });

  it("the refusal rejects the caller's promise with exactly its message", async () => {
    const { endpoint, sent, deliver } = recordingEndpoint();
    const remote = wrap<{ dropDatabase(): Promise<void> }>(endpoint);
    const call = remote.dropDatabase();
    await Promise.resolve();
    const reading = readMethodCall(sent[0]);
    if (!reading.ok) throw new Error(reading.error);
    deliver(thrownErrorReply(reading.call.id, "Unknown method: dropDatabase"));
    await expect(call).rejects.toThrow(/^Unknown method: dropDatabase$/);
  });
});
