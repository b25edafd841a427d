/**
 * A loopback OpenAI-compatible streaming server that records WHEN each text chunk was written, for the latency
 * benchmark: the mirror's update time minus a chunk's write time is emit -> mirror updated, including the model hop
 * (server -> worker) that every real reply also takes. Serves one scripted text per request; loopback only; every
 * timer it starts belongs to a response and stops with it.
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface ChunkWrite {
  /** Characters of the reply written once this chunk is out (its end offset). */
  endOffset: number;
  /** performance.now() just after the chunk was handed to the socket. */
  writtenAt: number;
}

export interface TimedModelServer {
  baseUrl: string;
  /** The next request streams `text`, `chunkChars` per chunk, paced at `tokensPerSecond` (4 characters a token). */
  next(text: string, chunkChars: number, tokensPerSecond: number): void;
  /** Write times of the last streamed reply, in order. */
  writes: ChunkWrite[];
  close(): Promise<void>;
}

export async function startTimedModelServer(): Promise<TimedModelServer> {
  let script = { text: "ok", chunkChars: 8, tokensPerSecond: 2000 };
  const writes: ChunkWrite[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.startsWith("/v1/chat/completions")) {
        res.writeHead(404).end();
        return;
      }
      writes.length = 0;
      stream(res, script.text, script.chunkChars, script.tokensPerSecond, writes);
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    next: (text, chunkChars, tokensPerSecond) => void (script = { text, chunkChars, tokensPerSecond }),
    writes,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        for (const s of sockets) s.destroy();
      }),
  };
}

function stream(res: ServerResponse, text: string, chunkChars: number, tokensPerSecond: number, writes: ChunkWrite[]): void {
  const envelope = { id: "chatcmpl-bench", object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model: "test-model" };
  const sse = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ ...envelope, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.flushHeaders();
  const startedAt = performance.now();
  const msPerChar = 1000 / (tokensPerSecond * 4);
  let offset = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  res.once("close", () => clearTimeout(timer));
  const tick = (): void => {
    // Write every chunk that is due now (timers are coarser than 1 ms), then sleep until the next is due.
    while (offset < text.length && performance.now() >= startedAt + offset * msPerChar) {
      const piece = text.slice(offset, offset + chunkChars);
      res.write(sse(offset === 0 ? { role: "assistant", content: piece } : { content: piece }, null));
      offset += piece.length;
      writes.push({ endOffset: offset, writtenAt: performance.now() });
    }
    if (offset < text.length) {
      timer = setTimeout(tick, Math.max(0, startedAt + offset * msPerChar - performance.now()));
      return;
    }
    res.write(sse({}, "stop"));
    res.end("data: [DONE]\n\n");
  };
  tick();
}
