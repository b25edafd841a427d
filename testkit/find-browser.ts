/**
 * Finds a Chromium for the browser tests and benchmarks (playwright-core drives it; it downloads none by itself):
 * `CHROMIUM_PATH`, then Playwright's browser cache, then Chrome or Chromium where Linux, macOS and Windows put them.
 * Never installs anything; see testkit/browser-setup.ts for what happens when there is none.
 */
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** The browser to use, or undefined with `tried` listing every place looked at. */
export function findBrowser(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): { path?: string; tried: string[] } {
  const tried: string[] = [];
  const candidates = [...(env.CHROMIUM_PATH ? [env.CHROMIUM_PATH] : []), ...playwrightCache(env, platform), ...usualPlaces(env, platform)];
  for (const path of candidates) {
    tried.push(path);
    if (existsSync(path)) return { path, tried };
  }
  return { tried };
}

/** Chromium builds `npx playwright install chromium` put in its cache, newest first. */
function playwrightCache(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string[] {
  const root =
    env.PLAYWRIGHT_BROWSERS_PATH ??
    (platform === "darwin"
      ? join(homedir(), "Library", "Caches", "ms-playwright")
      : platform === "win32"
        ? join(env.LOCALAPPDATA ?? join(homedir(), "AppData", "Local"), "ms-playwright")
        : join(env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "ms-playwright"));
  let builds: string[];
  try {
    builds = readdirSync(root).filter((name) => /^chromium-\d+$/.test(name));
  } catch {
    return [];
  }
  builds.sort((a, b) => Number(b.slice(9)) - Number(a.slice(9)));
  return builds.flatMap((build) => {
    const dir = join(root, build);
    if (platform === "darwin") {
      return [
        join(dir, "chrome-mac", "Chromium.app", "Contents", "MacOS", "Chromium"),
        join(dir, "chrome-mac-arm64", "Google Chrome for Testing.app", "Contents", "MacOS", "Google Chrome for Testing"),
        join(dir, "chrome-mac-x64", "Google Chrome for Testing.app", "Contents", "MacOS", "Google Chrome for Testing"),
      ];
    }
    if (platform === "win32") return [join(dir, "chrome-win", "chrome.exe"), join(dir, "chrome-win64", "chrome.exe")];
    return [join(dir, "chrome-linux", "chrome"), join(dir, "chrome-linux64", "chrome")];
  });
}

function usualPlaces(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string[] {
  if (platform === "darwin") {
    return [
      "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
      "/Applications/Chromium.app/Contents/MacOS/Chromium",
      join(homedir(), "Applications", "Google Chrome.app", "Contents", "MacOS", "Google Chrome"),
    ];
  }
  if (platform === "win32") {
    const roots = [env.PROGRAMFILES, env["PROGRAMFILES(X86)"], env.LOCALAPPDATA].filter((r): r is string => Boolean(r));
    return roots.flatMap((r) => [join(r, "Google", "Chrome", "Application", "chrome.exe"), join(r, "Chromium", "Application", "chrome.exe")]);
  }
  return ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable", "/snap/bin/chromium"];
}
