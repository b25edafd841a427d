/**
 * `npm run test:electron`'s runner (test/electron/run.mjs) where the Electron binary is missing: under CI it fails,
 * naming what is missing and how to get it, as the sandbox suites do; elsewhere it skips, loudly, and succeeds. The
 * runner is spawned for real with ELECTRON_OVERRIDE_DIST_PATH pointing at an empty folder, so it never reaches vitest.
 */
import { afterEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { whenBinaryMissing } from "../../electron/missing-binary.mjs";

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
