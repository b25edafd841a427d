/**
 * Worktree chats and isolated tasks' worktrees through main's AppService (session-worktrees.ts), with real git in
 * temporary folders: a chat made in a worktree, its changes applied back (refused, then merged, when the workspace
 * changed the same file), kept or discarded; a subagent's task worktree by its session id; clean-up with the chat and
 * at start.
 */
import { existsSync } from "node:fs";
import { readFile, realpath, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createWorktree } from "../../../../src/shared-node/git-worktrees/worktree-lifecycle";
import { storedLaunch } from "../../../../src/main/broker/child-launch";
import { SessionWorktrees } from "../../../../src/main/broker/session-worktrees";
import { startAppServiceRig, type AppServiceRig } from "../../../../testkit/app-service-rig";
import { TempFolders } from "../../../../testkit/temp-folders";
import type { SessionSummary } from "../../../../src/shared/protocol/session-summary";
import { git } from "../../../../testkit/git";

const folders = new TempFolders("paddock-session-worktrees-");
afterAll(() => folders.removeAll());
const rigs: AppServiceRig[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const rig of rigs.splice(0)) await rig.close();
});


async function repository(files: Record<string, string> = { "a.txt": "one\n", "src/b.txt": "bee\n" }): Promise<string> {
  const workspace = await realpath(folders.make(files));
  git(workspace, "init", "-q");
  git(workspace, "add", "-A");
  git(workspace, "commit", "-q", "-m", "first");
  return workspace;
}

async function start() {
  const worktreesDir = join(folders.make({}), "data-worktrees");
  const rig = await startAppServiceRig("paddock-app-worktrees-", { worktreesDir });
  rigs.push(rig);
  return { ...rig, worktreesDir };
}

function chatOf(answer: SessionSummary | { refused: unknown }): SessionSummary {
  if ("refused" in answer) throw new Error("refused");
  return answer;
}

describe("a chat in a worktree of its own", () => {
  it("is offered for a git repository, and explained for a folder that is not one", async () => {
    const { service } = await start();
    const workspace = await repository();
    expect(await service.worktreeOffer(workspace)).toEqual({ ok: true, repositoryRoot: workspace, branch: "main" });
    const plain = await realpath(folders.make({ "x.txt": "x" }));
    expect(await service.worktreeOffer(plain)).toEqual({ ok: false, reason: `${plain} is not in a git repository` });
    expect(await service.worktreeOffer(join(plain, "missing"))).toEqual({ ok: false, reason: `There is no folder at ${join(plain, "missing")}` });
  });

  it("works in the worktree (the record keeps it), and applies its changes back to the workspace", async () => {
    const { service, index, worktreesDir } = await start();
    const workspace = await repository();
    const chat = chatOf(await service.createWorktreeChat(join(workspace, "src")));
    const worktree = index.get(chat.id)!.worktree!;
    expect(worktree).toMatchObject({ repositoryRoot: workspace, branch: `paddock/chat-${chat.id.slice(0, 8)}` });
    expect(worktree.path.startsWith(await realpath(worktreesDir))).toBe(true);
    expect(chat.workspace).toBe(join(worktree.path, "src")); // the counterpart of the chosen folder
    expect(chat.worktree?.branch).toBe(worktree.branch); // the page sees it too, for the header
    await expect(service.setWorkspace(chat.id, workspace)).rejects.toThrow("This chat works in its worktree: keep its branch or discard it first.");

    await writeFile(join(chat.workspace!, "b.txt"), "bee\nhoney\n");
    expect(await service.worktreeChanges(chat.id)).toMatchObject({ branch: worktree.branch, files: [{ path: "src/b.txt", status: "modified", added: 1, removed: 0 }] });
    expect(await service.applyWorktree(chat.id, false)).toMatchObject({ applied: true, files: ["src/b.txt"] });
    expect(await readFile(join(workspace, "src", "b.txt"), "utf8")).toBe("bee\nhoney\n");
    expect(git(workspace, "status", "--porcelain")).toBe(" M src/b.txt\n"); // uncommitted, index untouched
  });

  it("refuses to apply over a file the workspace changed too, naming it, and merges three ways when asked", async () => {
    const { service } = await start();
    const workspace = await repository({ "a.txt": "1\n2\n3\n4\n5\n6\n7\n8\n" });
    const chat = chatOf(await service.createWorktreeChat(workspace));
    await writeFile(join(chat.workspace!, "a.txt"), "1\n2\n3\n4\n5\n6\n7\nagent\n");
    await writeFile(join(workspace, "a.txt"), "user\n2\n3\n4\n5\n6\n7\n8\n");
    const refused = await service.applyWorktree(chat.id, false);
    expect(refused).toMatchObject({ applied: false, conflicts: [{ path: "a.txt" }] });
    expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("user\n2\n3\n4\n5\n6\n7\n8\n");
    expect(await service.applyWorktree(chat.id, true)).toMatchObject({ applied: true, merged: ["a.txt"], withConflictMarkers: [] });
    expect(await readFile(join(workspace, "a.txt"), "utf8")).toBe("user\n2\n3\n4\n5\n6\n7\nagent\n");
  });

  it("keeps its branch or discards it; either way the chat has no workspace any more", async () => {
    const { service, index } = await start();
    const workspace = await repository();
    const kept = chatOf(await service.createWorktreeChat(workspace));
    const keptTree = index.get(kept.id)!.worktree!;
    await writeFile(join(kept.workspace!, "new.txt"), "new\n");
    expect(await service.keepWorktreeBranch(kept.id)).toMatchObject({ branch: keptTree.branch, committed: true });
    expect(git(workspace, "show", "--name-only", "--format=%s", keptTree.branch)).toContain("new.txt");
    expect(existsSync(keptTree.path)).toBe(false);
    expect(index.get(kept.id)).not.toHaveProperty("worktree");
    expect(index.get(kept.id)).not.toHaveProperty("workspace");
    await expect(service.worktreeChanges(kept.id)).rejects.toThrow("This chat does not work in a worktree.");

    const gone = chatOf(await service.createWorktreeChat(workspace));
    const goneTree = index.get(gone.id)!.worktree!;
    await service.discardWorktree(gone.id);
    expect(existsSync(goneTree.path)).toBe(false);
    expect(git(workspace, "branch", "--list", goneTree.branch)).toBe("");
    expect(index.get(gone.id)).not.toHaveProperty("workspace");
  });

  it("ends with the chat once deleted for good: removed when unchanged, its branch kept (and said) when changed", async () => {
    const { service, index } = await start();
    const workspace = await repository();
    const unchanged = chatOf(await service.createWorktreeChat(workspace));
    const changed = chatOf(await service.createWorktreeChat(workspace));
    const [quiet, busy] = [index.get(unchanged.id)!.worktree!, index.get(changed.id)!.worktree!];
    await writeFile(join(changed.workspace!, "a.txt"), "changed\n");
    await service.deleteSession(unchanged.id);
    await service.deleteSession(changed.id);
    expect(existsSync(busy.path)).toBe(true); // still within the undo window
    await service.takeNotices();
    vi.useFakeTimers({ now: Date.now() + 120_000, toFake: ["Date"] });
    await service.deleteSession((await service.createSession()).id); // purges what was deleted before the window
    expect(existsSync(quiet.path)).toBe(false);
    expect(git(workspace, "branch", "--list", quiet.branch)).toBe("");
    expect(existsSync(busy.path)).toBe(false);
    expect(git(workspace, "show", "--format=%s", "--no-patch", busy.branch).trim()).toBe(`Changes made in the Paddock chat "New chat"`);
    expect((await service.takeNotices()).map((n) => n.text)).toEqual([
      `The deleted chat "New chat" worked in a worktree: it was removed, and its branch ${busy.branch} in ${workspace} keeps its changes.`,
    ]);
  });

  it("at start, prunes Paddock's worktrees no chat uses any more, keeping their branches", async () => {
    const { index, worktreesDir } = await start();
    const workspace = await repository();
    const used = await createWorktree({ workspace, dataFolder: worktreesDir, title: "used" });
    const leftover = await createWorktree({ workspace, dataFolder: worktreesDir, title: "leftover" });
    await writeFile(join(leftover.path, "left.txt"), "left\n");
    index.upsert({ id: "c-used", title: "Used", created: 1, updated: 1, messageCount: 0, workspace: used.folder, worktree: used });
    const said = await new SessionWorktrees({ index, worktreesDir }).pruneLeftovers();
    expect(existsSync(used.path)).toBe(true);
    expect(existsSync(leftover.path)).toBe(false);
    expect(git(workspace, "show", "--name-only", "--format=", leftover.branch).trim()).toBe("left.txt");
    expect(said).toEqual([`A Paddock worktree no chat uses any more was removed; its branch ${leftover.branch} in ${workspace} keeps its work.`]);
  });
});

describe("a subagent task's worktree, by the subagent's session id", () => {
  it("says whether it is still there, or was kept", async () => {
    const { service, index, worktreesDir } = await start();
    const workspace = await repository();
    const parent = await service.createSession();
    const worktree = await createWorktree({ workspace, dataFolder: worktreesDir, title: "scout" });
    index.upsert({
      id: "sub-2", title: "scout (subagent)", created: 1, updated: 1, messageCount: 0, workspace: worktree.folder,
      parent: { sessionId: parent.id, toolCallId: "c2", agent: "scout" },
      launch: storedLaunch({ setup: { parentSessionId: parent.id, agent: "scout", instructions: "", tools: [] }, toolCallId: "c2", workspace: worktree.folder, worktree }),
    });
    expect(await service.worktreeStatus("sub-2")).toBe("open");
    await service.keepWorktreeBranch("sub-2");
    expect(await service.worktreeStatus("sub-2")).toBe("kept");
  });

  it("lists, applies and discards through the same calls; a chat's own session is not a task", async () => {
    const { service, index, worktreesDir } = await start();
    const workspace = await repository();
    const parent = await service.createSession();
    const worktree = await createWorktree({ workspace, dataFolder: worktreesDir, title: "worker task" });
    const setup = { parentSessionId: parent.id, agent: "worker", instructions: "", tools: ["write"] };
    index.upsert({
      id: "sub-1", title: "worker (subagent)", created: 1, updated: 1, messageCount: 0, workspace: worktree.folder,
      parent: { sessionId: parent.id, toolCallId: "c1", agent: "worker" },
      launch: storedLaunch({ setup, toolCallId: "c1", workspace: worktree.folder, worktree }),
    });
    await writeFile(join(worktree.folder, "a.txt"), "one\ntask\n");
    expect(await service.worktreeChanges("sub-1")).toMatchObject({ branch: worktree.branch, files: [{ path: "a.txt", added: 1 }] });
    expect(await service.applyWorktree("sub-1", false)).toMatchObject({ applied: true, files: ["a.txt"] });
    expect(await service.worktreeStatus("sub-1")).toBe("open");
    await service.discardWorktree("sub-1");
    expect(await service.worktreeStatus("sub-1")).toBe("discarded");
    expect(existsSync(worktree.path)).toBe(false);
    await expect(service.worktreeChanges("sub-1")).rejects.toThrow(`The worktree of ${worktree.branch} is gone: its branch was kept or discarded.`);
    await expect(service.applyWorktree(parent.id, false)).rejects.toThrow("This chat does not work in a worktree.");
  });
});
