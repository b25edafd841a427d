/**
 * A loopback port nobody listens at: connecting to it is refused.
 *
 * Chosen below the systems' ephemeral ranges (Linux 32768–60999, macOS and Windows 49152–65535), where no `listen(0)`
 * lands: a port taken from `listen(0)` and closed again could be handed straight to the next `listen(0)` (a worker's
 * WebSocket listener did exactly that in one CI run, answering "426 Upgrade Required" where the test expected
 * ECONNREFUSED). Each candidate is checked free by listening on it once.
 */
import { createServer } from "node:net";

const LOW = 20_000;
const HIGH = 32_000;

export async function closedPort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (await isFree(port)) return port;
  }
  throw new Error(`closedPort: no free loopback port between ${LOW} and ${HIGH} after 50 tries`);
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}
