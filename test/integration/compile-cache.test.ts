/**
 * V8's compile cache holds code the worker and the MCP host run, so it must live where only the user can write:
 * the folder main names under the data folder, and never Node's default, `<tmpdir>/node-compile-cache`, which every
 * local user on Linux shares (one could plant code there for the next worker to run). The built entries run here
 * for real; Node may predate the cache (22.1), so a loader hook hands them a `node:module` whose
 * `enableCompileCache` records the folder each process asks for.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPILE_CACHE_ENV, compileCacheFolder } from "../../src/shared-node/process/compile-cache";
import { NodeWorkerLauncher } from "../../src/main/broker/node-worker-launcher";
import { withCompileCache } from "../../src/main/broker/worker-process";
import { TempFolders } from "../../testkit/temp-folders";
import { MCP_HOST_FILE, WORKER_FILE } from "../../testkit/worker-harness";

const temp = new TempFolders("paddock-compile-cache-");
let root: string;
let stub: string;

beforeAll(() => {
  root = temp.make();
  // The built entries' `node:module` becomes a module that records enableCompileCache's arguments (and has it).
  const recorder = join(root, "module-recorder.mjs");
  writeFileSync(
    recorder,
    `import Module from "node:module";
     import { appendFileSync } from "node:fs";
     export * from "node:module";
     export default Module;
     export function enableCompileCache(...args) {
       appendFileSync(process.env.PADDOCK_TEST_CACHE_LOG, JSON.stringify(args) + "\\n");
       return { status: 0 };
     }`,
  );
  const hooks = join(root, "hooks.mjs");
  writeFileSync(
    hooks,
    `export async function resolve(specifier, context, next) {
       if (specifier === "node:module" && context.parentURL?.includes("/out/main/")) return { url: ${JSON.stringify(pathToFileURL(recorder).href)}, shortCircuit: true };
       return next(specifier, context);
     }`,
  );
  stub = join(root, "register.mjs");
  writeFileSync(stub, `import { register } from "node:module"; register(${JSON.stringify(pathToFileURL(hooks).href)});`);
});
afterAll(() => temp.removeAll());

/**
 * The folders a process asked to cache in, one call per entry (none: the cache stayed off). Whole lines only: a
 * process still running may have created the file and not yet written its line (a CI run read it empty).
 */
function calls(log: string): unknown[][] {
  if (!existsSync(log)) return [];
  return readFileSync(log, "utf8").split("\n").slice(0, -1).map((line) => JSON.parse(line) as unknown[]);
}

/** Runs a built entry alone (no parent channel: it exits once the worker proper refuses to start) with `env`. */
function runEntry(file: string, env: NodeJS.ProcessEnv, log: string): unknown[][] {
  const { [COMPILE_CACHE_ENV]: _, ...base } = process.env;
  spawnSync(process.execPath, ["--import", stub, file], { env: { ...base, ...env, PADDOCK_TEST_CACHE_LOG: log }, stdio: "ignore", timeout: 15_000 });
  return calls(log);
}

function privateFolder(name: string): string {
  const folder = join(root, name);
  mkdirSync(folder, { mode: 0o700 });
  chmodSync(folder, 0o700);
  return folder;
}

describe("where V8's compile cache goes", () => {
  it.each([
    ["agent worker", WORKER_FILE],
    ["MCP host", MCP_HOST_FILE],
  ])("the %s uses only the folder main names, and without one no cache at all (never the shared default)", (name, file) => {
    const id = name.replace(" ", "-");
    const mine = privateFolder(`${id}-cache`);
    expect(runEntry(file, { [COMPILE_CACHE_ENV]: mine }, join(root, `${id}-named.log`))).toEqual([[mine]]);
    // Node's own default would be a call without a folder, or NODE_COMPILE_CACHE: neither happens.
    expect(runEntry(file, {}, join(root, `${id}-none.log`))).toEqual([]);
  });

  it("refuses a folder another local user could have planted code in", () => {
    // What another user can make: the shared default, world-writable; a folder of their own; a relative name.
    const shared = join(root, "tmp", "node-compile-cache");
    mkdirSync(shared, { recursive: true });
    chmodSync(shared, 0o777);
    const groupWritable = privateFolder("group-writable");
    chmodSync(groupWritable, 0o770);
    const cases = [shared, groupWritable, "compile-cache", join(root, "missing"), join(tmpdir(), "node-compile-cache")];
    if (process.getuid?.() === 0) {
      const theirs = privateFolder("theirs");
      chownSync(theirs, 65534, 65534);
      cases.push(theirs);
    }
    for (const folder of cases) expect(compileCacheFolder({ [COMPILE_CACHE_ENV]: folder }), folder).toBeUndefined();
    expect(runEntry(WORKER_FILE, { [COMPILE_CACHE_ENV]: shared }, join(root, "shared.log"))).toEqual([]);
    expect(compileCacheFolder({})).toBeUndefined();
  });

  it("main's launcher names its folder to the worker, and drops a name it inherited when it has none", async () => {
    const folder = privateFolder("launcher-cache");
    const log = join(root, "launcher.log");
    process.env.PADDOCK_TEST_CACHE_LOG = log;
    const child = new NodeWorkerLauncher(WORKER_FILE, ["--import", stub], folder).launch();
    try {
      for (const t0 = Date.now(); calls(log).length === 0 && Date.now() - t0 < 15_000; ) await new Promise((r) => setTimeout(r, 20));
      expect(calls(log)).toEqual([[folder]]);
    } finally {
      child.kill();
      await child.exited;
      delete process.env.PADDOCK_TEST_CACHE_LOG;
    }
    expect(withCompileCache({ [COMPILE_CACHE_ENV]: "/inherited", PATH: "/bin" }, undefined)).toEqual({ PATH: "/bin" });
    expect(withCompileCache({ PATH: "/bin" }, folder)).toEqual({ PATH: "/bin", [COMPILE_CACHE_ENV]: folder });
  });
});
