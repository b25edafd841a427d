/** The sidebar's groups: by date before any chat has a workspace; by project (its folder) after, "No project" for the rest. */
import { describe, expect, it } from "vitest";
import { groupByProject, groupSessions, NO_PROJECT, projectFolder } from "../../../../../src/renderer/components/sidebar/groupSessions";
import type { SessionSummary } from "../../../../../src/shared/protocol/app-api";

const chat = (id: string, updated: number, extra: Partial<SessionSummary> = {}): SessionSummary => ({ id, title: id, created: 1, updated, messageCount: 1, ...extra });
const worktree = (repositoryRoot: string, path: string, folder: string) => ({ repositoryRoot, path, folder, branch: "paddock/chat-1", base: "main", startedFrom: "abc", carried: false });
const shape = (groups: ReturnType<typeof groupByProject>) => groups.map((g) => [g.label, g.folder, g.sessions.map((s) => s.id)]);

describe("projectFolder", () => {
  it("is the workspace, a worktree chat's the user's folder it was made from", () => {
    expect(projectFolder({})).toBeUndefined();
    expect(projectFolder({ workspace: "/work/app/" })).toBe("/work/app");
    expect(projectFolder({ workspace: "/data-worktrees/x1", worktree: worktree("/work/app", "/data-worktrees/x1", "/data-worktrees/x1") })).toBe("/work/app");
    expect(projectFolder({ workspace: "/data-worktrees/x1/web", worktree: worktree("/work/app", "/data-worktrees/x1", "/data-worktrees/x1/web") })).toBe("/work/app/web");
    expect(projectFolder({ workspace: "/", worktree: undefined })).toBe("/");
  });
});

describe("groupByProject", () => {
  it("groups by folder, each newest first, projects by their latest chat, the chats without one under No project", () => {
    const groups = groupByProject([
      chat("a1", 10, { workspace: "/work/app" }),
      chat("loose-old", 5),
      chat("b1", 30, { workspace: "/work/blog" }),
      chat("a2", 20, { workspace: "/work/app" }),
      chat("loose-new", 25),
      chat("wt", 15, { workspace: "/wt/x1", worktree: worktree("/work/app", "/wt/x1", "/wt/x1") }),
    ]);
    expect(shape(groups)).toEqual([
      ["blog", "/work/blog", ["b1"]],
      [NO_PROJECT, undefined, ["loose-new", "loose-old"]],
      ["app", "/work/app", ["a2", "wt", "a1"]],
    ]);
    expect(groups.map((g) => g.key)).toEqual(["/work/blog", "", "/work/app"]);
  });

  it("names two projects of the same name by their parent folder too", () => {
    const groups = groupByProject([chat("x", 2, { workspace: "/home/ann/app" }), chat("y", 1, { workspace: "/srv/app" }), chat("z", 0, { workspace: "/srv/site" })]);
    expect(groups.map((g) => g.label)).toEqual(["ann/app", "srv/app", "site"]);
  });

  it("is empty for no chats, and the date groups are unchanged", () => {
    expect(groupByProject([])).toEqual([]);
    const now = new Date(2026, 11, 5, 12).getTime();
    expect(groupSessions([chat("t", now - 1000), chat("o", now - 30 * 86_400_000)], now).map((g) => g.label)).toEqual(["Today", "Older"]);
  });
});
