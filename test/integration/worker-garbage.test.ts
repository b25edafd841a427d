/**
 * Garbage on the session transport: every bad frame gets an error reply; the worker stays up and keeps serving.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { endpointUrl } from "../../src/main/broker/session-broker";
import { startHarness, waitForView, WORKER_FILE, type Harness } from "../../testkit/worker-harness";
import { fork } from "node:child_process";
import { readFileSync } from "node:fs";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

async function rawSocket(url: string) {
  const socket = new WebSocket(url, { maxPayload: 256 * 1024 * 1024 });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  const frames: any[] = [];
  socket.on("message", (data) => frames.push(JSON.parse(String(data))));
  const next = async (predicate: (f: any) => boolean) => {
    for (let i = 0; i < 200; i++) {
      const index = frames.findIndex(predicate);
      if (index >= 0) return frames.splice(index, 1)[0];
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error("no such frame arrived");
  };
  return { socket, next };
}

const rpc = (id: string, path: string[], args: unknown[], type = "APPLY") => ({
  ch: "rpc",
  m: { id, type, path, argumentList: args.map((value) => ({ type: "RAW", value })) },
});

const errorFor = (id: string) => (f: any) => f.ch === "rpc" && f.m?.id === id && f.m?.value?.isError === true;

describe("garbage on the session port", () => {
  it("answers each bad frame with an error and keeps serving", async () => {
    const attachment = await h.broker.attach("garbage", "raw");
    const { socket, next } = await rawSocket(endpointUrl(attachment));

    socket.send(Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0xff]));
    expect((await next((f) => f.ch === "err")).message).toMatch(/Unknown frame/);

    socket.send(JSON.stringify({ ch: "rpc", m: "not an object" }));
    expect((await next((f) => f.ch === "err")).message).toMatch(/must be an object/);

    socket.send(JSON.stringify(rpc("u1", ["dropDatabase"], [])));
    expect((await next(errorFor("u1"))).m.value.value.message).toMatch(/Unknown method: dropDatabase/);

    socket.send(JSON.stringify(rpc("t1", ["prompt"], [42])));
    expect((await next(errorFor("t1"))).m.value.value.message).toMatch(/prompt: invalid arguments/);

    socket.send(JSON.stringify(rpc("g1", ["prompt"], [], "GET")));
    expect((await next(errorFor("g1"))).m.value.value.message).toMatch(/Only method calls/);

    socket.send(JSON.stringify(rpc("big", ["prompt"], ["x".repeat(50 * 1024 * 1024)])));
    expect((await next(errorFor("big"))).m.value.value.message).toMatch(/larger than|invalid arguments/);

    socket.send(JSON.stringify(rpc("r1", ["removeQueued"], ["steering", 3])));
    expect((await next(errorFor("r1"))).m.value.value.message).toMatch(/no queued steering message/);

    // Still alive and serving: a normal client can chat.
    socket.close();
    h.server.enqueue({ text: "still here" });
    const client = await h.client("garbage");
    await client.prompt("are you alive?");
    await waitForView(client, (v) => !v.state.isStreaming && v.state.messages.length === 2);
    expect(client.mirror.getView().state.messages[1].role).toBe("assistant");
  });
});

describe("a worker whose output nobody reads any more", () => {
  it("does not spin when reporting a failure fails too (stdout piped into a program that quit)", async () => {
    const child = fork(WORKER_FILE, [], { serialization: "advanced", stdio: ["ignore", "pipe", "pipe", "ipc"] });
    try {
      await new Promise((resolve) => child.once("spawn", resolve));
      await new Promise((resolve) => setTimeout(resolve, 300));
      child.stdout!.destroy();
      child.stderr!.destroy();
      // A control frame Comlink cannot read throws inside the worker: an uncaught exception it reports on stderr.
      for (let i = 0; i < 5; i++) child.send({ ch: "c2w", m: { type: "APPLY", id: `g${i}`, path: ["init"], argumentList: "garbage" } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const before = cpuMs(child.pid!);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(cpuMs(child.pid!) - before).toBeLessThan(200); // it was a full core before the fix
    } finally {
      child.kill("SIGKILL");
    }
  });
});

/** A process's user + system CPU time so far, from /proc (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
