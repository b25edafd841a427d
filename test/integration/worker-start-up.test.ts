/**
 * What a worker loads before its first session: its own bundle and nothing else. A package loaded from node_modules
 * at start-up costs every worker, spare or not: resolving and reading its files, and for a CommonJS one, Node's
 * export lexer over each file, which ran hot enough in every start (for `ws`) that V8 optimised it, ~7 MB of the
 * idle worker's memory. Provider SDKs, the sandbox runtime and ripgrep load on first use, not here. The built
 * worker runs for real under a loader hook that records every module it loads.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { NodeWorkerLauncher } from "../../src/main/broker/node-worker-launcher";
import { WorkerHandle } from "../../src/main/broker/worker-handle";
import { workerEnvironment } from "../../src/main/broker/worker-process";
import { identityOf } from "../../src/shared-node/folder-identity";
import { BARE_MAIN } from "../../testkit/bare-main";
import { TempFolders } from "../../testkit/temp-folders";
import { testSettings, WORKER_FILE } from "../../testkit/worker-harness";

const temp = new TempFolders("paddock-start-up-");
let register: string;

beforeAll(() => {
  const root = temp.make();
  const hooks = resolve(root, "hooks.mjs");
  writeFileSync(
    hooks,
    `import { appendFileSync } from "node:fs";
     export async function load(url, context, next) {
       const loaded = await next(url, context);
       if (!url.startsWith("node:")) appendFileSync(process.env.PADDOCK_TEST_LOAD_LOG, JSON.stringify({ url, format: loaded.format }) + "\\n");
       return loaded;
     }`,
  );
  register = resolve(root, "register.mjs");
  writeFileSync(register, `import { register } from "node:module"; register(${JSON.stringify(pathToFileURL(hooks).href)});`);
});
afterAll(() => temp.removeAll());

/** Runs the built worker under the recording hook through `steps`, then stops it; the modules it loaded, in order. */
async function modulesLoaded(steps: (worker: WorkerHandle) => Promise<unknown>): Promise<{ url: string; format: string }[]> {
  const log = resolve(temp.make(), "loads.jsonl");
  const launcher = new NodeWorkerLauncher(WORKER_FILE, ["--import", register]);
  const worker = new WorkerHandle(launcher.launch({ ...workerEnvironment(), PADDOCK_TEST_LOAD_LOG: log }), BARE_MAIN);
  try {
    await worker.call((c) => c.ping());
    await worker.call((c) => c.warmUp()); // a Node host's spare: the session listener is up once this resolves
    await steps(worker);
  } finally {
    await worker.stop(2000);
  }
  expect(existsSync(log)).toBe(true);
  return readFileSync(log, "utf8").trim().split("\n").map((line) => JSON.parse(line) as { url: string; format: string });
}

/** What came from elsewhere than the worker's own bundle, or was not an ES module. */
function foreign(loads: { url: string; format: string }[]): { url: string; format: string }[] {
  const bundle = pathToFileURL(resolve(WORKER_FILE, "..")).href + "/";
  return loads.filter(({ url, format }) => !url.startsWith(bundle) || format !== "module");
}

it("a warm spare, listening for sessions, has loaded only the worker's own bundle, all of it ES modules", async () => {
  const loads = await modulesLoaded(async () => {});
  expect(loads.map(({ url }) => url)).toContain(pathToFileURL(WORKER_FILE).href);
  expect(loads.some(({ url }) => url.includes("websocket-listener"))).toBe(true);
  expect(foreign(loads)).toEqual([]);
});

it("a chat bound to a workspace, the sandbox already known, has its tools from the bundle too (the sandbox runtime and ripgrep wait for a command)", async () => {
  const workspace = temp.make({ "notes.txt": "hello\n" });
  const data = temp.make();
  const { customProviders: _, ...settings } = testSettings({ baseUrl: "http://127.0.0.1:9" });
  const loads = await modulesLoaded(async (worker) => {
    const identity = await identityOf(workspace);
    await worker.call((c) =>
      c.init({
        sessionId: "start-up",
        transcriptFile: resolve(data, "start-up.jsonl"),
        sessionDir: resolve(data, "start-up"),
        privateDir: data,
        workspace,
        ...(identity ? { workspaceIdentity: identity } : {}),
        settings,
        sandbox: { available: true, kind: "bubblewrap" },
        sessionTransport: "websocket",
      }),
    );
  });
  expect(loads.some(({ url }) => url.includes("session-workspace"))).toBe(true);
  expect(foreign(loads)).toEqual([]);
});
