/**
 * Vitest's global set-up: a run that includes tests of the built app (integration, browser, Electron: anything outside
 * test/unit, which loads src/ itself) stops at once when `out/` is missing or older than its sources, saying to run
 * `npm run build`, instead of quietly testing the code as it was at the last build. `npm test` builds first.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildFreshness } from "./build-freshness";
import { cliFilters, filteredTestFiles } from "./run-filters";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

export default function setup(): void {
  requireFreshBuild(repoRoot, cliFilters());
}

/** Throws, saying what is stale and what to run, when a run given `filters` would test a stale build. */
export function requireFreshBuild(root: string, filters: readonly string[]): void {
  const files = filteredTestFiles(root, filters);
  if (files && files.every((file) => file.startsWith("test/unit/"))) return;
  const freshness = buildFreshness(root);
  if (!freshness.fresh) {
    throw new Error(
      `These tests run the built app (out/), but ${freshness.reason}. Run \`npm run build\` first ` +
        `(\`npm test\` builds, then tests), or the tests would run the code as it was at the last build.`,
    );
  }
}
