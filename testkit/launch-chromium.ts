/**
 * Chromium as the project's tests and benchmarks run it (see DESIGN.md): the browser find-browser.ts finds, driven by
 * playwright-core, with the flags that keep it quiet and offline.
 */
import { chromium, type Browser } from "playwright-core";
import { findBrowser } from "./find-browser";

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    // Set by browser-setup.ts for the tests; the benches look for themselves.
    executablePath: process.env.CHROMIUM_PATH ?? findBrowser().path ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}
