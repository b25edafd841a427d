/**
 * Permission profiles (issue 27 §2) enforced in real workers (child_process.fork, the loopback model, the real tools
 * and sandbox): under Read-only a write is refused without a question, the model told why, nothing written; under
 * Edits allowed a write runs without an approval while a command still asks; Settings' default applies to a chat that
 * chose none; a Read-only command runs with the workspace read-only; each change is on record in the transcript.
 */
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { waitForView, type Harness, toolCallTurn as call, repliedAndIdle as idle, asked } from "../../testkit/worker-harness";
import { harnessPerTest } from "../../testkit/harness-per-test";
import { turnDirective } from "../../src/web-host/openai-test-server";
import type { SessionClient } from "../../src/renderer/store/session-client";
import { sandboxForTests } from "../../testkit/sandbox-support";
import { transcriptFileIn } from "../../src/shared-node/session-files/session-folder";

const sandbox = await sandboxForTests("the Read-only profile's commands");

const harnesses = harnessPerTest();
const folders = harnesses.folders;

const lastToolResult = (harness: Harness) => {
  const messages = harness.server.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
  return JSON.stringify(messages.filter((m) => m.role === "tool").at(-1)?.content);
};
const markers = (client: SessionClient) =>
  client.mirror.getView().state.messages.filter((m) => m.role === "permissionProfile").map((m) => (m as { profile: string }).profile);

describe("permission profiles in the worker", () => {
  it("Read-only refuses a write without asking, telling the model why; the transcript records the profile", async () => {
    const root = folders.make({ "notes.txt": "alpha\n" });
    const h = await harnesses.start({ workspaceOf: () => root, settings: { toolApproval: { write: "allow", read: "allow" } } });
    const client = await h.client("read-only");
    await client.setChatOptions({ profile: "read-only" });
    const seen: number[] = [];
    const off = client.mirror.subscribe?.(() => seen.push(client.mirror.getView().approvals.length));
    await client.prompt(`Write it ${call("w1", "write", { path: "out.txt", content: "x\n" })}`);
    await idle(client);
    off?.();
    expect(existsSync(join(root, "out.txt"))).toBe(false); // Settings allow writes; the profile does not
    expect(Math.max(0, ...seen)).toBe(0); // never asked
    expect(lastToolResult(h)).toContain("This chat is Read-only: Writing and editing files are not allowed");
    expect(markers(client)).toEqual(["read-only"]);

    // Reading still runs; the same profile adds no second marker.
    await client.prompt(`Read it ${call("r1", "read", { path: "notes.txt" })}`);
    await idle(client);
    expect(lastToolResult(h)).toContain("alpha");
    expect(markers(client)).toEqual(["read-only"]);
    // On disk too: the session file holds the marker.
    const transcript = readFileSync(transcriptFileIn(join(h.dataDir, "sessions"), "read-only"), "utf8");
    expect(transcript).toContain('"role":"permissionProfile","profile":"read-only"');
  });

  it("Edits allowed runs a write with no approval, while a command still asks; back to Ask, a write asks again", async () => {
    const root = folders.make({});
    const h = await harnesses.start({ workspaceOf: () => root });
    const client = await h.client("edits");
    await client.setChatOptions({ profile: "edits" });
    await client.prompt(`Write ${call("w1", "write", { path: "a.txt", content: "a\n" })}`);
    await idle(client);
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("a\n");
    expect(markers(client)).toEqual(["edits"]);

    void client.prompt(`Run ${call("b1", "bash", { command: "ls" })}`).catch(() => {});
    await asked(client);
    expect(client.mirror.getView().approvals[0].toolName).toBe("bash");
    await client.answerApproval("b1", "deny");
    await idle(client);

    await client.setChatOptions({});
    void client.prompt(`Write again ${call("w2", "write", { path: "b.txt", content: "b\n" })}`).catch(() => {});
    await asked(client);
    expect(client.mirror.getView().approvals[0].toolName).toBe("write");
    await client.answerApproval("w2", "deny");
    await idle(client);
    expect(existsSync(join(root, "b.txt"))).toBe(false);
    expect(markers(client)).toEqual(["edits", "ask"]);
  });

  it("a chat that chose none runs under Settings' default", async () => {
    const root = folders.make({});
    const h = await harnesses.start({ workspaceOf: () => root, settings: { defaultProfile: "edits" } });
    const client = await h.client("default");
    await client.prompt(`Write ${call("w1", "write", { path: "d.txt", content: "d\n" })}`);
    await idle(client);
    expect(readFileSync(join(root, "d.txt"), "utf8")).toBe("d\n");
  });

  it("a subagent never runs wider than its parent: under Read-only its write is refused unasked; under Edits allowed it runs unasked", async () => {
    const root = folders.make({});
    const h = await harnesses.start({ workspaceOf: () => root });
    const client = await h.client("parent");
    const seen: number[] = [];
    const off = client.mirror.subscribe(() => seen.push(client.mirror.getView().approvals.length));
    const delegate = (id: string, path: string) =>
      call(id, "subagent", { agent: "worker", task: `Write ${path}. ${turnDirective({ toolCalls: [{ name: "write", arguments: { path, content: "sub\n" } }] })}` });

    await client.setChatOptions({ profile: "read-only" });
    await client.prompt(delegate("s1", "ro.txt"));
    await idle(client);
    expect(existsSync(join(root, "ro.txt"))).toBe(false);
    const childSaw = h.server.requests.map((r) => JSON.stringify(r.body.messages)).filter((m) => m.includes("This chat is Read-only"));
    expect(childSaw.length).toBeGreaterThan(0); // the subagent's model was told why

    await client.setChatOptions({ profile: "edits" });
    await client.prompt(delegate("s2", "rw.txt"));
    await idle(client);
    off();
    expect(readFileSync(join(root, "rw.txt"), "utf8")).toBe("sub\n");
    expect(Math.max(0, ...seen)).toBe(0); // neither was asked in the parent's chat
  });

  it.skipIf(!sandbox.available)("Read-only runs a command in the sandbox with the workspace read-only: it reads, it cannot write", async () => {
    const root = folders.make({ "notes.txt": "alpha\n" });
    const h = await harnesses.start({ workspaceOf: () => root, settings: { toolApproval: { bash: "allow" } } });
    const client = await h.client("read-only-bash");
    await waitForView(client, (v) => v.workspace?.sandboxChecking !== true && v.workspace !== undefined);
    await client.setChatOptions({ profile: "read-only" });
    await client.prompt(`Look ${call("b1", "bash", { command: "cat notes.txt; echo x > made.txt; echo exit=$?" })}`);
    await idle(client);
    const output = lastToolResult(h);
    expect(output).toContain("alpha");
    expect(output).toMatch(/exit=1/);
    expect(existsSync(join(root, "made.txt"))).toBe(false);
  });
});
