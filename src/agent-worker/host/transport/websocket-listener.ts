/**
 * Session connections for Node hosts (tests, `npm run dev:web`): a WebSocket server on 127.0.0.1 only, on a
 * random port, accepting only clients that present this worker's random token. Each socket is one mirror.
 */
import { randomBytes } from "node:crypto";
import { WebSocketServer } from "ws";
import { WebSocketTransport, type WebSocketLike } from "../../../shared/transport/websocket-transport";
import type { Transport } from "../../../shared/transport/transport";

/** Large enough that an oversized command reaches the frame guard and gets an error reply instead of a hang-up. */
const MAX_PAYLOAD_BYTES = 128 * 1024 * 1024;

export async function listenForSessions(onTransport: (transport: Transport) => void): Promise<{ url: string; close(): void }> {
  const token = randomBytes(18).toString("base64url");
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0, maxPayload: MAX_PAYLOAD_BYTES });
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  server.on("connection", (socket, request) => {
    const presented = new URL(request.url ?? "/", "http://127.0.0.1").searchParams.get("token");
    if (presented !== token) {
      socket.close(4401, "bad token");
      return;
    }
    onTransport(new WebSocketTransport(socket as unknown as WebSocketLike));
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { url: `ws://127.0.0.1:${port}/session?token=${token}`, close: () => server.close() };
}
