import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts", "test/integration/**/*.test.ts", "test/e2e/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Tests of the built app refuse a stale build; the browser tests need a Chromium, found (or got once): both
    // before any test runs.
    globalSetup: ["testkit/fresh-build-setup.ts", "testkit/browser-setup.ts"],
  },
});
