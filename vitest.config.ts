import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts", "test/integration/**/*.test.ts", "test/e2e/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The browser tests need a Chromium: found (or got once) before any test runs.
    globalSetup: ["testkit/browser-setup.ts"],
  },
});
