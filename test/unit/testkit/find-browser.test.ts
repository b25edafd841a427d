/** Where the browser tests look for a Chromium, in order; nothing is installed by looking. */
import { afterEach, describe, expect, it } from "vitest";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findBrowser } from "../../../testkit/find-browser";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function file(path: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, "#!/bin/sh\n");
  chmodSync(path, 0o755);
  return path;
}

function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), "paddock-browser-"));
  made.push(dir);
  return dir;
}

describe("finding a browser for the tests", () => {
  it("takes CHROMIUM_PATH first", () => {
    const chrome = file(join(temp(), "my-chrome"));
    expect(findBrowser({ CHROMIUM_PATH: chrome }, "linux").path).toBe(chrome);
  });

  it("then the newest Chromium in Playwright's cache (Linux, macOS and Windows layouts)", () => {
    const cache = temp();
    file(join(cache, "chromium-1100", "chrome-linux", "chrome"));
    const newest = file(join(cache, "chromium-1200", "chrome-linux", "chrome"));
    expect(findBrowser({ PLAYWRIGHT_BROWSERS_PATH: cache, CHROMIUM_PATH: join(cache, "missing") }, "linux").path).toBe(newest);
    const mac = file(join(cache, "chromium-1300", "chrome-mac", "Chromium.app", "Contents", "MacOS", "Chromium"));
    expect(findBrowser({ PLAYWRIGHT_BROWSERS_PATH: cache }, "darwin").path).toBe(mac);
    const win = file(join(cache, "chromium-1400", "chrome-win", "chrome.exe"));
    expect(findBrowser({ PLAYWRIGHT_BROWSERS_PATH: cache }, "win32").path).toBe(win);
  });

  it("says everywhere it looked when there is none", () => {
    const found = findBrowser({ PLAYWRIGHT_BROWSERS_PATH: temp(), PROGRAMFILES: temp() }, "win32");
    expect(found.path).toBeUndefined();
    expect(found.tried.some((p) => p.endsWith(join("Google", "Chrome", "Application", "chrome.exe")))).toBe(true);
  });
});
