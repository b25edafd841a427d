/**
 * `npm run dev:web`: Paddock in a browser, for developing the UI and for the e2e tests. The package script is
 *   "dev:web": "electron-vite build && tsx src/web-host/main.ts --openai-test-server"
 * and the flags are:
 *   --data-dir DIR          settings, keys (in the clear: dev only), session index and transcripts; default ./.paddock-dev
 *   --build-dir DIR         the electron-vite output to run; default out/ (the e2e tests run a private copy, so a
 *                           rebuild during the run cannot pull files from under them)
 *   --port N                loopback port, default 0 (random)
 *   --openai-test-server    run the scripted OpenAI-compatible test server in-process as provider "Loopback"
 *                           (models test-model, other-model), so the app works with no key
 *   --loopback-url URL      instead, register an OpenAI-compatible server already running on loopback as
 *                           "Loopback" (the e2e tests own their test server, to queue turns and read requests)
 *   --oauth-test-url URL    a loopback stand-in OAuth server (oauth-test-server.ts): GitHub Copilot's "Sign in"
 *                           runs its device-code flow instead of github.com's (the e2e tests own the server)
 *   --integrity-check       workers verify every state batch (slower; the e2e tests use it)
 *
 * Logs to `<data-dir>/logs/paddock.log` as the desktop app does (its console, the workers' and the MCP host's output).
 * Prints `PADDOCK_WEB_URL <url>` once serving, and `worker <pid> session <id>` whenever a worker takes a session.
 * SIGTERM stops the workers gracefully (each aborts its run and journals it) and writes the session index before
 * exiting; SIGINT (Ctrl+C) does the same, but asks first while agents are working.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startOpenAIServer } from "./openai-test-server";
import { parseArgs } from "./args";
import { startWebHost } from "./web-host";
import { trustSystemCertificates } from "../shared-node/process/system-certificates";

trustSystemCertificates();

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

let args;
try {
  args = parseArgs(process.argv.slice(2));
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

const openai = args.openaiTestServer ? await startOpenAIServer({ models: ["test-model", "other-model"] }) : undefined;
const host = await startWebHost({
  dataDir: args.dataDir,
  port: args.port,
  buildDir: resolve(args.buildDir ?? resolve(repoRoot, "out")),
  integrityCheck: args.integrityCheck,
  logConsole: true,
  loopbackBaseUrl: openai?.baseUrl ?? args.loopbackUrl,
  ...(args.oauthTestUrl ? { oauthTestUrl: args.oauthTestUrl } : {}),
  onWorker: (pid, sessionId) => process.stdout.write(`worker ${pid ?? "?"} session ${sessionId}\n`),
});
process.stdout.write(`PADDOCK_WEB_URL ${host.url}\n`);

let stopping = false;
let askedAt = 0;
/** How long a second Ctrl+C counts as the answer to "stop them anyway?". */
const CONFIRM_WINDOW_MS = 5_000;

function stop(): void {
  if (stopping) return;
  stopping = true;
  void (async () => {
    try {
      await host.close();
      await openai?.close();
    } finally {
      process.exit(0);
    }
  })();
}

// Ctrl+C while agents work asks first (a second Ctrl+C confirms), as the app asks before quitting; SIGTERM, from
// a script or a service manager, stops at once. Either way running replies are stopped and journaled as such.
process.on("SIGINT", () => {
  const busy = host.agentsToConfirm();
  const now = Date.now();
  if (busy > 0 && !stopping && now - askedAt > CONFIRM_WINDOW_MS) {
    askedAt = now;
    const agents = busy === 1 ? "An agent is" : `${busy} agents are`;
    process.stdout.write(`\n${agents} still working. Press Ctrl+C again within 5 s to stop ${busy === 1 ? "it" : "them"} and quit.\n`);
    return;
  }
  stop();
});
process.on("SIGTERM", stop);
