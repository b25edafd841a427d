import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** The Electron suite alone (run by test/electron/run.mjs); apps are launched one at a time. */
export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    include: ["test/electron/**/*.electron.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    fileParallelism: false,
    // The suite launches the built app: a stale build stops the run, saying to run `npm run build`.
    globalSetup: ["testkit/fresh-build-setup.ts"],
  },
});
