/**
 * Why there is no sandbox and how to get one (shared/security/sandbox-help.ts): the cause named from what the check
 * found (sandbox-runtime's own dependency errors, bubblewrap's own failure text, the AppArmor switch), and the
 * workspace panel's words and commands for each.
 */
import { describe, expect, it } from "vitest";
import { sandboxCause, sandboxHelp } from "../../../../src/shared/security/sandbox-help";

describe("sandboxCause", () => {
  it.each([
    [{ platform: "linux", turnedOff: true }, { kind: "turned-off" }],
    [{ platform: "win32" }, { kind: "windows" }],
    [{ platform: "freebsd" }, { kind: "unsupported-os", os: "freebsd" }],
    // sandbox-runtime 0.0.83's checkLinuxDependencies / checkDependencies wording.
    [{ platform: "linux", dependencyErrors: ["bubblewrap (bwrap) not installed", "socat not installed"] }, { kind: "missing", programs: ["bubblewrap", "socat"] }],
    [{ platform: "linux", dependencyErrors: ["socat not installed"] }, { kind: "missing", programs: ["socat"] }],
    [{ platform: "linux", dependencyErrors: ["ripgrep (rg) not found"] }, { kind: "missing", programs: ["ripgrep"] }],
    [{ platform: "linux", dependencyErrors: ["running as uid 0 without CAP_SETFCAP in this process's capability bounding set - on kernels…"] }, { kind: "root-without-setfcap" }],
    // bubblewrap on stock Ubuntu 24.04, and with user namespaces off elsewhere.
    [{ platform: "linux", probeFailure: "bwrap: setting up uid map: Permission denied", appArmorRestrictsUserNamespaces: true }, { kind: "user-namespaces", appArmor: true }],
    [{ platform: "linux", probeFailure: "bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted", appArmorRestrictsUserNamespaces: true }, { kind: "user-namespaces", appArmor: true }],
    [{ platform: "linux", probeFailure: "bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces." }, { kind: "user-namespaces", appArmor: false }],
    [{ platform: "linux", probeFailure: "the test command exited with 2" }, { kind: "other" }],
    [{ platform: "darwin", probeFailure: "sandbox-exec: Operation not permitted" }, { kind: "other" }],
  ])("%j", (facts, cause) => {
    expect(sandboxCause(facts)).toEqual(cause);
  });
});

describe("sandboxHelp", () => {
  it("missing programs: the install command for the very packages missing", () => {
    const help = sandboxHelp({ kind: "missing", programs: ["bubblewrap", "socat"] });
    expect(help.why).toBe("The Linux sandbox needs bubblewrap and socat, which are not installed.");
    expect(help.steps.map((s) => s.command).filter(Boolean)).toEqual([
      "sudo apt install bubblewrap socat",
      "sudo dnf install bubblewrap socat",
      "sudo pacman -S bubblewrap socat",
    ]);
    expect(sandboxHelp({ kind: "missing", programs: ["socat"] }).steps[0]!.command).toBe("sudo apt install socat");
    expect(help.docs).toContain("Linux sandbox");
  });

  it("AppArmor on Ubuntu 24.04: says so, points to the profile and gives the sysctl", () => {
    const help = sandboxHelp({ kind: "user-namespaces", appArmor: true });
    expect(help.why).toContain("Ubuntu 23.10 and later");
    expect(help.steps.map((s) => s.command)).toContain("sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0");
    expect(help.steps[0]!.text).toContain(".deb: it adds an AppArmor profile");
    expect(help.docs).toContain("docs/security.md");
  });

  it("other causes say what they are; an unnamed one quotes the check", () => {
    expect(sandboxHelp({ kind: "windows" }).why).toContain("Windows");
    expect(sandboxHelp({ kind: "turned-off" }).why).toContain("PADDOCK_NO_SANDBOX=1");
    expect(sandboxHelp({ kind: "root-without-setfcap" }).steps[0]!.text).toContain("CAP_SETFCAP");
    expect(sandboxHelp({ kind: "other" }, "The sandbox cannot run here: boom").why).toBe("The sandbox check failed: The sandbox cannot run here: boom");
  });
});
