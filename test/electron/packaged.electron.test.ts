/**
 * The packaged app as electron-builder made it (`npm run dist:test`), run by `npm run test:electron -- --packaged
 * <executable>` (CI's packaged-linux job); the rest of the suite runs against it too. What only a packaged app has:
 * its fuses as flipped in the binary, `app.isPackaged`, the code loaded from app.asar and its page from app://, and
 * the helpers other programs execute unpacked beside the archive, where the workers look for them
 * (src/agent-worker/tools/workspace/packaged-path.ts). Skips, saying so, without `--packaged`.
 */
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FuseV1Options, getCurrentFuseWire } from "@electron/fuses";
import { _electron, type ElectronApplication } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appUnderTest } from "./app-under-test.mjs";

/** A fuse's byte in the wire, as @electron/fuses reads it (its FuseState, which it does not export): ASCII 1 and 0. */
const FuseState = { ENABLE: 49, DISABLE: 48 } as const;

const app = appUnderTest(process.env);
const packaged = "path" in app && app.packaged ? app.path : undefined;
if (!packaged) console.warn("SKIPPED: the packaged app's own checks run only with `npm run test:electron -- --packaged <executable>`.");

describe.skipIf(!packaged)("the packaged app", () => {
  let userData: string;
  let electronApp: ElectronApplication;
  let main: { isPackaged: boolean; appPath: string; resources: string; platform: string; arch: string };

  beforeAll(async () => {
    userData = mkdtempSync(join(tmpdir(), "paddock-packaged-"));
    electronApp = await _electron.launch({
      executablePath: packaged!,
      args: process.getuid?.() === 0 ? ["--no-sandbox"] : [],
      env: { ...process.env, PADDOCK_USER_DATA: userData } as Record<string, string>,
      timeout: 30_000,
    });
    main = await electronApp.evaluate(({ app: electron }) => ({
      isPackaged: electron.isPackaged,
      appPath: electron.getAppPath(),
      resources: process.resourcesPath,
      platform: process.platform,
      arch: process.arch,
    }));
  });

  afterAll(async () => {
    await electronApp?.close().catch(() => undefined);
    if (userData) rmSync(userData, { recursive: true, force: true });
  });

  it("has the release fuses flipped in its binary, with only the inspector Playwright drives left on", async () => {
    const wire = await getCurrentFuseWire(packaged!);
    expect(wire[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(FuseState.ENABLE);
  });

  it("knows it is packaged, runs from app.asar and shows its page from app://", async () => {
    expect(main.isPackaged).toBe(true);
    expect(main.appPath).toBe(join(main.resources, "app.asar"));
    const window = await electronApp.firstWindow();
    expect(new URL(window.url()).protocol).toBe("app:");
  });

  it("holds, unpacked and executable, the ripgrep the workers run and (on Linux) the seccomp helper bubblewrap runs", () => {
    const unpacked = join(main.resources, "app.asar.unpacked", "node_modules");
    const rg = join(unpacked, "@vscode", `ripgrep-${main.platform}-${main.arch}`, "bin", main.platform === "win32" ? "rg.exe" : "rg");
    const helpers = [rg];
    if (main.platform === "linux") {
      helpers.push(join(unpacked, "@anthropic-ai/sandbox-runtime/vendor/seccomp", main.arch === "arm64" ? "arm64" : "x64", "apply-seccomp"));
    }
    for (const helper of helpers) expect(() => accessSync(helper, main.platform === "win32" ? constants.R_OK : constants.X_OK), helper).not.toThrow();
  });
});
