/**
 * Runs the loopback OpenAI-compatible test server until killed:
 *   npx tsx test/support/openai-server-cli.ts [--port 0] [--host 127.0.0.1]
 * Prints `OPENAI_TEST_SERVER <baseUrl>` on stdout once it listens, so a parent process can read the address.
 */
import { startOpenAIServer } from "../../src/web-host/openai-test-server";

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

const port = Number(flag("port") ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be an integer 0..65535, got ${flag("port")}`);
  process.exit(2);
}
const server = await startOpenAIServer({ port, host: flag("host") });
process.stdout.write(`OPENAI_TEST_SERVER ${server.baseUrl}\n`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void server.close().then(() => process.exit(0)));
}
