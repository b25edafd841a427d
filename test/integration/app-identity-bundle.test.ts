/**
 * The built main (out/main/index.js after `npm run build`) sets, on Windows and before app ready, the Application
 * User Model ID that electron-builder.yml's appId stamps on the installer's shortcut: the bundled id module, run as
 * built, answers the yml's appId, and the call sits in main's top-level code ahead of `whenReady`.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";

const bundle = readFileSync("out/main/index.js", "utf8");

/** The code the bundler took from `source` (it marks each module with a `// src/...` comment). */
function moduleCode(source: string): string {
  const start = bundle.indexOf(`// ${source}\n`);
  expect(start, `${source} is bundled into out/main/index.js`).toBeGreaterThanOrEqual(0);
  const next = bundle.slice(start + 1).search(/^\/\/ src\//m);
  return bundle.slice(start, next < 0 ? undefined : start + 1 + next);
}

describe("the built main's app id", () => {
  it("is electron-builder.yml's appId, as the bundled code computes it for an installed app on Windows", () => {
    const { appId } = parse(readFileSync("electron-builder.yml", "utf8")) as { appId: string };
    const code = moduleCode("src/main/lifecycle/app-identity.ts");
    const appUserModelId = new Function(`${code}\nreturn appUserModelId;`)() as (platform: string, packaged: boolean) => string | undefined;
    expect(appUserModelId("win32", true)).toBe(appId);
    expect(appUserModelId("win32", false)).not.toBe(appId);
    expect(appUserModelId("linux", true)).toBeUndefined();
  });

  it("is set before app ready, with the packaged state deciding which", () => {
    const set = bundle.search(/app\.setAppUserModelId\(\w+\)/);
    expect(set).toBeGreaterThan(0);
    expect(bundle.slice(0, set)).toMatch(/= appUserModelId\(process\.platform, app\.isPackaged\);\s*if \(\w+ !== void 0\) $/);
    expect(bundle.indexOf("app.whenReady()")).toBeGreaterThan(set);
  });
});
