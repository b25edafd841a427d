/**
 * A chat in a worktree of its own, end to end with the core both hosts assemble and a real worker: main makes the
 * worktree under `<data folder>-worktrees`, the loopback model's `write` lands in the worktree (never the user's
 * folder), "Apply to workspace" brings it over, and a workspace that changed the same file meanwhile is refused,
 * naming the file, with nothing changed.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { readFile, realpath, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Core } from "../../src/main/broker/core";
import { endpointUrl } from "../../src/main/broker/session-broker";
import type { SessionSummary } from "../../src/shared/protocol/session-summary";
import { SessionClient } from "../../src/renderer/store/session-client";
import { startOpenAIServer, turnDirective, type OpenAITestServer } from "../../src/web-host/openai-test-server";
import { createLoopbackCore } from "../../testkit/loopback-core";
import { TempFolders } from "../../testkit/temp-folders";
import { openWebSocket, waitForView, settled } from "../../testkit/worker-harness";
import { git } from "../../testkit/git";

let server: OpenAITestServer;
let dir: string;
let core: Core<never>;
const clients: SessionClient[] = [];
const folders = new TempFolders("paddock-worktree-chat-");


beforeAll(async () => {
  server = await startOpenAIServer({ models: ["test-model"] });
});
afterAll(() => server.close());
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "paddock-worktree-data-"));
  core = await createLoopbackCore(dir, server);
  await core.service.updateSettings({ tools: { approval: { write: "allow" } } });
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await core.shutdown();
  rmSync(dir, { recursive: true, force: true });
  rmSync(core.files.worktreesDir, { recursive: true, force: true });
  folders.removeAll();
});

async function repository(): Promise<string> {
  const workspace = await realpath(folders.make({ "notes.txt": "one\ntwo\nthree\n" }));
  git(workspace, "init", "-q");
  git(workspace, "add", "-A");
  git(workspace, "commit", "-q", "-m", "first");
  return workspace;
}

async function worktreeChat(workspace: string): Promise<{ chat: SessionSummary; client: SessionClient }> {
  const answer = await core.service.createWorktreeChat(workspace);
  if ("refused" in answer) throw new Error(answer.refused.reason);
  return { chat: answer, client: await connect(answer.id) };
}

async function connect(id: string): Promise<SessionClient> {
  const client = new SessionClient(id, async () => ({ transport: await openWebSocket(endpointUrl(await core.broker.attach(id, "page"))) }));
  clients.push(client);
  await client.start();
  return client;
}

const bash = (id: string, command: string) => turnDirective({ toolCalls: [{ id, name: "bash", arguments: { command } }] });
const write = (path: string, content: string) => turnDirective({ toolCalls: [{ id: "w1", name: "write", arguments: { path, content } }] });

describe("a chat in a worktree", () => {
  it("writes in its worktree only, and its change is applied back to the workspace", async () => {
    const workspace = await repository();
    const { chat, client } = await worktreeChat(workspace);
    expect(chat.workspace!.startsWith(await realpath(core.files.worktreesDir))).toBe(true);
    await waitForView(client, (v) => v.workspace?.folder === chat.workspace, 20_000);

    await client.prompt(`Add a line ${write("notes.txt", "one\ntwo\nthree\nfour\n")}`);
    await settled(client, 4);
    expect(await readFile(join(chat.workspace!, "notes.txt"), "utf8")).toBe("one\ntwo\nthree\nfour\n");
    expect(await readFile(join(workspace, "notes.txt"), "utf8")).toBe("one\ntwo\nthree\n"); // the user's folder is untouched

    expect(await core.service.worktreeChanges(chat.id)).toMatchObject({ files: [{ path: "notes.txt", status: "modified", added: 1, removed: 0 }] });
    expect(await core.service.applyWorktree(chat.id, false)).toMatchObject({ applied: true, files: ["notes.txt"] });
    expect(await readFile(join(workspace, "notes.txt"), "utf8")).toBe("one\ntwo\nthree\nfour\n");

    await core.service.discardWorktree(chat.id);
    expect(existsSync(chat.workspace!)).toBe(false);
    await waitForView(client, (v) => v.workspace === undefined, 20_000); // the chat's agent has no folder any more
  });

  it("refuses to apply over a file the workspace changed since, naming it, and changes nothing", async () => {
    const workspace = await repository();
    const { chat, client } = await worktreeChat(workspace);
    await client.prompt(`Change it ${write("notes.txt", "one\ntwo\nTHREE\n")}`);
    await settled(client, 4);
    await writeFile(join(workspace, "notes.txt"), "one\ntwo\nthree (mine)\n");
    const outcome = await core.service.applyWorktree(chat.id, false);
    expect(outcome).toMatchObject({ applied: false, conflicts: [{ path: "notes.txt" }] });
    expect(outcome.applied ? "" : outcome.message).toContain("notes.txt");
    expect(await readFile(join(workspace, "notes.txt"), "utf8")).toBe("one\ntwo\nthree (mine)\n");
  });

  it("keeps its project grants with the repository's folder: one made there holds in the project's other chats, and theirs in it", async () => {
    const workspace = await repository();
    const { chat, client } = await worktreeChat(workspace);
    void client.prompt(bash("c1", "cat notes.txt")).catch(() => {});
    await waitForView(client, (v) => v.approvals.some((a) => a.toolCallId === "c1"), 20_000);
    await client.answerApproval("c1", "project");
    await settled(client, 4);
    // Kept for the repository's folder, not the worktree's, and shown so from either chat.
    expect(await core.service.projectGrants(chat.id)).toMatchObject({ projects: [{ folder: workspace, grants: [{ grant: "bash=cat notes.txt" }] }] });
    expect((await core.service.projectGrants(null)).projects.map((p) => p.folder)).toEqual([workspace]);

    // A chat working in the repository itself runs it without asking.
    const plain = await core.service.createSession();
    expect(await core.service.setWorkspace(plain.id, workspace)).toMatchObject({ workspace });
    const other = await connect(plain.id);
    await other.prompt(bash("c2", "cat notes.txt"));
    await settled(other, 4);
    expect(other.mirror.getView().approvals).toEqual([]);
    expect(JSON.stringify(other.mirror.getView().state.messages.at(-2))).toContain("three");
    expect(await core.service.projectGrants(plain.id)).toMatchObject({ projects: [{ folder: workspace, grants: [{ grant: "bash=cat notes.txt" }] }] });

    // A grant made there holds in a (new) worktree chat of the project, from its start.
    void other.prompt(bash("c3", "ls")).catch(() => {});
    await waitForView(other, (v) => v.approvals.some((a) => a.toolCallId === "c3"), 20_000);
    await other.answerApproval("c3", "project");
    await settled(other, 8);
    const second = await worktreeChat(workspace);
    await second.client.prompt(bash("c4", "ls"));
    await settled(second.client, 4);
    expect(second.client.mirror.getView().approvals).toEqual([]);
    // And in the running first one at once.
    await client.prompt(bash("c5", "ls"));
    await settled(client, 8);
    expect(client.mirror.getView().approvals).toEqual([]);
  }, 60_000);
});
