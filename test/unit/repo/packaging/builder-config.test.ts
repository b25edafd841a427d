/**
 * electron-builder.yml, and the test build's electron-builder.test.yml, as electron-builder 26 reads them: loaded
 * and merged by its own loader, checked by the schema check a build starts with (app-builder-lib's scheme.json),
 * then held to what issue 11 §3 asks of the installers. The packed result is checked in
 * test/integration/packaging.test.ts.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import type { Configuration } from "app-builder-lib";
// Internal to app-builder-lib (no export map), pinned with electron-builder: what `electron-builder` itself calls.
import { getConfig, validateConfiguration } from "app-builder-lib/out/util/config/config.js";
// Marked @internal (left out of its typings): the filter electron-builder copies node_modules with.
import * as fileMatcher from "app-builder-lib/out/fileMatcher.js";
import { systemBuilds } from "../../../../scripts/installers/targets";

type NodeModuleFilter = (file: string, stat: { isDirectory(): boolean }) => boolean;
const { getNodeModuleFileMatcher } = fileMatcher as unknown as {
  getNodeModuleFileMatcher(
    appDir: string,
    destination: string,
    macroExpander: (pattern: string) => string,
    platformOptions: object,
    packager: { config: Configuration; debugLogger: { isEnabled: boolean } },
  ): { createFilter(): NodeModuleFilter };
};

const root = process.cwd();
const quietDebugLog = { isEnabled: false, add() {} } as unknown as Parameters<typeof validateConfiguration>[1];
const load = (file: string) => getConfig(root, file, null);

const RELEASE_FUSES = {
  runAsNode: false,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableCookieEncryption: true,
  onlyLoadAppFromAsar: true,
  enableEmbeddedAsarIntegrityValidation: true,
  grantFileProtocolExtraPrivileges: false,
  resetAdHocDarwinSignature: true,
};

describe("electron-builder's configuration", () => {
  it("passes electron-builder's own schema check, release and test build alike", async () => {
    for (const file of ["electron-builder.yml", "electron-builder.test.yml"]) {
      await expect(validateConfiguration(await load(file), quietDebugLog)).resolves.toBeUndefined();
    }
  });

  it("is checked for real: a misspelt fuse is refused", async () => {
    const config = await load("electron-builder.yml");
    const misspelt = { ...config, electronFuses: { ...config.electronFuses, runAsnode: false } } as Configuration;
    await expect(validateConfiguration(misspelt, quietDebugLog)).rejects.toThrow(/configuration\.electronFuses/);
  });

  it("lists every installer: dmg and zip for both Mac arches, NSIS for both Windows arches, AppImage and deb", () => {
    const builds = (platform: string) => Object.fromEntries(systemBuilds(join(root, "electron-builder.yml"), platform).byArch);
    expect(builds("darwin")).toEqual({ x64: ["dmg", "zip"], arm64: ["dmg", "zip"] });
    expect(builds("win32")).toEqual({ x64: ["nsis"], arm64: ["nsis"] });
    expect(builds("linux")).toEqual({ x64: ["AppImage", "deb"] });
  });

  it("names each system's and arch's installers apart, so no build overwrites another", async () => {
    const config = await load("electron-builder.yml");
    expect(config.artifactName).toContain("${arch}");
    expect(config.artifactName).toContain("${os}");
    expect(config.nsis?.artifactName).toContain("${arch}");
  });

  it("flips the release fuses: no RunAsNode, NODE_OPTIONS or inspector; cookies encrypted; only a checked app.asar; plain file://", async () => {
    expect((await load("electron-builder.yml")).electronFuses).toEqual(RELEASE_FUSES);
  });

  it("makes test builds differ from releases only in the inspector Playwright drives and their output folder", async () => {
    const release = await load("electron-builder.yml");
    const test = await load("electron-builder.test.yml");
    expect(test.electronFuses).toEqual({ ...RELEASE_FUSES, enableNodeCliInspectArguments: true });
    expect(test.directories?.output).toBe("dist/test");
    const { extends: _extends, electronFuses: _fuses, directories: _dirs, ...rest } = test;
    const { electronFuses: _releaseFuses, directories: _releaseDirs, ...releaseRest } = release;
    expect(rest).toEqual(releaseRest);
  });

  it("gives each system an icon in the form electron-builder uses without converting (a conversion means a download)", async () => {
    const config = await load("electron-builder.yml");
    expect(config.mac?.icon).toBe("build/icon.icns");
    expect(config.win?.icon).toBe("build/icon.ico");
    expect(config.linux?.icon).toBe("build/icons");
    for (const icon of [config.mac?.icon, config.win?.icon]) expect(statSync(join(root, icon as string)).isFile()).toBe(true);
    expect(readdirSync(join(root, "build/icons")).filter((name) => /^\d+x\d+\.png$/.test(name)).length).toBeGreaterThan(4);
  });

  it("signs macOS builds with the hardened runtime and no exception but V8's JIT", async () => {
    const config = await load("electron-builder.yml");
    expect(config.mac?.hardenedRuntime).toBe(true);
    expect(config.mac?.entitlements).toBe("build/entitlements.mac.plist");
    expect(config.mac?.entitlementsInherit).toBe("build/entitlements.mac.plist");
    const plist = readFileSync(join(root, "build/entitlements.mac.plist"), "utf8").replace(/<!--[\s\S]*?-->/g, "");
    expect([...plist.matchAll(/<key>([^<]+)<\/key>\s*<(\w+)\/>/g)].map(([, key, value]) => `${key}=${value}`)).toEqual([
      "com.apple.security.cs.allow-jit=true",
    ]);
  });

  describe("what each system's app holds of the sandbox runtime's helpers", () => {
    /** Whether electron-builder copies `file` (relative to the project) into `platform`'s app: its own node_modules filter. */
    const copies = async (section: "mac" | "win" | "linux", platform: string, file: string) => {
      const config = await load("electron-builder.yml");
      const expand = (pattern: string) => pattern.replace(/\$\{platform\}/g, platform).replace(/\$\{arch\}/g, "x64");
      const packager = { config, debugLogger: { isEnabled: false } };
      const filter = getNodeModuleFileMatcher(root, "/app", expand, config[section] ?? {}, packager).createFilter();
      return filter(join(root, file), { isDirectory: () => false });
    };
    const SECCOMP = "node_modules/@anthropic-ai/sandbox-runtime/vendor/seccomp/x64/apply-seccomp";
    const JAVA_AGENT = "node_modules/@anthropic-ai/sandbox-runtime/vendor/java-proxy-agent/srt-proxy-agent.jar";
    const RUNTIME = "node_modules/@anthropic-ai/sandbox-runtime/dist/index.js";

    it("keeps the seccomp helper (bubblewrap runs it) only on Linux", async () => {
      expect(await copies("linux", "linux", SECCOMP)).toBe(true);
      expect(await copies("mac", "darwin", SECCOMP)).toBe(false);
      expect(await copies("win", "win32", SECCOMP)).toBe(false);
    });

    it("keeps the JVM agent where commands are sandboxed, Linux and macOS (the runtime gives it to Java under Seatbelt too), not on Windows", async () => {
      expect(await copies("linux", "linux", JAVA_AGENT)).toBe(true);
      expect(await copies("mac", "darwin", JAVA_AGENT)).toBe(true);
      expect(await copies("win", "win32", JAVA_AGENT)).toBe(false);
    });

    it("keeps the runtime's code everywhere", async () => {
      for (const [section, platform] of [["linux", "linux"], ["mac", "darwin"], ["win", "win32"]] as const) {
        expect(await copies(section, platform, RUNTIME), section).toBe(true);
      }
    });
  });

  describe("what leaves app.asar", () => {
    const vendor = join(root, "node_modules/@anthropic-ai/sandbox-runtime/vendor");
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)]));
    const unpacked = async () => {
      const config = await load("electron-builder.yml");
      return picomatch(config.asarUnpack as string[], { dot: true });
    };

    it("is only what other programs execute, by explicit patterns (electron-builder's smart unpack is off)", async () => {
      expect((await load("electron-builder.yml")).asar).toEqual({ smartUnpack: false });
      const isUnpacked = await unpacked();
      const { rgPath } = await import("@vscode/ripgrep");
      const executed = [
        rgPath,
        ...walk(join(vendor, "seccomp")).filter((file) => file.endsWith("apply-seccomp")),
        join(vendor, "java-proxy-agent/srt-proxy-agent.jar"),
      ].map((file) => relative(root, file).split("\\").join("/"));
      expect(executed.length).toBeGreaterThanOrEqual(4);
      for (const file of executed) expect(isUnpacked(file), file).toBe(true);
    });

    it("keeps the code, the sandbox runtime's and the worker bundle's, inside the archive asar integrity checks", async () => {
      const isUnpacked = await unpacked();
      const code = [
        "out/main/agent-worker.js",
        "out/main/mcp-host.js",
        "out/main/index.js",
        "node_modules/@vscode/ripgrep/lib/index.js",
        "node_modules/@anthropic-ai/sandbox-runtime/dist/index.js",
        ...walk(join(vendor, "..", "dist")).map((file) => relative(root, file).split("\\").join("/")),
      ];
      for (const file of code) expect(isUnpacked(file), file).toBe(false);
    });
  });
});
