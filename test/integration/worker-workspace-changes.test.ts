/**
 * A chat records its workspace's changes (issue 24 §1–§3), with real workers, the real tools and the real sandbox: a
 * command's deletions, renames, binary files and modes are recorded like edits and rewound byte for byte and mode for
 * mode; a tool card says what its call changed; the changes view lists files with the calls that changed them, one
 * file's diff, a hunk taken back; a file changed outside is a conflict, not overwritten; a non-git folder, a file over
 * the size limit; redo; the timeline survives a restart.
 */
import { describe, expect, it } from "vitest";
import { chmodSync, existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitForView, toolCallTurn as call, settled } from "../../testkit/worker-harness";
import { harnessPerTest } from "../../testkit/harness-per-test";
import { turnDirective } from "../../src/web-host/openai-test-server";
import { sandboxForTests } from "../../testkit/sandbox-support";
import { toolFileChanges } from "../../src/shared/protocol/changes";
import { loadTranscript } from "../../src/shared-node/session-files/transcript-store";

const sandbox = await sandboxForTests("the workspace changes tests");

const harnesses = harnessPerTest();
const folders = harnesses.folders;

const allow = { toolApproval: { bash: "allow", write: "allow", edit: "allow" } } as const;

/** Every entry under `root`: its kind, mode and bytes (a link's target), so two states compare exactly. */
function tree(root: string, rel = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(root, rel)).sort()) {
    const path = rel ? `${rel}/${name}` : name;
    const stat = lstatSync(join(root, path));
    const mode = (stat.mode & 0o777).toString(8);
    if (stat.isDirectory()) {
      out[path] = `dir ${mode}`;
      Object.assign(out, tree(root, path));
    } else out[path] = `file ${mode} ${readFileSync(join(root, path)).toString("base64")}`;
  }
  return out;
}

describe.skipIf(!sandbox.available)("a chat's workspace changes", () => {
  it("records a command's deletions, renames, binary file and chmod; its card says what changed; a rewind restores every byte and mode, and redo brings them back", async () => {
    const root = folders.make({ "old/x.txt": "x\n", "old/sub/y.txt": "y\n", "a.txt": "alpha\n", "run.sh": "echo hi\n", "keep.txt": "one\ntwo\nthree\n" });
    chmodSync(join(root, "run.sh"), 0o644);
    const before = tree(root);
    const h = await harnesses.start({ workspaceOf: () => root, settings: allow });
    const client = await h.client("changes");
    await waitForView(client, (v) => v.workspace?.sandboxChecking !== true);
    const command = "rm -rf old && mv a.txt b.txt && printf '\\000\\001\\002\\377' > bin.dat && chmod +x run.sh";
    void client.prompt(call("b1", "bash", { command })).catch(() => {});
    await settled(client, 4);
    const result = client.mirror.getView().state.messages[2] as { details?: unknown };
    expect(toolFileChanges(result.details)).toMatchObject({ files: expect.any(Number) });
    expect(toolFileChanges(result.details)!.files).toBeGreaterThanOrEqual(4);

    void client.prompt(call("e1", "edit", { path: "keep.txt", edits: [{ oldText: "two", newText: "TWO" }] })).catch(() => {});
    await settled(client, 8);
    expect(toolFileChanges((client.mirror.getView().state.messages[6] as { details?: unknown }).details)).toEqual({ files: 1, added: 1, removed: 1 });
    const after = tree(root);

    const set = await client.listChanges({ kind: "chat" });
    const byPath = Object.fromEntries(set.files.map((f) => [f.path, f]));
    expect(byPath["b.txt"]).toMatchObject({ status: "renamed", oldPath: "a.txt" });
    expect(byPath["bin.dat"]).toMatchObject({ status: "added", binary: { size: 4 } });
    expect(byPath["old/x.txt"]).toMatchObject({ status: "deleted" });
    expect(byPath["keep.txt"]).toMatchObject({ status: "modified", added: 1, removed: 1 });
    expect(set.authors[byPath["keep.txt"].authors[0]]).toMatchObject({ kind: "tool", id: "e1", name: "edit" });
    expect(set.authors[byPath["bin.dat"].authors[0]]).toMatchObject({ kind: "tool", id: "b1", name: "bash" });
    expect(set.notes).toContain("Files that .gitignore leaves out are not tracked.");
    const turn = await client.listChanges({ kind: "turn" });
    expect(turn.files.map((f) => f.path)).toEqual(["keep.txt"]);

    const diff = await client.fileDiff(set.from, set.to, "keep.txt");
    expect(diff.hunks).toHaveLength(1);
    expect(diff.hunks[0].lines).toEqual([" one", "-two", "+TWO", " three"]);
    expect(diff.authors[diff.hunks[0].authors[0]]).toMatchObject({ id: "e1" });

    const rewound = await client.rewind(0, "files");
    expect(rewound.done).toBe(true);
    expect(tree(root)).toEqual(before);

    if (!rewound.done) throw new Error("not done");
    const redone = await client.redo(rewound.actionId);
    expect(redone.done).toBe(true);
    expect(tree(root)).toEqual(after);
  });

  it("takes back one hunk, keeping the rest of the file; a file changed outside since is a conflict until the user answers", async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`);
    const root = folders.make({ "f.txt": lines.join("") });
    const h = await harnesses.start({ workspaceOf: () => root, settings: allow });
    const client = await h.client("hunks");
    const edits = [
      { oldText: "line 2\n", newText: "LINE 2\n" },
      { oldText: "line 18\n", newText: "LINE 18\n" },
    ];
    void client.prompt(call("e1", "edit", { path: "f.txt", edits })).catch(() => {});
    await settled(client, 4);
    const set = await client.listChanges({ kind: "chat" });
    const diff = await client.fileDiff(set.from, set.to, "f.txt");
    expect(diff.hunks).toHaveLength(2);
    const reverted = await client.revertHunk(set.from, set.to, "f.txt", diff.hunks[1].header);
    expect(reverted).toMatchObject({ done: true, reverted: ["f.txt"] });
    expect(readFileSync(join(root, "f.txt"), "utf8")).toBe(lines.join("").replace("line 2\n", "LINE 2\n"));

    // The user edits the file in their editor: reverting the other hunk over it asks first.
    writeFileSync(join(root, "f.txt"), readFileSync(join(root, "f.txt"), "utf8").replace("LINE 2\n", "MINE 2\n"));
    const after = await client.listChanges({ kind: "chat" });
    const conflict = await client.revertFile(after.from, after.to, "f.txt");
    expect(conflict).toMatchObject({ done: false, conflicts: [{ path: "f.txt" }] });
    expect(readFileSync(join(root, "f.txt"), "utf8")).toContain("MINE 2"); // nothing written
    const kept = await client.revertFile(after.from, after.to, "f.txt", "keep-mine");
    expect(kept).toMatchObject({ done: true, kept: ["f.txt"] });
    expect(readFileSync(join(root, "f.txt"), "utf8")).toContain("MINE 2");
    const overwritten = await client.revertFile(after.from, after.to, "f.txt", "overwrite");
    expect(overwritten).toMatchObject({ done: true });
    expect(readFileSync(join(root, "f.txt"), "utf8")).toBe(lines.join(""));
  });

  it("works in a folder that is not a git repository, says a file over the size limit changed without a copy, and keeps its timeline across a restart", async () => {
    const root = folders.make({ "notes.md": "# notes\n" });
    expect(existsSync(join(root, ".git"))).toBe(false);
    const h = await harnesses.start({ workspaceOf: () => root, settings: allow });
    const client = await h.client("restart");
    // 21 MB: over the default 20 MB limit.
    const command = "head -c 22020096 /dev/zero > big.bin && echo more >> notes.md";
    void client.prompt(call("b1", "bash", { command })).catch(() => {});
    await settled(client, 4);
    const set = await client.listChanges({ kind: "chat" });
    const big = set.files.find((f) => f.path === "big.bin");
    expect(big).toMatchObject({ status: "added", tooLarge: { size: 22020096 } });
    expect(set.notes?.some((n) => n.includes("size limit"))).toBe(true);

    const loaded = await loadTranscript(join(h.dataDir, "sessions", "restart.jsonl"));
    expect(loaded.workspaceCheckpoints?.map((c) => c.cause)).toEqual(["run", "tool"]);

    // A new worker reads the timeline back from the transcript.
    const pid = (await h.broker.attach("restart", "probe")).worker.pid!;
    const exited = new Promise<void>((resolve) => h!.broker.onEvent((e) => e.type === "worker-exited" && resolve()));
    process.kill(pid, "SIGKILL");
    await exited;
    await waitForView(client, (v) => v.connection === "ready" && v.notices.some((n) => n.kind === "worker-restarted"));
    const again = await client.listChanges({ kind: "chat" });
    expect(again.from).toBe(set.from);
    expect(again.to).toBe(set.to);
    expect(again.files.map((f) => f.path)).toEqual(set.files.map((f) => f.path));
    const rewound = await client.rewind(0, "files");
    expect(rewound).toMatchObject({ done: true, noCopy: [] });
    expect(existsSync(join(root, "big.bin"))).toBe(false);
    expect(readFileSync(join(root, "notes.md"), "utf8")).toBe("# notes\n");
  });

  it("rewinds chat and files together to before a message, tells the model which files were restored, and redo brings both back", async () => {
    const root = folders.make({ "f.txt": "v1\n" });
    const h = await harnesses.start({ workspaceOf: () => root, settings: allow });
    const client = await h.client("rewind");
    await client.prompt("hello");
    await settled(client, 2);
    void client.prompt(call("w1", "write", { path: "f.txt", content: "v2\n" })).catch(() => {});
    await settled(client, 6);

    const rewound = await client.rewind(2, "both");
    expect(rewound).toMatchObject({ done: true, reverted: ["f.txt"] });
    expect(readFileSync(join(root, "f.txt"), "utf8")).toBe("v1\n");
    await waitForView(client, (v) => v.state.messages.length === 3);
    const view = client.mirror.getView().state;
    expect(view.messages.map((m) => m.role)).toEqual(["user", "assistant", "filesRestored"]);
    expect(view.branches?.find((b) => b.at === 2)).toBeDefined();

    if (!rewound.done) throw new Error("not done");
    const redone = await client.redo(rewound.actionId);
    expect(redone).toMatchObject({ done: true, reverted: ["f.txt"] });
    expect(readFileSync(join(root, "f.txt"), "utf8")).toBe("v2\n");
    await waitForView(client, (v) => v.state.messages.length === 7);
    expect(client.mirror.getView().state.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "toolResult", "assistant", "filesRestored"]);

    // The next request carries the note, as a note rather than the user's words; the chat shows a marker, not a message of theirs.
    await client.prompt("go on");
    await settled(client, 9);
    const sent = JSON.stringify(h.server.requests.at(-1)!.body.messages);
    expect(sent).toContain("brought back changes it had taken back; these files in the workspace are not as you last saw them: f.txt");
  });

  it("attributes a subagent's whole task to it", async () => {
    const root = folders.make({ "a.txt": "a\n" });
    const h = await harnesses.start({ workspaceOf: () => root, settings: { toolApproval: { subagent: "allow", write: "allow", bash: "allow", edit: "allow" } } });
    const client = await h.client("parent");
    const write = { toolCalls: [{ id: "w1", name: "write", arguments: { path: "b.txt", content: "from the subagent\n" } }] };
    const task = `Write b. ${turnDirective(write)}`;
    void client.prompt(call("s1", "subagent", { agent: "worker", task })).catch(() => {});
    await settled(client, 4);
    const set = await client.listChanges({ kind: "chat" });
    const b = set.files.find((f) => f.path === "b.txt");
    expect(b).toMatchObject({ status: "added" });
    expect(set.authors[b!.authors[0]]).toMatchObject({ kind: "subagent", id: "s1", name: "worker" });
  });

  it("a workspace that cannot be recorded: the chat says plainly that checkpoints are off, and works on", async () => {
    const root = folders.make({ "a.txt": "a\n" });
    const h = await harnesses.start({ workspaceOf: () => root, settings: allow });
    writeFileSync(join(h.dataDir, "checkpoints"), "not a folder"); // the store cannot be made
    const client = await h.client("off");
    void client.prompt(call("w1", "write", { path: "a.txt", content: "b\n" })).catch(() => {});
    await settled(client, 4);
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("b\n");
    await waitForView(client, (v) => v.workspace?.checkpointsOff !== undefined);
    expect(client.mirror.getView().notices.some((n) => n.text.startsWith("Checkpoints are off for this chat:"))).toBe(true);
    await expect(client.listChanges({ kind: "chat" })).rejects.toThrow(/Checkpoints are off for this chat/);
  });
});
