import { describe, expect, it } from "vitest";
import {
  decide, effectiveProfile, isWider, narrowest, PERMISSION_PROFILES, PROFILE_TABLE, PROFILE_TEXT, toolKind, type PermissionProfile, type ToolKind,
} from "../../../../src/shared/protocol/permission-profiles";
import { chatOptionsProblem, normalizeChatOptions } from "../../../../src/shared/protocol/chat-options";

const KINDS: ToolKind[] = ["read", "inert", "edit", "command", "network", "mcp-read", "mcp", "subagent", "worktree"];
/** How much a decision lets through without the user: refused < settings (asked or Settings' word) < allowed. */
const LETS: Record<string, number> = { refuse: 0, "read-only-command": 1, settings: 1, allow: 2 };

describe("the profile table", () => {
  it("orders the profiles narrowest first: a later one never lets through less, kind by kind", () => {
    for (let i = 1; i < PERMISSION_PROFILES.length; i++) {
      for (const kind of KINDS) {
        expect(LETS[PROFILE_TABLE[PERMISSION_PROFILES[i]][kind]], `${PERMISSION_PROFILES[i]} ${kind}`).toBeGreaterThanOrEqual(LETS[PROFILE_TABLE[PERMISSION_PROFILES[i - 1]][kind]]);
      }
    }
  });

  it("Ask is today's behaviour: every kind as Settings and grants say", () => {
    for (const kind of KINDS) expect(PROFILE_TABLE.ask[kind]).toBe("settings");
  });

  it("Read-only lets only read-only tools through: edits, worktrees and MCP tools not marked read-only are refused", () => {
    expect(KINDS.filter((k) => PROFILE_TABLE["read-only"][k] === "refuse")).toEqual(["edit", "mcp", "worktree"]);
    expect(decide("read-only", "command", true)).toEqual({ decision: "settings", readOnlyWorkspace: true });
    const none = decide("read-only", "command", false);
    expect(none.decision).toBe("refuse");
    expect(none.decision === "refuse" && none.reason).toMatch(/no sandbox/);
  });

  it("says in words what each profile allows", () => {
    for (const p of PERMISSION_PROFILES) expect(PROFILE_TEXT[p].allows.length).toBeGreaterThan(20);
  });

  it("knows each tool's kind; a tool it does not know counts as one that may change anything", () => {
    expect(["read", "ls", "find", "grep"].map((t) => toolKind(t))).toEqual(["read", "read", "read", "read"]);
    expect([toolKind("write"), toolKind("edit"), toolKind("bash"), toolKind("frobnicate")]).toEqual(["edit", "edit", "command", "mcp"]);
    expect([toolKind("srv__q", true), toolKind("srv__q", false)]).toEqual(["mcp-read", "mcp"]);
  });
});

describe("narrowing and falling back", () => {
  it("a subagent's profile is never wider than its parent's; a definition may narrow it", () => {
    for (const parent of PERMISSION_PROFILES) {
      for (const own of [...PERMISSION_PROFILES, undefined]) {
        const child = narrowest(parent, own);
        expect(isWider(child, parent), `${parent} / ${own}`).toBe(false);
        if (own) expect(isWider(child, own)).toBe(false);
      }
    }
    expect(narrowest("sandboxed-auto", "read-only")).toBe("read-only");
    expect(narrowest("ask", "sandboxed-auto")).toBe("ask");
    expect(narrowest("edits", undefined)).toBe("edits");
  });

  it("Sandboxed auto where there is no sandbox falls back to Ask, saying so", () => {
    const fallen = effectiveProfile("sandboxed-auto", undefined, false);
    expect(fallen.profile).toBe("ask");
    expect(fallen.fallback).toMatch(/no(ne)? .*sandbox|sandbox.*none/i);
    expect(effectiveProfile(undefined, "sandboxed-auto", undefined).profile).toBe("ask");
    expect(effectiveProfile("sandboxed-auto", "ask", true)).toEqual({ profile: "sandboxed-auto" });
    expect(effectiveProfile(undefined, "edits", false)).toEqual({ profile: "edits" });
    expect(effectiveProfile(undefined, undefined, true)).toEqual({ profile: "ask" });
  });
});

describe("a chat's profile among its options", () => {
  it("is kept, and anything but a profile's name is refused in words", () => {
    const all: PermissionProfile[] = [...PERMISSION_PROFILES];
    for (const profile of all) {
      expect(chatOptionsProblem({ profile })).toBeUndefined();
      expect(normalizeChatOptions({ profile })).toEqual({ profile });
    }
    expect(chatOptionsProblem({ profile: "yolo" })).toBe('unknown permission profile "yolo"');
    expect(chatOptionsProblem({ profile: 3 })).toMatch(/unknown permission profile/);
  });
});
