import { describe, expect, it } from "vitest";
import { latestProfile, profileMarker, profileMarkerText } from "../../../../src/shared/agent/profile-marker";

const user = { role: "user" };

describe("the profile marker", () => {
  it("a chat with no marker ran under Ask: no marker until the profile changes", () => {
    expect(latestProfile([user])).toEqual({ profile: "ask" });
    expect(profileMarker([user], "ask", "ask", 5)).toBeUndefined();
    expect(profileMarker([user], "edits", "edits", 5)).toEqual({ role: "permissionProfile", profile: "edits", timestamp: 5 });
  });

  it("one marker per change: the same profile again adds none; a change back to Ask does", () => {
    const marked = [user, { role: "permissionProfile", profile: "edits", timestamp: 1 }, user];
    expect(profileMarker(marked, "edits", "edits")).toBeUndefined();
    expect(profileMarker(marked, "ask", "ask")?.profile).toBe("ask");
    expect(profileMarker(marked, "read-only", "read-only")?.profile).toBe("read-only");
  });

  it("a fallback is on record: Sandboxed auto asked for, Ask run, said in the chat's line", () => {
    const marker = profileMarker([user], "ask", "sandboxed-auto", 9);
    expect(marker).toEqual({ role: "permissionProfile", profile: "ask", wanted: "sandboxed-auto", timestamp: 9 });
    expect(profileMarkerText(marker!)).toBe("Runs from here: Ask (Sandboxed auto needs a sandbox, and there is none here)");
    expect(profileMarker([user, marker!], "ask", "sandboxed-auto")).toBeUndefined();
    expect(profileMarkerText({ role: "permissionProfile", profile: "edits", timestamp: 1 })).toMatch(/^Runs from here: Edits allowed\. Writes and edits/);
  });

  it("a planning run's marker says so; entering or leaving Plan mode is a change", () => {
    const planning = profileMarker([user], "read-only", "read-only", 3, true);
    expect(planning).toEqual({ role: "permissionProfile", profile: "read-only", plan: true, timestamp: 3 });
    expect(latestProfile([user, planning!])).toEqual({ profile: "read-only", plan: true });
    expect(profileMarker([user, planning!], "read-only", "read-only", 4, true)).toBeUndefined();
    // Read-only chosen as the act profile, after planning: a marker without `plan`.
    expect(profileMarker([user, planning!], "read-only", "read-only", 4)).toEqual({ role: "permissionProfile", profile: "read-only", timestamp: 4 });
    expect(profileMarkerText(planning!)).toMatch(/^Plan mode from here/);
  });
});
