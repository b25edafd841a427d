import { describe, expect, it } from "vitest";
import { sessionProfile } from "../../../../../src/agent-worker/host/session/session-profile";
import { isWider, PERMISSION_PROFILES } from "../../../../../src/shared/protocol/permission-profiles";

describe("the profile a session asks for", () => {
  it("a user's chat: its own choice, else Settings' default, else Ask", () => {
    expect(sessionProfile(undefined, "read-only", { defaultProfile: "edits" })).toBe("read-only");
    expect(sessionProfile(undefined, undefined, { defaultProfile: "edits" })).toBe("edits");
    expect(sessionProfile(undefined, undefined, {})).toBe("ask");
  });

  it("a subagent: never wider than its launch, whatever its own window or Settings say; narrowing allowed", () => {
    for (const launched of PERMISSION_PROFILES) {
      for (const own of [...PERMISSION_PROFILES, undefined]) {
        const got = sessionProfile({ profile: launched }, own, { defaultProfile: "sandboxed-auto" });
        expect(isWider(got, launched), `${launched} / ${own}`).toBe(false);
      }
    }
    expect(sessionProfile({ profile: "edits" }, "read-only", {})).toBe("read-only");
    expect(sessionProfile({ profile: "read-only" }, "sandboxed-auto", {})).toBe("read-only");
    // A launch kept before profiles: Ask, not Settings' (possibly wider) default.
    expect(sessionProfile({}, undefined, { defaultProfile: "sandboxed-auto" })).toBe("ask");
  });

  it("Plan mode: Read-only, whatever the act profile; a subagent's own Plan mode only narrows it", () => {
    for (const own of [...PERMISSION_PROFILES, undefined]) {
      expect(sessionProfile(undefined, own, { defaultProfile: "sandboxed-auto" }, true)).toBe("read-only");
      expect(sessionProfile({ profile: "sandboxed-auto" }, own, {}, true)).toBe("read-only");
    }
  });
});
