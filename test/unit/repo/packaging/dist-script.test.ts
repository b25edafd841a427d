/**
 * `npm run dist`'s parts (scripts/installers/): which builds a system makes, how a skipped per-arch package gets into
 * node_modules exactly as the lockfile pins it, and how a download electron-builder cannot make ends in words
 * rather than a stack trace.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { downloadFailure, downloadFailureMessage, runElectronBuilder } from "../../../../scripts/installers/builder-run";
import { ensureLockedPackage, ripgrepPackage, type ScratchInstall } from "../../../../scripts/installers/locked-package";
import { systemBuilds } from "../../../../scripts/installers/targets";
import { TempFolders } from "../../../../testkit/temp-folders";

const temp = new TempFolders("paddock-dist-");
afterEach(() => {
  temp.removeAll();
  vi.restoreAllMocks();
});

describe("systemBuilds", () => {
  it("refuses a system Paddock makes no installers for", () => {
    expect(() => systemBuilds(join(process.cwd(), "electron-builder.yml"), "freebsd")).toThrow(/macOS, Windows and Linux, not on freebsd/);
  });

  it("refuses a target without its arch list, which electron-builder would read as this machine's arch", () => {
    const dir = temp.make({ "builder.yml": "linux:\n  target:\n    - target: AppImage\n" });
    expect(() => systemBuilds(join(dir, "builder.yml"), "linux")).toThrow(/needs a target name and an arch list/);
  });

  it("gives each arch only the targets listed for it", () => {
    const yml = "mac:\n  target:\n    - target: dmg\n      arch: [x64, arm64]\n    - target: zip\n      arch: [arm64]\n";
    const dir = temp.make({ "builder.yml": yml });
    const builds = systemBuilds(join(dir, "builder.yml"), "darwin");
    expect(builds.section).toBe("mac");
    expect([...builds.byArch]).toEqual([
      ["x64", ["dmg"]],
      ["arm64", ["dmg", "zip"]],
    ]);
  });
});

describe("ensureLockedPackage", () => {
  const name = ripgrepPackage("darwin", "x64");
  const pin = { version: "1.18.0", integrity: "sha512-pinned" };

  function project(installed?: string): string {
    const lock = { packages: { [`node_modules/${name}`]: pin } };
    const root = temp.make({ "package-lock.json": JSON.stringify(lock) });
    if (installed) {
      mkdirSync(join(root, "node_modules", name), { recursive: true });
      writeFileSync(join(root, "node_modules", name, "package.json"), JSON.stringify({ name, version: installed }));
    }
    return root;
  }

  /** Stands in for npm: "installs" the package with the given integrity, and records what it was asked. */
  function fakeNpm(integrity = pin.integrity) {
    const calls: unknown[][] = [];
    const install: ScratchInstall = (scratch, pkg, version, os, cpu) => {
      calls.push([pkg, version, os, cpu]);
      mkdirSync(join(scratch, "node_modules", pkg, "bin"), { recursive: true });
      writeFileSync(join(scratch, "node_modules", pkg, "package.json"), JSON.stringify({ name: pkg, version }));
      writeFileSync(join(scratch, "node_modules", pkg, "bin", "rg"), "rg for darwin-x64");
      writeFileSync(join(scratch, "package-lock.json"), JSON.stringify({ packages: { [`node_modules/${pkg}`]: { version, integrity } } }));
      return null;
    };
    return { install, calls };
  }

  it("leaves a package installed at the locked version alone, without asking npm", () => {
    const root = project("1.18.0");
    const npm = fakeNpm();
    expect(ensureLockedPackage({ root, name, os: "darwin", cpu: "x64", install: npm.install })).toBe("present");
    expect(npm.calls).toEqual([]);
  });

  it("installs a missing one for its system and arch, at the locked version, into node_modules", () => {
    const root = project();
    const npm = fakeNpm();
    expect(ensureLockedPackage({ root, name, os: "darwin", cpu: "x64", install: npm.install })).toBe("installed");
    expect(npm.calls).toEqual([[name, "1.18.0", "darwin", "x64"]]);
    expect(readFileSync(join(root, "node_modules", name, "bin", "rg"), "utf8")).toBe("rg for darwin-x64");
  });

  it("replaces another version of it", () => {
    const root = project("1.17.0");
    expect(ensureLockedPackage({ root, name, os: "darwin", cpu: "x64", install: fakeNpm().install })).toBe("installed");
    expect(JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")).version).toBe("1.18.0");
  });

  it("refuses what the registry served when its integrity is not the lockfile's, and leaves node_modules as it was", () => {
    const root = project();
    expect(() => ensureLockedPackage({ root, name, os: "darwin", cpu: "x64", install: fakeNpm("sha512-other").install })).toThrow(
      /integrity sha512-other; package-lock.json says sha512-pinned/,
    );
    expect(existsSync(join(root, "node_modules", name))).toBe(false);
  });

  it("passes npm's failure on", () => {
    const root = project();
    const offline: ScratchInstall = () => "npm error code ENOTFOUND";
    expect(() => ensureLockedPackage({ root, name, os: "darwin", cpu: "x64", install: offline })).toThrow(/could not install .*ENOTFOUND/);
  });

  it("refuses a package the lockfile does not pin", () => {
    const root = project();
    expect(() => ensureLockedPackage({ root, name: ripgrepPackage("sunos", "x64"), os: "sunos", cpu: "x64", install: fakeNpm().install })).toThrow(
      /pins no @vscode\/ripgrep-sunos-x64/,
    );
  });

  it("knows the pin of every ripgrep package the installers need, in the real lockfile", () => {
    for (const [os, arch] of [
      ["darwin", "x64"],
      ["darwin", "arm64"],
      ["win32", "x64"],
      ["win32", "arm64"],
      ["linux", "x64"],
    ]) {
      const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as { packages: Record<string, { integrity?: string }> };
      expect(lock.packages[`node_modules/${ripgrepPackage(os, arch)}`]?.integrity, `${os}-${arch}`).toMatch(/^sha512-/);
    }
  });
});

describe("a download electron-builder cannot make", () => {
  const offline = "  ⨯ getaddrinfo ENOTFOUND github.com  failedTask=build stackTrace=RequestError: getaddrinfo ENOTFOUND github.com";

  it("is recognised in electron-builder's error line, and nothing else is", () => {
    expect(downloadFailure(offline)).toBe("getaddrinfo ENOTFOUND github.com");
    expect(downloadFailure("  ⨯ connect ETIMEDOUT 140.82.121.4:443  failedTask=build")).toBe("connect ETIMEDOUT 140.82.121.4:443");
    expect(downloadFailure("  ⨯ Cannot find module 'x'  failedTask=build stackTrace=Error")).toBeNull();
    expect(downloadFailure("  • downloading  url=https://github.com/electron/electron/releases (ENOTFOUND retry)")).toBeNull();
  });

  it("is explained: what was needed, from where, and what to do", () => {
    const text = downloadFailureMessage("getaddrinfo ENOTFOUND github.com", "45.6.0", "linux x64");
    expect(text).toContain("could not download what it needs for linux x64 (getaddrinfo ENOTFOUND github.com)");
    expect(text).toContain("Electron 45.6.0");
    expect(text).toMatch(/machine that can reach github\.com/);
  });

  it("ends the run with the explanation instead of the stack trace, and keeps electron-builder's exit code", async () => {
    const dir = temp.make({
      "fake-builder.mjs": [
        'console.log("  • packaging       platform=linux arch=x64");',
        `console.error(${JSON.stringify(offline)});`,
        'console.error("    at ClientRequest.<anonymous> (index.js:970:111)");',
        'console.error("    at emitErrorEvent (node:_http_client:101:11)");',
        "process.exit(1);",
      ].join("\n"),
    });
    const out: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => out.push(String(chunk)) > 0);
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => out.push(String(chunk)) > 0);
    const code = await runElectronBuilder(join(dir, "fake-builder.mjs"), [], dir, (failure) => `EXPLAINED: ${failure}\n`);
    vi.restoreAllMocks();
    expect(code).toBe(1);
    const text = out.join("");
    expect(text).toContain("  • packaging       platform=linux arch=x64\n");
    expect(text).toContain("  ⨯ getaddrinfo ENOTFOUND github.com\n");
    expect(text).not.toContain("stackTrace=");
    expect(text).not.toContain("    at ");
    expect(text.trimEnd().endsWith("EXPLAINED: getaddrinfo ENOTFOUND github.com")).toBe(true);
  });

  it("leaves other failures as electron-builder wrote them", async () => {
    const dir = temp.make({
      "fake-builder.mjs": 'console.error("  ⨯ Cannot find module \'x\'  failedTask=build stackTrace=Error: x");\nconsole.error("    at load (x.js:1:1)");\nprocess.exit(2);',
    });
    const out: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => out.push(String(chunk)) > 0);
    const code = await runElectronBuilder(join(dir, "fake-builder.mjs"), [], dir, () => "EXPLAINED\n");
    vi.restoreAllMocks();
    expect(code).toBe(2);
    expect(out.join("")).toBe("  ⨯ Cannot find module 'x'  failedTask=build stackTrace=Error: x\n    at load (x.js:1:1)\n");
  });
});
