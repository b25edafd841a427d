/**
 * The bench page (bench/renderer-page: the real App over a real SessionClient), built with Vite into a temp folder
 * and served on loopback with cross-origin isolation, plus a Chromium to open it in.
 */
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, resolve } from "node:path";
import react from "@vitejs/plugin-react";
import { build } from "vite";
import type { Browser } from "playwright-core";
import { launchChromium } from "../../testkit/launch-chromium";

/**
 * An init script for pages the benches evaluate functions in: tsx names the functions inside those page scripts with
 * a `__name` helper the page lacks, so the page gets one.
 */
export const KEEP_NAMES = "window.__name = (f) => f;";

const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css" };

export interface BenchPage {
  browser: Browser;
  /** The page on the session whose worker listens at `ws`; `extra` adds query parameters (e.g. `paint`). */
  url(ws: string, sessionId: string, extra?: Record<string, string>): string;
  close(): Promise<void>;
}

export async function startBenchPage(): Promise<BenchPage> {
  const outDir = mkdtempSync(join(tmpdir(), "paddock-bench-page-"));
  await build({
    root: resolve("bench/renderer-page"),
    configFile: false,
    logLevel: "warn",
    plugins: [react()],
    base: "./",
    // BENCH_PROFILE=1 keeps names readable for the CPU profile summary.
    build: { outDir, emptyOutDir: true, sourcemap: false, minify: !process.env.BENCH_PROFILE },
  });
  const http = createServer((req, res) => {
    let file = resolve(outDir, `.${decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)}`);
    if (!file.startsWith(outDir) || !existsSync(file) || statSync(file).isDirectory()) file = join(outDir, "index.html");
    // Cross-origin isolation gives the page a 5 µs clock instead of Chromium's default 100 µs one, so frame deltas
    // of one vsync read 16.67 ms rather than jittering between 16.6 and 16.8 around the 16.7 ms target.
    res.writeHead(200, {
      "content-type": TYPES[extname(file)] ?? "application/octet-stream",
      "cross-origin-opener-policy": "same-origin",
      "cross-origin-embedder-policy": "require-corp",
    });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((ok) => http.listen(0, "127.0.0.1", ok));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}/index.html`;
  const browser = await launchChromium();
  return {
    browser,
    url: (ws, sessionId, extra = {}) => `${base}?${new URLSearchParams({ ws, session: sessionId, ...extra })}`,
    async close() {
      await browser.close();
      await new Promise<void>((ok) => http.close(() => ok()));
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
