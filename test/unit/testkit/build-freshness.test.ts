/**
 * The test kit's refusal of a stale build (testkit/build-freshness.ts, testkit/fresh-build-setup.ts): on a small
 * repository of its own, a run of built-app tests stops when out/ is missing or older than any source, config or
 * install, naming what changed and saying to run `npm run build`; unit-only runs never look.
 */
import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execFileSync } from "node:child_process";
import { BUILD_INPUT_FILES, BUILD_OUTPUTS, buildFreshness } from "../../../testkit/build-freshness";
import { requireFreshBuild } from "../../../testkit/fresh-build-setup";
import { cliFilters, filteredTestFiles } from "../../../testkit/run-filters";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const SOURCES = ["src/main/broker/core.ts", "src/agent-worker/host/entry.ts", "src/renderer/index.html", "src/renderer/styles/app.css"];
const TESTS = ["test/unit/a.test.ts", "test/unit/area/b.test.ts", "test/integration/worker-session.test.ts", "test/e2e/app.e2e.test.ts"];

/** Writes `file` under `root`, dated `secondsAgo` seconds ago. */
function put(root: string, file: string, secondsAgo: number): void {
  const path = join(root, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, file);
  const when = Date.now() / 1000 - secondsAgo;
  utimesSync(path, when, when);
}

/** A repository whose sources and configs were written an hour ago and its build a minute ago. */
function builtRepo(): string {
  const root = mkdtempSync(join(tmpdir(), "paddock-build-freshness-"));
  roots.push(root);
  for (const file of [...SOURCES, ...BUILD_INPUT_FILES, ...TESTS]) put(root, file, 3600);
  for (const file of BUILD_OUTPUTS) put(root, file, 60);
  return root;
}

describe("a build's freshness", () => {
  it("is fresh when every input is older than every output", () => {
    expect(buildFreshness(builtRepo())).toEqual({ fresh: true });
  });

  it("is stale when a source changed after the build, naming the source", () => {
    const root = builtRepo();
    put(root, "src/agent-worker/host/entry.ts", 5);
    const freshness = buildFreshness(root);
    expect(freshness.fresh).toBe(false);
    expect(!freshness.fresh && freshness.reason).toMatch(/^the build is older than its sources: src\/agent-worker\/host\/entry\.ts changed at .* UTC, after out\/.* was built at .* UTC$/);
  });

  it("is stale when a new source file appears after the build, or a stylesheet or page changes", () => {
    const root = builtRepo();
    put(root, "src/shared/new-module.ts", 1);
    expect(buildFreshness(root)).toMatchObject({ fresh: false, reason: expect.stringContaining("src/shared/new-module.ts") });
    const other = builtRepo();
    put(other, "src/renderer/styles/app.css", 1);
    expect(buildFreshness(other)).toMatchObject({ fresh: false, reason: expect.stringContaining("src/renderer/styles/app.css") });
  });

  it("is stale when the build's config, TypeScript settings or installed dependencies changed after it", () => {
    for (const file of ["electron.vite.config.ts", "tsconfig.node.json", "package-lock.json", "node_modules/.package-lock.json"]) {
      const root = builtRepo();
      put(root, file, 1);
      expect(buildFreshness(root), file).toMatchObject({ fresh: false, reason: expect.stringContaining(file) });
    }
  });

  it("is stale when an output is older than a source, though others are newer (a build cut short)", () => {
    const root = builtRepo();
    put(root, "out/preload/index.cjs", 7200);
    expect(buildFreshness(root)).toMatchObject({ fresh: false, reason: expect.stringContaining("after out/preload/index.cjs was built") });
  });

  it("says there is no build when an output is missing", () => {
    const root = builtRepo();
    rmSync(join(root, "out/main/agent-worker.js"));
    expect(buildFreshness(root)).toEqual({ fresh: false, reason: "there is no build: out/main/agent-worker.js is missing" });
  });

  it("ignores what no build reads: a FIFO, a dangling link, a test changed after the build", () => {
    const root = builtRepo();
    execFileSync("mkfifo", [join(root, "src/main/broker/pipe")]);
    symlinkSync(join(root, "nowhere"), join(root, "src/main/broker/dangling.ts"));
    put(root, "test/unit/a.test.ts", 1);
    expect(buildFreshness(root)).toEqual({ fresh: true });
  });

  it("follows a linked source to its file", () => {
    const root = builtRepo();
    put(root, "elsewhere/linked.ts", 1);
    symlinkSync(join(root, "elsewhere/linked.ts"), join(root, "src/main/broker/linked.ts"));
    expect(buildFreshness(root)).toMatchObject({ fresh: false, reason: expect.stringContaining("src/main/broker/linked.ts") });
  });
});

describe("the test kit's refusal of a stale build", () => {
  it("stops a run of built-app tests, saying what is stale and to run npm run build", () => {
    const root = builtRepo();
    put(root, "src/main/broker/core.ts", 1);
    for (const filters of [[], ["test/integration/worker-session.test.ts"], ["worker-session"], ["test/unit/a.test.ts", "e2e"], ["--config", "elsewhere.config.ts"]]) {
      expect(() => requireFreshBuild(root, filters), filters.join(" ")).toThrow(
        /^These tests run the built app \(out\/\), but the build is older than its sources: src\/main\/broker\/core\.ts changed .*Run `npm run build` first/,
      );
    }
    rmSync(join(root, "out/renderer/index.html"));
    expect(() => requireFreshBuild(root, [])).toThrow(/but there is no build: out\/renderer\/index\.html is missing\. Run `npm run build` first/);
  });

  it("lets a run of unit tests alone through (they load src/ itself), and any run once the build is fresh", () => {
    const root = builtRepo();
    expect(() => requireFreshBuild(root, [])).not.toThrow();
    put(root, "src/main/broker/core.ts", 1);
    for (const filters of [["test/unit/a.test.ts"], ["test/unit/area"], [join(root, "test/unit/area/b.test.ts")], ["./test/unit/a.test.ts", "b.test"]]) {
      expect(() => requireFreshBuild(root, filters), filters.join(" ")).not.toThrow();
    }
  });
});

describe("a run's filters", () => {
  it("are the command line's arguments that are neither options nor vitest's own", () => {
    expect(cliFilters(["node", "/x/node_modules/vitest/vitest.mjs", "run", "test/unit/a.test.ts", "--reporter", "dot", "e2e"])).toEqual([
      "test/unit/a.test.ts",
      "dot",
      "e2e",
    ]);
    expect(cliFilters(["node", "/x/node_modules/.bin/vitest", "run"])).toEqual([]);
  });

  it("keep the test files whose path contains one, or any file when one keeps none", () => {
    const root = builtRepo();
    expect(filteredTestFiles(root, [])).toBeUndefined();
    expect(filteredTestFiles(root, ["unit/area"])).toEqual(["test/unit/area/b.test.ts"]);
    expect(filteredTestFiles(root, ["a.test", "worker"])?.sort()).toEqual(["test/integration/worker-session.test.ts", "test/unit/a.test.ts"]);
    expect(filteredTestFiles(root, ["a.test", "dot"])).toBeUndefined();
  });
});
