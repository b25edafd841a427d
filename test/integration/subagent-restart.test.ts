/**
 * A subagent after the app restarts, over the core both hosts assemble (`createCore`) and real workers: its launch is
 * kept in main's session index, so a new core over the same data folder opens the child as that subagent (its
 * agent's tools and instructions, never `subagent`), with its questions asked in its own window now that no parent
 * task runs it. And what the parent keeps of a run: the outcome, not the child's messages.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Core } from "../../src/main/broker/core";
import { endpointUrl } from "../../src/main/broker/session-broker";
import type { SubagentDetails } from "../../src/shared/protocol/subagent-details";
import { SessionClient } from "../../src/renderer/store/session-client";
import { startOpenAIServer, turnDirective, type OpenAITestServer, type ScriptedTurn } from "../../src/web-host/openai-test-server";
import { createLoopbackCore } from "../../testkit/loopback-core";
import { openWebSocket, waitForView } from "../../testkit/worker-harness";

let dir: string;
let root: string;
let server: OpenAITestServer;
let core: Core<never> | undefined;
const clients: SessionClient[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "paddock-subrestart-"));
  root = mkdtempSync(join(tmpdir(), "paddock-subrestart-ws-"));
  writeFileSync(join(root, "notes.txt"), "the zebra is in the second drawer\n");
  server = await startOpenAIServer({ models: ["test-model"] });
});
afterEach(async () => {
  await closeCore();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});

async function closeCore(): Promise<void> {
  for (const c of clients) c.close();
  clients.length = 0;
  await core?.shutdown();
  core = undefined;
}

/** A new core over the data folder: the app started again. */
async function startCore(): Promise<Core<never>> {
  core = await createLoopbackCore(dir, server);
  return core;
}

async function view(c: Core<never>, sessionId: string, viewerId: string): Promise<SessionClient> {
  const client = new SessionClient(sessionId, async () => ({ transport: await openWebSocket(endpointUrl(await c.broker.attach(sessionId, viewerId))) }));
  clients.push(client);
  await client.start();
  return client;
}

const settled = (client: SessionClient, messages: number) =>
  waitForView(client, (v) => !v.state.isStreaming && v.state.messages.length === messages, 30_000);

/** The tool names and the system prompt of the last model request whose last user message contains `words`. */
function lastRequest(words: string): { tools: string[]; system: string } {
  const lastUser = (body: { messages: { role: string; content: unknown }[] }) => [...body.messages].reverse().find((m) => m.role === "user");
  const request = [...server.requests].reverse().find((r) => JSON.stringify(lastUser(r.body as never)?.content ?? "").includes(words));
  if (!request) throw new Error(`no request with "${words}"`);
  const tools = ((request.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name).sort();
  const system = (request.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === "system" || m.role === "developer").map((m) => JSON.stringify(m.content)).join("\n");
  return { tools, system };
}

/** Runs a scout that reads notes.txt in a chat with `root` as its workspace; returns the chat's and the child's ids. */
async function runScout(c: Core<never>): Promise<{ parentId: string; childId: string; details: SubagentDetails }> {
  const chat = await c.service.createSession();
  await c.service.setWorkspace(chat.id, root);
  const parent = await view(c, chat.id, "window-1");
  const read: ScriptedTurn = { toolCalls: [{ id: "r1", name: "read", arguments: { path: "notes.txt" } }] };
  const call = { toolCalls: [{ id: "s1", name: "subagent", arguments: { agent: "scout", task: `Find the zebra. ${turnDirective(read)}` } }] };
  await parent.prompt(turnDirective(call));
  await settled(parent, 4);
  const result = parent.mirror.getView().state.messages.find((m) => m.role === "toolResult");
  const details = (result as { details?: SubagentDetails }).details!;
  return { parentId: chat.id, childId: details.runs[0].sessionId!, details };
}

describe("a subagent's result in its parent", () => {
  it("keeps the child's session, final text, usage and status, not its messages: the parent's transcript stays small", async () => {
    const c = await startCore();
    const { parentId, childId, details } = await runScout(c);
    const [run] = details.runs;
    expect(run).toMatchObject({ agent: "scout", status: "completed", output: "Received 1 tool result.", sessionId: childId });
    expect(run.usage.turns).toBe(2);
    expect(run).not.toHaveProperty("messages");
    expect(JSON.stringify(details).length).toBeLessThan(1_500);
    // What the child read is journaled in its own session only.
    await c.index.flush();
    const parentFile = readFileSync(c.broker.transcriptFile(parentId), "utf8");
    const childFile = readFileSync(c.broker.transcriptFile(childId), "utf8");
    expect(childFile).toContain("the zebra is in the second drawer");
    expect(parentFile).not.toContain("the zebra is in the second drawer");
  });
});

describe("a subagent after a restart", () => {
  it("opens as its agent: its tools only (no `subagent`), its instructions, and questions asked in its own window", async () => {
    const first = await startCore();
    const { parentId, childId } = await runScout(first);
    const ran = lastRequest("Task: Find the zebra.");
    expect(ran.tools).toEqual(["bash", "find", "grep", "ls", "read"]);
    await closeCore();

    const c = await startCore();
    expect(c.index.get(childId)).toMatchObject({ parent: { sessionId: parentId, toolCallId: "s1", agent: "scout" } });
    expect(c.index.list().map((s) => s.id)).toEqual([parentId]); // still not in the sidebar
    const attached = await c.broker.attach(childId, "window-2");
    expect(attached.problems).toEqual([]);
    const child = await view(c, childId, "window-2");
    expect(child.mirror.getView().state.messages.length).toBe(4); // its task, read, result, answer
    const bash: ScriptedTurn = { toolCalls: [{ id: "b1", name: "bash", arguments: { command: "echo again > again.txt" } }] };
    void child.prompt(`Look again. ${turnDirective(bash)}`).catch(() => {});
    // No parent task runs it now: the user who typed here is asked here, not in the parent's chat.
    await waitForView(child, (v) => v.approvals.length > 0, 20_000);
    const [question] = child.mirror.getView().approvals;
    expect(question).toMatchObject({ toolName: "bash" });
    expect(question.from).toBeUndefined();
    const after = lastRequest("Look again.");
    expect(after.tools).toEqual(ran.tools);
    expect(after.system).toContain("You are a scout.");
    expect(after.system).toBe(ran.system);
    await child.answerApproval(question.toolCallId, "deny");
    await settled(child, 8);
    c.broker.detach(childId, "window-2");
  });

  it("whose launch record is damaged opens with no tools and no instructions, and says so", async () => {
    const first = await startCore();
    const { childId } = await runScout(first);
    await closeCore();
    const indexFile = join(dir, "sessions", "index.json");
    const index = JSON.parse(readFileSync(indexFile, "utf8")) as { sessions: { id: string; launch?: unknown }[] };
    index.sessions.find((s) => s.id === childId)!.launch = { version: 1, instructions: "x", tools: "*" };
    writeFileSync(indexFile, JSON.stringify(index));

    const c = await startCore();
    expect(c.index.get(childId)?.parent?.agent).toBe("scout"); // the entry is kept
    const attached = await c.broker.attach(childId, "window-2");
    expect(attached.problems).toContain("This scout subagent's set-up is damaged, so it opens without its instructions and without any tools.");
    const child = await view(c, childId, "window-2");
    await child.prompt("Anything else?");
    await settled(child, 6);
    const after = lastRequest("Anything else?");
    expect(after.tools).toEqual([]);
    expect(after.system).not.toContain("You are a scout.");
    c.broker.detach(childId, "window-2");
  });
});
