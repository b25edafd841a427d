import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectFolder } from "../../../../src/main/broker/project-folder";

const repo = join("/", "home", "ana", "csv");
const worktree = { repositoryRoot: repo, path: join("/", "data-worktrees", "csv-fix-parser-a1b2c3") };

describe("a chat's project folder", () => {
  it("is its workspace; none without one", () => {
    expect(projectFolder(repo, undefined)).toBe(repo);
    expect(projectFolder(undefined, undefined)).toBeUndefined();
    expect(projectFolder(undefined, worktree)).toBeUndefined();
  });

  it("in a worktree, is the repository's checkout it was made from, at the same subfolder", () => {
    expect(projectFolder(worktree.path, worktree)).toBe(repo);
    expect(projectFolder(join(worktree.path, "packages", "core"), worktree)).toBe(join(repo, "packages", "core"));
  });

  it("a workspace outside the worktree (moved on since) is its own project, even one sharing the worktree's prefix", () => {
    const elsewhere = join("/", "home", "ana", "other");
    expect(projectFolder(elsewhere, worktree)).toBe(elsewhere);
    expect(projectFolder(`${worktree.path}-2`, worktree)).toBe(`${worktree.path}-2`);
  });
});
