/**
 * `npm run test:electron`'s runner (test/electron/run.mjs) where the Electron binary is missing: under CI it fails,
 * naming what is missing and how to get it, as the sandbox suites do; elsewhere it skips, loudly, and succeeds. The
 * runner is spawned for real with ELECTRON_OVERRIDE_DIST_PATH pointing at an empty folder, so it never reaches vitest.
 * Then its `--packaged <executable>` option (app-under-test.mjs): which app the suite launches, and how.
 */
import { afterEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { whenBinaryMissing } from "../../electron/missing-binary.mjs";
import { appUnderTest, entryArguments, packagedOption } from "../../electron/app-under-test.mjs";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Runs the runner with no Electron binary to be found, under `ci` (or with CI unset). */
function runWithoutBinary(ci: string | undefined): { status: number | null; stdout: string; stderr: string } {
  const empty = mkdtempSync(join(tmpdir(), "paddock-no-electron-"));
  dirs.push(empty);
  const env: NodeJS.ProcessEnv = { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty };
  delete env.CI;
  if (ci !== undefined) env.CI = ci;
  const run = spawnSync(process.execPath, ["test/electron/run.mjs"], { env, encoding: "utf8", timeout: 30_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("the Electron suite's runner without the Electron binary", () => {
  it("fails under CI, saying the suite must run there, what is missing and how to fetch it", () => {
    for (const ci of ["1", "true"]) {
      const run = runWithoutBinary(ci);
      expect(run.status, `CI=${ci}`).toBe(1);
      expect(run.stderr).toMatch(/FAILED: the Electron suite must run on CI, but the Electron binary is not available \(ELECTRON_OVERRIDE_DIST_PATH has no .*paddock-no-electron-.*\)\. Fetch it first \(node node_modules\/electron\/install\.js\)\./);
      expect(run.stdout).not.toMatch(/SKIPPED/);
    }
  });

  it("skips elsewhere, loudly, and succeeds", () => {
    for (const ci of [undefined, ""]) {
      const run = runWithoutBinary(ci);
      expect(run.status, `CI=${ci}`).toBe(0);
      expect(run.stdout).toMatch(/SKIPPED: Electron binary not available on this machine \(ELECTRON_OVERRIDE_DIST_PATH has no .*\)\. The Electron suite runs where it is\./);
      expect(run.stderr).not.toMatch(/FAILED/);
    }
  });

  it("decides from the environment alone", () => {
    expect(whenBinaryMissing("x is missing", { CI: "true" })).toMatchObject({ exitCode: 1, message: expect.stringContaining("FAILED") });
    expect(whenBinaryMissing("x is missing", {})).toMatchObject({ exitCode: 0, message: expect.stringContaining("SKIPPED") });
  });
});

describe("the Electron suite's runner with --packaged", () => {
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), "paddock-packaged-"));
    dirs.push(dir);
    return dir;
  };

  it("takes the packaged app's path out of the arguments, relative to where it runs, and passes the rest to vitest", () => {
    const dir = folder();
    mkdirSync(join(dir, "dist/test/linux-unpacked"), { recursive: true });
    writeFileSync(join(dir, "dist/test/linux-unpacked/paddock"), "");
    expect(packagedOption(["-t", "quits", "--packaged", "dist/test/linux-unpacked/paddock"], dir)).toEqual({
      rest: ["-t", "quits"],
      packaged: join(dir, "dist/test/linux-unpacked/paddock"),
    });
    expect(packagedOption(["-t", "quits"], dir)).toEqual({ rest: ["-t", "quits"] });
  });

  it("refuses a missing path, a folder, or no path at all, saying how to build one", () => {
    const dir = folder();
    expect(packagedOption(["--packaged", "nowhere/paddock"], dir)).toEqual({ error: expect.stringContaining("build one with `npm run dist:test`") });
    expect(packagedOption(["--packaged", "."], dir)).toEqual({ error: expect.stringContaining(`there is no app at ${dir}`) });
    expect(packagedOption(["--packaged"], dir)).toEqual({ error: expect.stringMatching(/^--packaged needs the path/) });
    expect(packagedOption(["--packaged", "-t"], dir)).toEqual({ error: expect.stringMatching(/^--packaged needs the path/) });
  });

  it("fails at once, even outside CI, when the packaged app is not there (spawned for real)", () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.CI;
    const run = spawnSync(process.execPath, ["test/electron/run.mjs", "--packaged", "dist/test/nowhere/paddock"], { env, encoding: "utf8", timeout: 30_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/npm run test:electron: --packaged dist\/test\/nowhere\/paddock: there is no app at .*nowhere.*npm run dist:test/);
    expect(run.stdout).not.toMatch(/SKIPPED/);
  });

  it("launches a packaged app with no entry point, the development binary with out/'s", () => {
    const dir = folder();
    const exe = join(dir, "paddock");
    writeFileSync(exe, "");
    const app = appUnderTest({ PADDOCK_PACKAGED_APP: exe });
    expect(app).toEqual({ path: exe, packaged: true });
    expect(entryArguments({ packaged: true }, "out/main/index.js")).toEqual([]);
    expect(entryArguments({ packaged: false }, "out/main/index.js")).toEqual(["out/main/index.js"]);
    expect(appUnderTest({ PADDOCK_PACKAGED_APP: join(dir, "gone") })).toEqual({ missing: expect.stringContaining("which does not exist") });
  });
});
