/**
 * A chat with a workspace, with real workers, the real tools and the real sandbox: the model is told the folder and
 * its project context and gets pi's tools; an edit asks with the diff it would make and changes only its range once
 * allowed; a command runs in the sandbox, streams its output, writes in the workspace only and cannot read the app's
 * data; a chat whose folder went missing still opens, without tools.
 */
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitForView, type Harness, toolCallTurn as call, settled } from "../../testkit/worker-harness";
import { harnessPerTest } from "../../testkit/harness-per-test";
import { sandboxForTests } from "../../testkit/sandbox-support";
import { Fifos } from "../../testkit/fifos";

const sandbox = await sandboxForTests("the sandboxed-command test");

const harnesses = harnessPerTest();
const folders = harnesses.folders;

const fifos = new Fifos();
afterEach(async () => {
  fifos.releaseAll();
});

const workspace = (files: Record<string, string> = {}) => folders.make(files);

/** The text of the tool result the model was sent last. */
const lastToolResult = (harness: Harness) => {
  const messages = harness.server.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
  return String(messages.filter((m) => m.role === "tool").at(-1)?.content ?? "");
};

describe("a chat with a workspace", () => {
  it("tells the model the folder and AGENTS.md in pi 1.6.0's sections, and gives it pi's tools; a chat without one gets neither", async () => {
    const root = workspace({ "AGENTS.md": "Always answer in haiku." });
    const h = await harnesses.start({ workspaceOf: (id) => (id === "with" ? root : undefined) });
    const client = await h.client("with");
    await client.prompt("hello");
    await settled(client, 2);
    const body = h.server.requests.at(-1)!.body;
    const system = String(body.messages[0].content);
    expect(system).toContain(`<cwd>\n${root}\n</cwd>`);
    expect(system).toContain(`<project_instructions path="${join(root, "AGENTS.md")}">\nAlways answer in haiku.\n</project_instructions>`);
    expect(system).toContain("- edit: Make precise file edits");
    const names = (body.tools as { function: { name: string } }[]).map((t) => t.function.name).sort();
    expect(names).toEqual(["bash", "calculate", "edit", "find", "grep", "ls", "read", "subagent", "wait", "worktree", "write"]);
    expect(client.mirror.getView().workspace).toMatchObject({ folder: root, contextFiles: [join(root, "AGENTS.md")] });

    const plain = await h.client("without");
    await plain.prompt("hello");
    await settled(plain, 2);
    const tools = (h.server.requests.at(-1)!.body.tools as { function: { name: string } }[]).map((t) => t.function.name).sort();
    expect(tools).toEqual(["calculate", "wait"]);
    expect(plain.mirror.getView().workspace).toBeUndefined();
  });

  it("an AGENTS.md that links to a key outside never reaches the model, nor does a FIFO hold the chat up; the panel says why", async () => {
    const outside = workspace({ "secret-key": "-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAA" });
    const root = workspace();
    symlinkSync(join(outside, "secret-key"), join(root, "AGENTS.md")); // as a cloned repository can ship it
    const sub = join(root, "sub");
    mkdirSync(sub);
    fifos.make(join(sub, "AGENTS.md"));
    const h = await harnesses.start({ workspaceOf: (id) => (id === "link" ? root : sub) });
    const skipped: Record<string, string[] | undefined> = {};
    for (const [id, folder] of [["link", root], ["fifo", sub]] as const) {
      const client = await h.client(id);
      await client.prompt("hello");
      await settled(client, 2);
      expect(JSON.stringify(h.server.requests.at(-1)!.body)).not.toContain("PRIVATE KEY");
      expect(String(h.server.requests.at(-1)!.body.messages[0].content)).toContain(`<cwd>\n${folder}\n</cwd>`);
      expect(client.mirror.getView().workspace).toMatchObject({ folder, contextFiles: [] });
      skipped[id] = client.mirror.getView().workspace?.contextSkipped;
    }
    const linkOut = `${join(root, "AGENTS.md")}: not read (a link to ${join(outside, "secret-key")}, outside ${root})`;
    expect(skipped.link).toEqual([linkOut]);
    expect(skipped.fifo).toEqual([linkOut, `${join(sub, "AGENTS.md")}: not read (a FIFO (named pipe), not a regular file)`]);
  });

  it("an edit asks with the diff it would make; once allowed it changes only its range and the result carries the patch", async () => {
    const root = workspace({ "notes.txt": "alpha\r\nbeta\r\ngamma\r\n" });
    const h = await harnesses.start({ workspaceOf: () => root });
    const client = await h.client("edit");
    void client.prompt(call("e1", "edit", { path: "notes.txt", edits: [{ oldText: "beta", newText: "BETA" }] })).catch(() => {});
    await waitForView(client, (v) => v.approvals.length > 0);
    const [request] = client.mirror.getView().approvals;
    expect(request).toMatchObject({ toolName: "edit", summary: "edit notes.txt", scope: "edit" });
    expect(request.diff).toContain("--- a/notes.txt");
    expect(request.diff).toContain("-beta");
    expect(request.diff).toContain("+BETA");
    expect(readFileSync(join(root, "notes.txt"), "utf8")).toBe("alpha\r\nbeta\r\ngamma\r\n"); // nothing yet

    await client.answerApproval("e1", "once");
    await settled(client, 4);
    expect(readFileSync(join(root, "notes.txt"), "utf8")).toBe("alpha\r\nBETA\r\ngamma\r\n"); // CRLF kept
    const result = client.mirror.getView().state.messages[2];
    expect(result).toMatchObject({ role: "toolResult", isError: false });
    expect((result as { details?: { patch?: string } }).details?.patch).toContain("+BETA");
  });

  it("a write asks with the new file's lines", async () => {
    const root = workspace();
    const h = await harnesses.start({ workspaceOf: () => root });
    const client = await h.client("write");
    void client.prompt(call("w1", "write", { path: "src/new.ts", content: "export const x = 1;\n" })).catch(() => {});
    await waitForView(client, (v) => v.approvals.length > 0);
    expect(client.mirror.getView().approvals[0].diff).toContain("+export const x = 1;");
    await client.answerApproval("w1", "deny", "not now");
    await settled(client, 4);
    expect(existsSync(join(root, "src/new.ts"))).toBe(false);
    expect(lastToolResult(h)).toContain("The user denied this call: not now");
  });

  it.skipIf(!sandbox.available)("a command runs in the sandbox: its output streams, it writes in the workspace only and cannot read the app's data", async () => {
    const root = workspace();
    const h = await harnesses.start({ workspaceOf: () => root, settings: { toolApproval: { bash: "allow" } } });
    writeFileSync(join(h.dataDir, "secrets.json"), "top secret");
    const outside = join(tmpdir(), `paddock-outside-${process.pid}-${Date.now()}`);
    const client = await h.client("bash");
    await waitForView(client, (v) => v.workspace?.sandboxChecking !== true);
    expect(client.mirror.getView().workspace).toMatchObject({ sandboxed: true });
    const command = [
      "echo first; sleep 0.4; echo second",
      "echo made > inside.txt",
      `(echo escaped > ${outside}) 2>/dev/null || echo write-refused`,
      `(cat ${join(h.dataDir, "secrets.json")}) 2>/dev/null || echo read-refused`,
    ].join("; ");
    const partials: string[] = [];
    const off = client.mirror.subscribe(() => {
      const partial = client.mirror.getView().toolRuns.b1?.partialResult as { content?: { text: string }[] } | undefined;
      const text = partial?.content?.[0]?.text;
      if (text && partials.at(-1) !== text) partials.push(text);
    });
    void client.prompt(call("b1", "bash", { command })).catch(() => {});
    await settled(client, 4);
    off();
    expect(partials.some((p) => p.includes("first") && !p.includes("second"))).toBe(true); // seen before the end
    const output = lastToolResult(h);
    expect(output).toContain("second");
    expect(output).toContain("write-refused");
    expect(output).toContain("read-refused");
    expect(output).not.toContain("top secret");
    expect(readFileSync(join(root, "inside.txt"), "utf8")).toBe("made\n");
    expect(existsSync(outside)).toBe(false);
  });

  it.skipIf(!sandbox.available)("runs Settings' shell command prefix before each command, in the sandbox, and follows a change at once", async () => {
    const root = workspace();
    const prefix = "shopt -s expand_aliases\nalias greet='echo hello from the prefix'";
    const h = await harnesses.start({ workspaceOf: () => root, settings: { toolApproval: { bash: "allow" }, shellCommandPrefix: prefix } });
    const client = await h.client("prefix");
    await waitForView(client, (v) => v.workspace?.sandboxChecking !== true);
    const outside = join(tmpdir(), `paddock-prefix-${process.pid}-${Date.now()}`);
    void client.prompt(call("p1", "bash", { command: `greet; (echo x > ${outside}) 2>/dev/null || echo still-sandboxed` })).catch(() => {});
    await settled(client, 4);
    expect(lastToolResult(h)).toBe("hello from the prefix\nstill-sandboxed\n");
    expect(existsSync(outside)).toBe(false);

    // Settings changed: the live worker's next command has the new prefix.
    await h.broker.broadcastSettings({ ...h.settings, shellCommandPrefix: "greet() { echo changed; }" });
    void client.prompt(call("p2", "bash", { command: "greet" })).catch(() => {});
    await settled(client, 8);
    expect(lastToolResult(h)).toBe("changed\n");

    // A failing command (an error result since pi 1.6.0, no longer thrown) still reaches the transcript and the model as an error.
    void client.prompt(call("p3", "bash", { command: "echo partial; exit 3" })).catch(() => {});
    await settled(client, 12);
    const failed = client.mirror.getView().state.messages.at(-2) as { role: string; isError: boolean; content: { text: string }[] };
    expect(failed).toMatchObject({ role: "toolResult", isError: true, content: [{ text: "partial\n\n\nCommand exited with code 3" }] });
    expect(lastToolResult(h)).toBe("partial\n\n\nCommand exited with code 3");
  });

  it("without a sandbox every command asks, whatever Settings say, and can only be allowed once", async () => {
    const root = workspace();
    process.env.PADDOCK_NO_SANDBOX = "1"; // read by the workers started below
    try {
      const h = await harnesses.start({ workspaceOf: () => root, settings: { toolApproval: { bash: "allow" } } });
      const client = await h.client("unsandboxed");
      await waitForView(client, (v) => v.workspace?.sandboxChecking !== true);
      expect(client.mirror.getView().workspace).toMatchObject({ sandboxed: false, sandboxProblem: expect.stringContaining("PADDOCK_NO_SANDBOX") });
      void client.prompt(call("u1", "bash", { command: "echo hi" })).catch(() => {});
      await waitForView(client, (v) => v.approvals.length > 0);
      expect(client.mirror.getView().approvals[0]).toMatchObject({ toolName: "bash", summary: "echo hi" });
      expect(client.mirror.getView().approvals[0].scope).toBeUndefined();
      await expect(client.answerApproval("u1", "chat")).rejects.toThrow(/only be allowed once/);
      await client.answerApproval("u1", "once");
      await settled(client, 4);
      expect(lastToolResult(h)).toContain("hi");
    } finally {
      delete process.env.PADDOCK_NO_SANDBOX;
    }
  });

  it("a chat whose folder was swapped for a link since it was chosen opens without tools there, and says so", async () => {
    // Another chat, working in the folder above, could do this with one command; the target could be `/`.
    const outside = workspace({ "AGENTS.md": "OUTSIDE-CONTEXT", "secret.txt": "OUTSIDE-SECRET" });
    const above = workspace();
    const root = join(above, "project");
    mkdirSync(root);
    const h = await harnesses.start({ workspaceOf: () => root });
    renameSync(root, join(above, "project-was"));
    symlinkSync(outside, root);
    const client = await h.client("swapped");
    await client.prompt(call("r1", "read", { path: "secret.txt" }));
    await settled(client, 4);
    expect(JSON.stringify(h.server.requests.map((r) => r.body))).not.toContain("OUTSIDE-");
    expect(client.mirror.getView().workspace).toMatchObject({
      folder: root,
      problem: `Refused the workspace: ${root} now leads to ${outside}. It is not the folder that was checked.`,
    });
    const tools = (h.server.requests.at(-1)!.body.tools as { function: { name: string } }[]).map((t) => t.function.name).sort();
    expect(tools).toEqual(["calculate", "wait"]);
  });

  it("a chat whose folder went missing still opens and says so, without file or shell tools", async () => {
    const root = workspace();
    rmSync(root, { recursive: true });
    const h = await harnesses.start({ workspaceOf: () => root });
    const client = await h.client("gone");
    expect(client.mirror.getView().workspace).toMatchObject({ folder: root, problem: expect.stringContaining("no longer exists") });
    await client.prompt("hello");
    await settled(client, 2);
    const tools = (h.server.requests.at(-1)!.body.tools as { function: { name: string } }[]).map((t) => t.function.name).sort();
    expect(tools).toEqual(["calculate", "wait"]);
  });
});
