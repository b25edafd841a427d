/**
 * Why shell commands run without a sandbox here, and how to get one: the worker's sandbox check (agent-worker's
 * `tools/workspace/sandbox.ts`) names the cause from what it found (`sandboxCause`), and the workspace panel says what
 * to do about it (`sandboxHelp`), with the exact commands. Pure: the worker and the page share it.
 */

/** A program the Linux sandbox needs (sandbox-runtime's `checkDependencies`). */
export type SandboxProgram = "bubblewrap" | "socat" | "ripgrep";

export type SandboxCause =
  /** `PADDOCK_NO_SANDBOX=1` in Paddock's environment. */
  | { kind: "turned-off" }
  /** Windows: sandbox-runtime has no sandbox there Paddock can use. */
  | { kind: "windows" }
  /** Another system without a sandbox (FreeBSD…). */
  | { kind: "unsupported-os"; os: string }
  /** Linux without bubblewrap, socat (or ripgrep) installed. */
  | { kind: "missing"; programs: SandboxProgram[] }
  /**
   * bubblewrap is there but may not make its user namespace: on Ubuntu 23.10 and later (24.04 as installed) AppArmor
   * restricts unprivileged user namespaces to programs with a profile (`appArmor`: the kernel says so).
   */
  | { kind: "user-namespaces"; appArmor: boolean }
  /** Running as root without CAP_SETFCAP (a container): uid 0 cannot be mapped into the namespace. */
  | { kind: "root-without-setfcap" }
  /** Anything else: the check's own words say what. */
  | { kind: "other" };

export interface SandboxFacts {
  platform: string;
  /** `PADDOCK_NO_SANDBOX=1`. */
  turnedOff?: boolean;
  /** sandbox-runtime's `checkDependencies().errors`. */
  dependencyErrors?: readonly string[];
  /** What running `true` in the sandbox printed when it failed. */
  probeFailure?: string;
  /** `/proc/sys/kernel/apparmor_restrict_unprivileged_userns` is 1. */
  appArmorRestrictsUserNamespaces?: boolean;
}

/** bubblewrap's words when it may not set up its user namespace (a refused or capability-less namespace). */
const USER_NAMESPACE_REFUSED = /uid map|gid map|user namespace|new namespace|unshare|RTM_NEWADDR|setting up|No permissions|Operation not permitted|Permission denied/i;

/** The cause behind a failed sandbox check. */
export function sandboxCause(facts: SandboxFacts): SandboxCause {
  if (facts.turnedOff) return { kind: "turned-off" };
  if (facts.platform === "win32") return { kind: "windows" };
  if (facts.platform !== "linux" && facts.platform !== "darwin") return { kind: "unsupported-os", os: facts.platform };
  const errors = facts.dependencyErrors ?? [];
  const programs: SandboxProgram[] = [];
  if (errors.some((e) => /bubblewrap|bwrap/i.test(e) && /not installed|not executable/i.test(e))) programs.push("bubblewrap");
  if (errors.some((e) => /^socat/i.test(e))) programs.push("socat");
  if (errors.some((e) => /ripgrep/i.test(e))) programs.push("ripgrep");
  if (programs.length > 0) return { kind: "missing", programs };
  if (errors.some((e) => /CAP_SETFCAP/.test(e))) return { kind: "root-without-setfcap" };
  if (facts.platform === "linux" && facts.probeFailure !== undefined && USER_NAMESPACE_REFUSED.test(facts.probeFailure)) {
    return { kind: "user-namespaces", appArmor: facts.appArmorRestrictsUserNamespaces === true };
  }
  return { kind: "other" };
}

/** One thing to do: words, and the command to type when there is one. */
export interface SandboxStep {
  text: string;
  command?: string;
}

export interface SandboxHelp {
  /** Why, in a sentence. */
  why: string;
  steps: SandboxStep[];
  /** Where the whole story is. */
  docs?: string;
}

/** The section of docs/security.md about bubblewrap, its packages and the AppArmor profile. */
export const LINUX_SANDBOX_DOCS = "docs/security.md, “Linux sandbox”";

const PACKAGE: Record<SandboxProgram, string> = { bubblewrap: "bubblewrap", socat: "socat", ripgrep: "ripgrep" };

/** What the workspace panel says for `cause` (the check's own words, `reason`, for a cause it cannot name). */
export function sandboxHelp(cause: SandboxCause, reason?: string): SandboxHelp {
  switch (cause.kind) {
    case "turned-off":
      return {
        why: "The sandbox was turned off: PADDOCK_NO_SANDBOX=1 is set in Paddock's environment.",
        steps: [{ text: "Start Paddock without that variable." }],
      };
    case "windows":
      return {
        why: "Windows has no sandbox Paddock can use yet: sandbox-runtime's Windows support is an early version that needs an elevated, machine-wide install.",
        steps: [{ text: "Commands run with your rights, so each one asks first." }],
      };
    case "unsupported-os":
      return { why: `There is no sandbox for ${cause.os}: Paddock sandboxes commands on Linux (bubblewrap) and macOS (Seatbelt).`, steps: [] };
    case "missing": {
      const packages = cause.programs.map((p) => PACKAGE[p]);
      const names = packages.join(" and ");
      return {
        why: `The Linux sandbox needs ${names}, which ${cause.programs.length === 1 ? "is" : "are"} not installed.`,
        steps: [
          { text: "On Debian or Ubuntu:", command: `sudo apt install ${packages.join(" ")}` },
          { text: "On Fedora:", command: `sudo dnf install ${packages.join(" ")}` },
          { text: "On Arch:", command: `sudo pacman -S ${packages.join(" ")}` },
          { text: "Then open a new chat, or restart Paddock." },
        ],
        docs: LINUX_SANDBOX_DOCS,
      };
    }
    case "user-namespaces":
      return {
        why: cause.appArmor
          ? "AppArmor refuses bubblewrap the user namespace it needs: Ubuntu 23.10 and later (24.04 as installed) allow unprivileged user namespaces only to programs with an AppArmor profile."
          : "bubblewrap may not create the user namespace it needs: this system restricts unprivileged user namespaces.",
        steps: cause.appArmor
          ? [
              { text: "Install Paddock from its .deb: it adds an AppArmor profile that lets Paddock's sandbox run (an AppImage cannot). Installed it already? Load the profile:", command: "sudo systemctl reload apparmor" },
              { text: "Or lift the restriction for every program (less safe):", command: "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0" },
              { text: "Then open a new chat, or restart Paddock." },
            ]
          : [
              { text: "Allow unprivileged user namespaces (Debian 10 and older kernels):", command: "sudo sysctl -w kernel.unprivileged_userns_clone=1" },
              { text: "Then open a new chat, or restart Paddock." },
            ],
        docs: LINUX_SANDBOX_DOCS,
      };
    case "root-without-setfcap":
      return {
        why: "Paddock runs as root without CAP_SETFCAP (in a container, usually), so bubblewrap cannot map root into its namespace.",
        steps: [{ text: "Run Paddock as a normal user, or give the container CAP_SETFCAP." }],
        docs: LINUX_SANDBOX_DOCS,
      };
    case "other":
      return { why: reason ? `The sandbox check failed: ${reason}` : "The sandbox check failed.", steps: [], docs: LINUX_SANDBOX_DOCS };
  }
}
