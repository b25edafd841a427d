#!/usr/bin/env node
/**
 * `npm start`: runs the desktop app (electron-vite preview: build, then Electron on the build). Since Electron 42 the
 * binary is not fetched by `npm install`; this fetches it on the first start (Electron's own install step), and where
 * it cannot (offline, a blocked download) says in plain words what is missing and what works meanwhile, instead of a
 * stack trace.
 *
 * The app it starts is unpackaged: on macOS and Windows it keeps its data (and its single-instance lock) in
 * `<appData>/Paddock Dev`, never the installed app's `Paddock` (src/main/lifecycle/data-folder.ts), so both can run
 * side by side; `PADDOCK_USER_DATA=<dir>` picks another.
 */
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { findElectronBinary } from "./electron-binary.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

let binary = findElectronBinary();
if ("missing" in binary) {
  console.log("Paddock: fetching Electron's binary (once, on the first start)...");
  const fetched = spawnSync(process.execPath, [join(root, "node_modules", "electron", "install.js")], { encoding: "utf8", timeout: 10 * 60_000 });
  binary = findElectronBinary();
  if ("missing" in binary) {
    const why = `${fetched.stderr ?? ""}${fetched.error?.message ?? ""}`.split("\n").find((line) => line.trim()) ?? "no reason given";
    console.error(
      [
        "",
        "Paddock's desktop app needs Electron's binary, which is downloaded on the first start, and the download failed:",
        `  ${why.trim()}`,
        "",
        "Check your connection (or set ELECTRON_MIRROR to a mirror you can reach) and run `npm start` again.",
        "Meanwhile `npm run dev:web` runs Paddock in your browser, with the same agents and chats.",
        "",
      ].join("\n"),
    );
    process.exit(1);
  }
}

const electronVite = join(root, "node_modules", "electron-vite", "bin", "electron-vite.js");
const run = spawnSync(process.execPath, [electronVite, "preview", ...process.argv.slice(2)], { stdio: "inherit", cwd: root });
process.exit(run.status ?? 1);
