/**
 * Permissions that live with the project, and a sandboxed command's network question, through real workers, the
 * real bash tool and the real sandbox: "for this project" allows the exact command in every chat of the folder and
 * in no other folder; a grant removed in main is gone in a running worker at once; a command that connects to a host
 * no rule allows waits, asks in its own card (naming the program and host), and goes on when allowed.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PROJECT_GRANTS_FILE, ProjectGrants } from "../../src/main/broker/project-grants";
import { turnDirective } from "../../src/web-host/openai-test-server";
import type { SessionClient } from "../../src/renderer/store/session-client";
import { sandboxForTests } from "../../testkit/sandbox-support";
import { waitForView } from "../../testkit/worker-harness";
import { harnessPerTest } from "../../testkit/harness-per-test";

const sandbox = await sandboxForTests("the project grants' and network questions' integration tests");

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});
// Registered after the server's hook, so its own runs first (vitest runs them last in, first out): the harness's
// workers let go of the server before it closes.
const harnesses = harnessPerTest();
const folders = harnesses.folders;

const bash = (id: string, command: string) => turnDirective({ toolCalls: [{ id, name: "bash", arguments: { command } }] });
const asked = (client: SessionClient, id: string) => waitForView(client, (v) => v.approvals.some((a) => a.toolCallId === id), 20_000);
const settled = (client: SessionClient, messages: number) =>
  waitForView(client, (v) => !v.state.isStreaming && v.state.messages.length === messages, 30_000);
const resultOf = (client: SessionClient, id: string) => {
  const message = client.mirror.getView().state.messages.find((m) => m.role === "toolResult" && m.toolCallId === id);
  return message?.role === "toolResult" ? message.content.map((c) => (c.type === "text" ? c.text : "")).join("") : undefined;
};

async function grantsIn(dataDir: string): Promise<ProjectGrants> {
  return (await ProjectGrants.open(join(dataDir, PROJECT_GRANTS_FILE))).grants;
}

describe("allowed in this project", () => {
  it("covers the exact command in every chat of the folder, none in another folder, and a removal applies at once", async () => {
    const a = folders.make({ "x.txt": "x\n" });
    const b = folders.make({ "x.txt": "x\n" });
    const store = await grantsIn(folders.make());
    const h = await harnesses.start({ workspaceOf: (id) => (id.startsWith("b-") ? b : a), projectGrants: store });
    const first = await h.client("a-first");
    void first.prompt(bash("c1", "cat x.txt")).catch(() => {});
    await asked(first, "c1");
    const [question] = first.mirror.getView().approvals;
    expect(question).toMatchObject({ scope: "cat x.txt", project: "cat x.txt" });
    await first.answerApproval("c1", "project");
    await settled(first, 4);
    expect(store.of(a)).toEqual(["bash=cat x.txt"]);

    // Another chat in the same folder: runs without asking; a different command still asks.
    const second = await h.client("a-second");
    await second.prompt(bash("c2", "cat x.txt"));
    await settled(second, 4);
    expect(resultOf(second, "c2")).toContain("x");

    // A chat in another folder is asked.
    const other = await h.client("b-other");
    void other.prompt(bash("c3", "cat x.txt")).catch(() => {});
    await asked(other, "c3");
    await other.answerApproval("c3", "deny");
    await settled(other, 4);

    // Removed in main (Settings, the chip's list): the running second chat asks again at once.
    await store.remove(a, "bash=cat x.txt");
    void second.prompt(bash("c4", "cat x.txt")).catch(() => {});
    await asked(second, "c4");
    await second.answerApproval("c4", "deny");
    await settled(second, 8);
  }, 90_000);
});

describe.skipIf(!sandbox.available)("a sandboxed command's network access", () => {
  let served = 0;
  async function localServer(): Promise<number> {
    server = createServer((_request, response) => {
      served++;
      response.end("hello from the registry\n");
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", () => resolve()));
    return (server.address() as AddressInfo).port;
  }
  // Through the sandbox's proxy (its NO_PROXY would send 127.0.0.1 straight at the closed network namespace).
  const fetchCommand = (port: number) => `curl --noproxy '' -s --max-time 60 http://127.0.0.1:${port}/pkg`;

  it("waits and asks in the command's card naming the program and host; Allow once lets this run through", async () => {
    const port = await localServer();
    const workspace = folders.make();
    const h = await harnesses.start({ workspaceOf: () => workspace, projectGrants: await grantsIn(folders.make()), settings: { toolApproval: { bash: "allow" } } });
    const client = await h.client("net-once");
    void client.prompt(bash("n1", fetchCommand(port))).catch(() => {});
    await asked(client, "n1");
    const [question] = client.mirror.getView().approvals;
    expect(question).toMatchObject({ toolCallId: "n1", toolName: "network", network: true, summary: `curl wants 127.0.0.1:${port}`, project: "127.0.0.1" });
    expect(question.scope).toBeUndefined();
    await expect(client.answerApproval("n1", "chat")).rejects.toThrow(/only be allowed once/);
    await client.answerApproval("n1", "once");
    await settled(client, 4);
    expect(resultOf(client, "n1")).toContain("hello from the registry");

    // Once was this run's: the next command asks again; denied, it fails at once (not after curl's own timeout).
    const started = Date.now();
    void client.prompt(bash("n2", fetchCommand(port))).catch(() => {});
    await asked(client, "n2");
    await client.answerApproval("n2", "deny");
    await settled(client, 8);
    expect(resultOf(client, "n2")).not.toContain("hello from the registry");
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 90_000);

  it("Allow for this project keeps the host for the folder: the next command, in any chat there, is not asked", async () => {
    const port = await localServer();
    const workspace = folders.make();
    const store = await grantsIn(folders.make());
    const h = await harnesses.start({ workspaceOf: () => workspace, projectGrants: store, settings: { toolApproval: { bash: "allow" } } });
    const client = await h.client("net-project");
    void client.prompt(bash("p1", fetchCommand(port))).catch(() => {});
    await asked(client, "p1");
    await client.answerApproval("p1", "project");
    await settled(client, 4);
    expect(resultOf(client, "p1")).toContain("hello from the registry");
    expect(store.of(workspace)).toEqual(["net:127.0.0.1"]);

    const second = await h.client("net-project-2");
    await second.prompt(bash("p2", fetchCommand(port)));
    await settled(second, 4);
    expect(resultOf(second, "p2")).toContain("hello from the registry");
    expect(second.mirror.getView().approvals).toEqual([]);
  }, 90_000);

  it("a subagent's command on its parent's task asks in the parent's chat, labelled with the agent", async () => {
    const port = await localServer();
    const workspace = folders.make();
    const h = await harnesses.start({ workspaceOf: () => workspace, projectGrants: await grantsIn(folders.make()), settings: { toolApproval: { subagent: "allow", bash: "allow" } } });
    const client = await h.client("net-parent");
    const fetch = turnDirective({ toolCalls: [{ id: "b1", name: "bash", arguments: { command: fetchCommand(port) } }] });
    const task = turnDirective({ toolCalls: [{ id: "s1", name: "subagent", arguments: { agent: "worker", task: `Fetch it. ${fetch}` } }] });
    const before = served;
    void client.prompt(task).catch(() => {});
    await waitForView(client, (v) => v.approvals.some((a) => a.network), 30_000);
    const [question] = client.mirror.getView().approvals;
    expect(question).toMatchObject({ toolName: "network", network: true, from: { agent: "worker", parentToolCallId: "s1" }, summary: `worker: curl wants 127.0.0.1:${port}` });
    expect(served).toBe(before);
    await client.answerApproval(question.toolCallId, "once");
    await settled(client, 4);
    expect(served).toBe(before + 1);
  }, 90_000);
});
