/**
 * The sandbox check's verdict when there is no sandbox (agent-worker/tools/workspace/sandbox.ts): its reason in the
 * check's words and its cause; and PADDOCK_NO_SANDBOX's values, the test switch that reports a check result.
 */
import { describe, expect, it } from "vitest";
import { simulatedCheck, unavailable } from "../../../../../src/agent-worker/tools/workspace/sandbox";

describe("unavailable", () => {
  it("missing programs: sandbox-runtime's errors in the reason, the cause naming them", () => {
    expect(unavailable({ platform: "linux", dependencyErrors: ["bubblewrap (bwrap) not installed", "socat not installed"] })).toEqual({
      available: false,
      reason: "The sandbox cannot run here: bubblewrap (bwrap) not installed; socat not installed.",
      cause: { kind: "missing", programs: ["bubblewrap", "socat"] },
    });
  });

  it("a refused user namespace: bubblewrap's words, and AppArmor when the kernel restricts them", () => {
    expect(unavailable({ platform: "linux", probeFailure: "bwrap: setting up uid map: Permission denied", appArmorRestrictsUserNamespaces: true })).toEqual({
      available: false,
      reason: "The sandbox cannot run here: bwrap: setting up uid map: Permission denied",
      cause: { kind: "user-namespaces", appArmor: true },
    });
  });

  it("turned off and Windows keep their words", () => {
    expect(unavailable({ platform: "linux", turnedOff: true }).reason).toBe("turned off by PADDOCK_NO_SANDBOX=1");
    expect(unavailable({ platform: "win32" }).reason).toMatch(/^No sandbox on Windows yet/);
  });
});

describe("simulatedCheck (PADDOCK_NO_SANDBOX)", () => {
  it("unset or 0 checks for real; 1 (or any other value) turns the sandbox off; test values report a check result", () => {
    expect(simulatedCheck(undefined)).toBeUndefined();
    expect(simulatedCheck("0")).toBeUndefined();
    expect(simulatedCheck("1")).toMatchObject({ turnedOff: true });
    expect(simulatedCheck("yes")).toMatchObject({ turnedOff: true });
    expect(unavailable(simulatedCheck("apparmor")!).cause).toEqual({ kind: "user-namespaces", appArmor: true });
    expect(unavailable(simulatedCheck("missing")!).cause).toEqual({ kind: "missing", programs: ["bubblewrap", "socat"] });
    expect(unavailable(simulatedCheck("windows")!).cause).toEqual({ kind: "windows" });
  });
});
