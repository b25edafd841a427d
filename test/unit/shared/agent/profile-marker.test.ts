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

  it("a run with a contract of its own gets a marker carrying it, and the run after it, without, another", () => {
    const scheduled = profileMarker([user], "read-only", "read-only", 5, false, { unattended: true, profile: "read-only", budget: { toolCalls: 5, costUsd: 2 } });
    expect(scheduled).toEqual({ role: "permissionProfile", profile: "read-only", run: { unattended: true, profile: "read-only", budget: { costUsd: 2, toolCalls: 5 } }, timestamp: 5 });
    expect(profileMarkerText(scheduled!)).toBe("This run: Read-only; unattended (questions parked, denied if unanswered), within the $2.00 budget and the 5-tool-call budget. The chat's own settings apply again after it.");
    // The same terms again (a schedule's next run): nothing new to say. Without them: a marker, though the profile is the same.
    expect(profileMarker([user, scheduled!], "read-only", "read-only", 6, false, { unattended: true, profile: "read-only", budget: { toolCalls: 5, costUsd: 2 } })).toBeUndefined();
    expect(profileMarker([user, scheduled!], "read-only", "read-only", 6)).toEqual({ role: "permissionProfile", profile: "read-only", timestamp: 6 });
    // An empty contract is none.
    expect(profileMarker([user], "ask", "ask", 7, false, { budget: {} })).toBeUndefined();
    const once = profileMarker([user], "read-only", "read-only", 8, true, { plan: true });
    expect(latestProfile([user, once!])).toEqual({ profile: "read-only", plan: true, run: { plan: true } });
    expect(profileMarkerText(once!)).toBe("This message in Plan: only read-only tools run (Read-only), and the agent answers with a plan to approve.");
  });
});
