/**
 * What attachments cost the user, on the real broker and workers with the loopback model:
 * - `imageSendMs`: a 10 MB image (the limit) from the page's client to the model: upload (`putAttachment`: base64
 *   over the session socket, checked, hashed, flushed to the session's folder), then `prompt`, until the model
 *   server has the whole request. Target: under 2 s, so the largest photo still feels like sending a message.
 * - `restartedChatRequestMs`: a chat whose history holds 8 images of 1 MB, on a new worker (nothing cached): a new
 *   prompt until the model server has the request, every image read back from disk and verified against its hash.
 *   Target: under 1 s.
 * The median of a few runs each; the loopback server parses every request body whole, as a provider would.
 */
import { randomBytes } from "node:crypto";
import { metric, median, round, withTimeout, type Metric } from "./lib/metrics";
import { benchSettings } from "./lib/sessions";
import { startOpenAIServer, type OpenAITestServer } from "../src/web-host/openai-test-server";
import { startBroker, waitForView } from "../testkit/worker-harness";
import type { SessionClient } from "../src/renderer/store/session-client";
import { MAX_IMAGE_BYTES } from "../src/shared/protocol/attachments";

const RUNS = 3;

/** An image's worth of bytes that does not compress: a PNG signature, then noise. */
function noisePng(bytes: number): string {
  const data = randomBytes(bytes);
  data.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return data.toString("base64");
}

/** Resolves when the server has received one more request than `before`. */
function nextRequest(server: OpenAITestServer, before: number): Promise<void> {
  return withTimeout(
    new Promise<void>((resolve) => {
      const check = () => (server.requests.length > before ? resolve() : setTimeout(check, 2));
      check();
    }),
    30_000,
    "the model request",
  );
}

const idle = (client: SessionClient, messages: number) => waitForView(client, (v) => !v.state.isStreaming && v.state.messages.length === messages, 30_000);

export async function benchAttachments(): Promise<Record<string, Metric>> {
  const server = await startOpenAIServer();
  // The bench's endpoint reads text only; a second one on the same server reads images.
  const settings = benchSettings(server.baseUrl);
  settings.customProviders.push({ id: "vision", name: "Vision", baseUrl: server.baseUrl, models: ["test-model"], images: true });
  const rig = startBroker(settings, { integrityCheck: false });
  const bench = { ...rig, connect: (sessionId: string) => rig.connect(sessionId, `bench-${sessionId}`) };
  const send: number[] = [];
  const upload: number[] = [];
  const restarted: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const { client } = await bench.connect(`send-${run}`);
      await client.setModel({ provider: "custom:vision", id: "test-model" });
      const data = noisePng(MAX_IMAGE_BYTES);
      const before = server.requests.length;
      const t0 = performance.now();
      const ref = await client.putAttachment("photo.png", "image/png", data);
      const uploaded = performance.now();
      const done = client.prompt("What is this?", [ref]);
      await nextRequest(server, before);
      send.push(performance.now() - t0);
      upload.push(uploaded - t0);
      await done;
      await idle(client, 2);
      client.close();
    }

    for (let run = 0; run < RUNS; run++) {
      const sessionId = `restart-${run}`;
      let { client } = await bench.connect(sessionId);
      await client.setModel({ provider: "custom:vision", id: "test-model" });
      const refs = [];
      for (let i = 0; i < 8; i++) refs.push(await client.putAttachment(`p${i}.png`, "image/png", noisePng(1024 * 1024)));
      await client.prompt("Eight pictures", refs);
      await idle(client, 2);
      const closed = new Promise<void>((resolve) => bench.broker.onEvent((e) => e.type === "session-closed" && e.sessionId === sessionId && resolve()));
      client.close();
      bench.broker.detach(sessionId, `bench-${sessionId}`);
      await withTimeout(closed, 10_000, "worker stop");
      ({ client } = await bench.connect(sessionId));
      const before = server.requests.length;
      const t0 = performance.now();
      const done = client.prompt("Again");
      await nextRequest(server, before);
      restarted.push(performance.now() - t0);
      await done;
      await idle(client, 4);
      client.close();
    }
  } finally {
    await bench.close();
    await server.close();
  }
  return {
    imageSendMs: metric(median(send), "<=", 2000, "ms", {
      note: "a 10 MB image: upload, check, hash and flush, then prompt, until the model server has the request (median)",
      detail: { runsMs: send.map((v) => round(v, 1)), uploadMs: round(median(upload), 1) },
    }),
    restartedChatRequestMs: metric(median(restarted), "<=", 1000, "ms", {
      note: "8 images of 1 MB in the history, new worker: prompt until the model server has the request (median)",
      detail: { runsMs: restarted.map((v) => round(v, 1)) },
    }),
  };
}
