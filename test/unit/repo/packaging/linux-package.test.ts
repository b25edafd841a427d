/**
 * The Linux `.deb` (issue 26): its metadata (the homepage and maintainer email a `.deb` must have), what it
 * recommends, and its after-install and after-remove scripts and AppArmor profile as electron-builder fills them in
 * (its own macro rule, app-builder-lib's FpmTarget). The scripts are checked by `sh -n`, then RUN, under bubblewrap,
 * in a throwaway root: /opt/Paddock and /etc/apparmor.d are temporary folders, and AppArmor's tools, the sysctl
 * values and update-alternatives are stand-ins that record how they were called. The profile is parsed by
 * apparmor_parser where AppArmor 4 is installed (Ubuntu 24.04, so on CI), else checked for its shape.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Configuration } from "app-builder-lib";
// Internal to app-builder-lib (no export map), pinned with electron-builder: what `electron-builder` itself calls.
import { getConfig } from "app-builder-lib/out/util/config/config.js";
import { TempFolders } from "../../../../testkit/temp-folders";

const root = process.cwd();
const temp = new TempFolders("paddock-deb-");
afterAll(() => temp.removeAll());

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { homepage?: string; author?: { name?: string; email?: string } };
const config = (await getConfig(root, "electron-builder.yml", null)) as Configuration;
const deb = config.deb ?? {};

/** What electron-builder puts for `${name}` in these files for Paddock (FpmTarget's template options). */
const MACROS: Record<string, string> = { executable: "paddock", sanitizedProductName: "Paddock", productFilename: "Paddock" };

/** A template as electron-builder writes it out: every `${name}` (letters only) replaced, an unknown one an error. */
function render(file: string): string {
  return readFileSync(resolve(root, file), "utf8").replace(/\$\{([a-zA-Z]+)\}/g, (_match, name: string) => {
    if (!(name in MACROS)) throw new Error(`${file}: electron-builder would stop at the unknown macro \${${name}}`);
    return MACROS[name];
  });
}

describe("the .deb's metadata", () => {
  it("has a homepage and a maintainer with an email (electron-builder refuses to make a .deb without either)", () => {
    expect(pkg.homepage).toMatch(/^https:\/\/[^\s/]+/);
    expect(pkg.author?.name).toBeTruthy();
    expect(pkg.author?.email).toMatch(/^[^\s@]+@[^\s@]+\.[a-z]+$/);
    // A maintainer in the config would win over the author, and it would need the email itself.
    expect(config.linux?.maintainer ?? deb.maintainer).toBeUndefined();
  });

  it("recommends bubblewrap and socat, which shell commands' sandbox needs", () => {
    expect(deb.recommends).toEqual(["bubblewrap", "socat"]);
  });

  it("installs and removes with Paddock's own scripts and AppArmor profile, which exist", () => {
    expect(deb.afterInstall).toBe("build/linux/after-install.sh");
    expect(deb.afterRemove).toBe("build/linux/after-remove.sh");
    expect(deb.appArmorProfile).toBe("build/linux/apparmor-profile.tpl");
    for (const file of [deb.afterInstall, deb.afterRemove, deb.appArmorProfile]) expect(existsSync(join(root, file as string)), file as string).toBe(true);
  });
});

describe("the .deb's scripts", () => {
  for (const file of ["build/linux/after-install.sh", "build/linux/after-remove.sh"]) {
    it(`${file} uses only electron-builder's macros and is valid sh`, () => {
      const script = render(file);
      expect(script.startsWith("#!/bin/sh\n")).toBe(true);
      expect(script).not.toContain("${");
      const check = spawnSync("sh", ["-n"], { input: script, encoding: "utf8" });
      expect(check.stderr).toBe("");
      expect(check.status).toBe(0);
    });
  }

  it("are checked for real: a broken script fails sh -n and an unknown macro is refused", () => {
    expect(spawnSync("sh", ["-n"], { input: "if true; then\n", encoding: "utf8" }).status).not.toBe(0);
    const dir = temp.make({ "bad.sh": "#!/bin/sh\necho ${HOME}\n" });
    expect(() => render(join(dir, "bad.sh"))).toThrow(/unknown macro \$\{HOME\}/);
  });
});

describe("the AppArmor profile", () => {
  const profile = render("build/linux/apparmor-profile.tpl");
  const rules = profile.replace(/#.*$/gm, "").trim();

  it("lets only the installed app use user namespaces, and confines nothing else", () => {
    expect(rules.split("\n")[0]).toBe("abi <abi/4.0>,");
    expect(rules).toContain("include <tunables/global>");
    expect(rules).toMatch(/^profile paddock \/opt\/Paddock\/paddock flags=\(unconfined\) \{$/m);
    const body = rules.slice(rules.indexOf("{") + 1, rules.lastIndexOf("}")).trim();
    expect(body.split("\n").map((line) => line.trim()).filter(Boolean)).toEqual(["userns,", "include if exists <local/paddock>"]);
    expect(rules.endsWith("}")).toBe(true);
    expect(rules.match(/\{/g)?.length).toBe(rules.match(/\}/g)?.length);
  });

  it("does not attach to bwrap, which would allow user namespaces to every program on the machine", () => {
    expect(rules).not.toMatch(/bwrap/);
  });

  const parser = spawnSync("apparmor_parser", ["--version"], { encoding: "utf8" });
  const version = /version (\d+)\./.exec(parser.stdout ?? "")?.[1];
  it.skipIf(!version || Number(version) < 4)("parses with apparmor_parser (AppArmor 4, as on Ubuntu 24.04)", () => {
    const dir = temp.make({ paddock: profile });
    const run = spawnSync("apparmor_parser", ["--skip-kernel-load", "--skip-cache", "--skip-read-cache", join(dir, "paddock")], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});

/** Stand-ins for the system's tools: each records `name args` in /log/calls, and behaves as the STUB_* variables say. */
const STUBS: Record<string, string> = {
  "update-alternatives": "exit 0",
  // The dry run (--skip-kernel-load) succeeds only if this AppArmor "knows" the profile; --replace and --remove succeed.
  apparmor_parser: 'case "$1" in --skip-kernel-load) [ "$STUB_PARSER_ACCEPTS" = yes ] ;; *) exit 0 ;; esac',
  "aa-enabled": '[ "$STUB_APPARMOR_ENABLED" = yes ]',
  ischroot: "exit 1",
  unshare: "exit 0",
  sysctl: 'case "$2" in kernel.apparmor_restrict_unprivileged_userns) [ -n "$STUB_RESTRICT" ] && echo "$STUB_RESTRICT" ;; *) exit 1 ;; esac',
};

interface Scenario {
  /** Stand-ins to leave out (as if that tool were not installed). */
  without?: string[];
  env?: Record<string, string>;
  /** A profile already in /etc/apparmor.d (for the after-remove script). */
  installedProfile?: boolean;
}

/** Runs the rendered `script` with `args` as root would in a throwaway root; returns what it did. */
function runScript(script: string, args: string[], scenario: Scenario) {
  const dir = temp.make({
    "opt/Paddock/paddock": "",
    "opt/Paddock/chrome-sandbox": "",
    "opt/Paddock/resources/apparmor-profile": render("build/linux/apparmor-profile.tpl"),
    "log/calls": "",
    "script.sh": render(script),
  });
  mkdirSync(join(dir, "apparmor.d"));
  if (scenario.installedProfile) writeFileSync(join(dir, "apparmor.d/paddock"), "profile paddock {}\n");
  mkdirSync(join(dir, "stubs"));
  for (const [name, body] of Object.entries(STUBS)) {
    if (scenario.without?.includes(name)) continue;
    writeFileSync(join(dir, "stubs", name), `#!/bin/sh\necho "${name} $*" >> /log/calls\n${body}\n`);
    chmodSync(join(dir, "stubs", name), 0o755);
  }
  const env = { STUB_PARSER_ACCEPTS: "yes", STUB_APPARMOR_ENABLED: "yes", STUB_RESTRICT: "1", ...scenario.env };
  const bwrap = [
    "--ro-bind", "/usr", "/usr",
    ...["bin", "sbin", "lib", "lib64"].flatMap((name) => (existsSync(`/${name}`) ? ["--symlink", `usr/${name}`, `/${name}`] : [])),
    "--dir", "/etc",
    ...(existsSync("/etc/ld.so.cache") ? ["--ro-bind", "/etc/ld.so.cache", "/etc/ld.so.cache"] : []),
    "--bind", join(dir, "apparmor.d"), "/etc/apparmor.d",
    "--bind", join(dir, "opt"), "/opt",
    "--bind", join(dir, "log"), "/log",
    "--ro-bind", join(dir, "stubs"), "/stubs",
    "--ro-bind", join(dir, "script.sh"), "/script.sh",
    "--proc", "/proc",
    "--dev", "/dev",
    "--tmpfs", "/tmp",
    "--clearenv",
    "--setenv", "PATH", "/stubs:/usr/bin:/bin",
    ...Object.entries(env).flatMap(([name, value]) => ["--setenv", name, value]),
    "sh", "/script.sh", ...args,
  ];
  const run = spawnSync("bwrap", bwrap, { encoding: "utf8", timeout: 20_000 });
  const profile = join(dir, "apparmor.d/paddock");
  return {
    status: run.status,
    output: `${run.stdout}${run.stderr}`,
    calls: readFileSync(join(dir, "log/calls"), "utf8").trim().split("\n").filter(Boolean),
    profile: existsSync(profile) ? readFileSync(profile, "utf8") : undefined,
    sandboxHelperMode: statSync(join(dir, "opt/Paddock/chrome-sandbox")).mode & 0o7777,
  };
}

const bwrapWorks = process.platform === "linux" && spawnSync("bwrap", ["--ro-bind", "/", "/", "true"]).status === 0;
if (!bwrapWorks && process.platform === "linux" && process.env.CI) throw new Error("bubblewrap must run on CI, to run the .deb's scripts");

describe.skipIf(!bwrapWorks)("the .deb's scripts, run in a throwaway root", () => {
  const install = (scenario: Scenario) => runScript("build/linux/after-install.sh", ["configure"], scenario);
  const remove = (arg: string, scenario: Scenario) => runScript("build/linux/after-remove.sh", [arg], scenario);

  it("on Ubuntu 24.04: puts the command on the PATH, installs and loads the profile; Chromium's sandbox needs no setuid helper", () => {
    const run = install({});
    expect(run.status, run.output).toBe(0);
    expect(run.calls).toContain("update-alternatives --install /usr/bin/paddock paddock /opt/Paddock/paddock 100");
    expect(run.profile).toBe(render("build/linux/apparmor-profile.tpl"));
    expect(run.calls).toContain("apparmor_parser --skip-kernel-load --skip-cache /opt/Paddock/resources/apparmor-profile");
    expect(run.calls).toContain("apparmor_parser --replace --write-cache --skip-read-cache /etc/apparmor.d/paddock");
    expect(run.sandboxHelperMode).toBe(0o755);
  });

  it("where AppArmor is older than 4 (Ubuntu 22.04): installs no profile, and says so", () => {
    const run = install({ env: { STUB_PARSER_ACCEPTS: "no", STUB_RESTRICT: "" } });
    expect(run.status, run.output).toBe(0);
    expect(run.profile).toBeUndefined();
    expect(run.output).toContain("does not accept the app's profile");
    expect(run.calls.filter((call) => call.includes("--replace"))).toEqual([]);
    expect(run.sandboxHelperMode).toBe(0o755);
  });

  it("where user namespaces are restricted but the profile cannot be loaded: falls back to the setuid sandbox helper", () => {
    const run = install({ env: { STUB_APPARMOR_ENABLED: "no" } });
    expect(run.status, run.output).toBe(0);
    expect(run.profile).toBeDefined(); // it loads at the next boot
    expect(run.sandboxHelperMode).toBe(0o4755);
  });

  it("without AppArmor's parser: touches nothing of AppArmor's", () => {
    const run = install({ without: ["apparmor_parser", "aa-enabled"], env: { STUB_RESTRICT: "" } });
    expect(run.status, run.output).toBe(0);
    expect(run.profile).toBeUndefined();
    expect(run.calls.filter((call) => call.startsWith("apparmor_parser"))).toEqual([]);
  });

  it("on removal: takes the command away, unloads and deletes the profile", () => {
    const run = remove("remove", { installedProfile: true });
    expect(run.status, run.output).toBe(0);
    expect(run.calls).toContain("update-alternatives --remove paddock /opt/Paddock/paddock");
    expect(run.calls).toContain("apparmor_parser --remove /etc/apparmor.d/paddock");
    expect(run.profile).toBeUndefined();
  });

  it("on upgrade: leaves both to the new version's after-install", () => {
    const run = remove("upgrade", { installedProfile: true });
    expect(run.status, run.output).toBe(0);
    expect(run.calls).toEqual([]);
    expect(run.profile).toBeDefined();
  });
});
