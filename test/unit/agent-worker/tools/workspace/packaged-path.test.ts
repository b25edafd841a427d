import { describe, expect, it } from "vitest";
import { unpackedAsarPath } from "../../../../../src/agent-worker/tools/workspace/packaged-path";
import { ripgrepPath } from "../../../../../src/agent-worker/tools/workspace/ripgrep";
import { existsSync } from "node:fs";

describe("unpackedAsarPath", () => {
  it("points a binary inside app.asar at its unpacked copy (POSIX and Windows paths)", () => {
    expect(unpackedAsarPath("/Applications/Paddock.app/Contents/Resources/app.asar/node_modules/@vscode/ripgrep-darwin-arm64/bin/rg")).toBe(
      "/Applications/Paddock.app/Contents/Resources/app.asar.unpacked/node_modules/@vscode/ripgrep-darwin-arm64/bin/rg",
    );
    expect(unpackedAsarPath("C:\\Program Files\\Paddock\\resources\\app.asar\\node_modules\\@vscode\\ripgrep-win32-x64\\bin\\rg.exe")).toBe(
      "C:\\Program Files\\Paddock\\resources\\app.asar.unpacked\\node_modules\\@vscode\\ripgrep-win32-x64\\bin\\rg.exe",
    );
  });

  it("leaves other paths alone, already unpacked ones included", () => {
    for (const path of [
      "/work/paddock/node_modules/@vscode/ripgrep-linux-x64/bin/rg",
      "/opt/Paddock/resources/app.asar.unpacked/node_modules/@vscode/ripgrep-linux-x64/bin/rg",
      "/home/me/my-app.asar/rg",
    ]) {
      expect(unpackedAsarPath(path)).toBe(path);
    }
  });

  it("finds the rg binary of @vscode/ripgrep here", async () => {
    expect(existsSync(await ripgrepPath())).toBe(true);
  });
});
