/**
 * A chat using an MCP server end to end, with everything real: the core both hosts assemble, the MCP host process,
 * `@modelcontextprotocol/server-everything` over stdio, an agent worker, and the loopback model asking for the calls.
 * The model sees the server's tools as `everything__<tool>` with their schemas; a call asks first (an untrusted
 * server), or runs at once (a read-only tool of a trusted server); progress streams into the tool card; Stop cancels;
 * a server killed mid-call fails that call clearly and is back for the next one.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Core } from "../../src/main/broker/core";
import { endpointUrl } from "../../src/main/broker/session-broker";
import type { McpServerConfig } from "../../src/shared/mcp/server-config";
import { SessionClient } from "../../src/renderer/store/session-client";
import { startOpenAIServer, turnDirective, type OpenAITestServer } from "../../src/web-host/openai-test-server";
import { createLoopbackCore } from "../../testkit/loopback-core";
import { EVERYTHING_BIN } from "../../testkit/mcp-everything";
import { isAlive } from "../../testkit/processes";
import { TempFolders } from "../../testkit/temp-folders";
import { openWebSocket, waitForIdle, waitForView, settled } from "../../testkit/worker-harness";

let server: OpenAITestServer;
let dir: string;
let core: Core<never>;
const clients: SessionClient[] = [];

const everything = (trusted: boolean): McpServerConfig => ({
  id: "everything",
  name: "Everything",
  enabled: true,
  trusted,
  transport: { type: "stdio", command: process.execPath, args: [EVERYTHING_BIN, "stdio"], env: {} },
});

beforeAll(async () => {
  server = await startOpenAIServer({ models: ["test-model"] });
});
afterAll(() => server.close());
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "paddock-mcp-chat-"));
  core = await createLoopbackCore(dir, server);
});
const folders = new TempFolders();
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await core.shutdown();
  rmSync(dir, { recursive: true, force: true });
  folders.removeAll();
});

/** Adds the server and waits until chats are offered its tools (the late-registered one too: tools/list_changed). */
async function addEverything(trusted: boolean): Promise<void> {
  core.mcpConfig.save(everything(trusted), {});
  await expect
    .poll(() => core.mcp!.currentTools().filter((t) => t.trusted === trusted).map((t) => t.name), { timeout: 20_000 })
    .toEqual(expect.arrayContaining(["echo", "trigger-long-running-operation", "simulate-research-query"]));
}

async function chat(workspace?: string): Promise<SessionClient> {
  const summary = await core.service.createSession();
  if (workspace) await core.service.setWorkspace(summary.id, workspace);
  const client = new SessionClient(summary.id, async () => ({ transport: await openWebSocket(endpointUrl(await core.broker.attach(summary.id, "page"))) }));
  clients.push(client);
  await client.start();
  return client;
}

const call = (id: string, tool: string, args: Record<string, unknown>) => turnDirective({ toolCalls: [{ id, name: `everything__${tool}`, arguments: args }] });
/** The tool result the model was sent last, as text. */
const lastToolResult = () => {
  const messages = server.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
  return JSON.stringify(messages.filter((m) => m.role === "tool").at(-1)?.content);
};

describe("a chat with an MCP server", () => {
  it("offers the server's tools to the model, and asks before calling one of an untrusted server", async () => {
    await addEverything(false);
    const client = await chat();
    void client.prompt(`Echo ${call("e1", "echo", { message: "hi from the model" })}`).catch(() => {});
    await waitForView(client, (v) => v.approvals.length > 0, 20_000);
    const tools = (server.requests.at(-1)!.body.tools as { function: { name: string; parameters: unknown } }[]).map((t) => t.function);
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["calculate", "everything__echo", "everything__get-sum", "everything__simulate-research-query"]));
    expect(tools.find((t) => t.name === "everything__echo")?.parameters).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
    expect(client.mirror.getView().approvals[0]).toMatchObject({ toolCallId: "e1", toolName: "everything__echo", summary: 'Everything: echo message="hi from the model"' });

    await client.answerApproval("e1", "once");
    await settled(client, 4);
    expect(lastToolResult()).toContain("Echo: hi from the model");
  });

  it("a chat already open gets a server's tools once it is ready; the chat's choice of servers and disabling take them away", async () => {
    const client = await chat();
    await addEverything(false);
    const toolsSent = async () => {
      await client.prompt("hi");
      await waitForIdle(client);
      return (server.requests.at(-1)!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    };
    await expect.poll(toolsSent, { interval: 200, timeout: 10_000 }).toContain("everything__echo");
    await client.setChatOptions({ mcpServers: [] });
    expect(await toolsSent()).not.toContain("everything__echo");
    await client.setChatOptions({});
    expect(await toolsSent()).toContain("everything__echo");
    core.mcpConfig.save({ ...everything(false), enabled: false }, {});
    await expect.poll(toolsSent, { interval: 200, timeout: 10_000 }).not.toContain("everything__echo");
  });

  it("runs a trusted server's read-only tool without asking, streams its progress, and passes images on", async () => {
    await addEverything(true);
    const client = await chat();
    const progress: string[] = [];
    const off = client.mirror.subscribe(() => {
      const partial = client.mirror.getView().toolRuns.p1?.partialResult as { content?: { text?: string }[] } | undefined;
      const text = partial?.content?.[0]?.text;
      if (text && progress.at(-1) !== text) progress.push(text);
    });
    void client.prompt(`Work ${call("p1", "trigger-long-running-operation", { duration: 1.5, steps: 3 })}`).catch(() => {});
    await settled(client, 4);
    off();
    expect(client.mirror.getView().approvals).toEqual([]);
    // (The SDK drops a last notification that arrives with the result.)
    expect(progress.slice(0, 2)).toEqual(["Progress: 1 of 3", "Progress: 2 of 3"]);
    expect(lastToolResult()).toContain("Long running operation completed");

    await client.prompt(`Picture ${call("i1", "get-tiny-image", {})}`);
    await settled(client, 8);
    const result = client.mirror.getView().state.messages[6] as { role: string; content: { type: string; mimeType?: string }[] };
    expect(result.role).toBe("toolResult");
    expect(result.content).toEqual(expect.arrayContaining([expect.objectContaining({ type: "image", mimeType: "image/png" })]));
  });

  it("Stop cancels the call in flight at the server", async () => {
    await addEverything(true);
    const client = await chat();
    void client.prompt(`Long ${call("s1", "trigger-long-running-operation", { duration: 30, steps: 60 })}`).catch(() => {});
    await waitForView(client, (v) => v.toolRuns.s1?.partialResult !== undefined, 20_000);
    const stoppedAt = Date.now();
    await client.abort();
    await waitForView(client, (v) => !v.state.isStreaming, 5_000);
    expect(Date.now() - stoppedAt).toBeLessThan(3_000);
    const result = client.mirror.getView().state.messages.find((m) => m.role === "toolResult") as { isError: boolean; content: { text: string }[] };
    expect(result).toMatchObject({ isError: true });
    expect(result.content[0].text).toMatch(/stopped|cancelled|aborted/i);
    // The server is free again at once: a cancelled call no longer occupies it.
    await client.prompt(`Again ${call("s2", "echo", { message: "after stop" })}`);
    await waitForView(client, (v) => !v.state.isStreaming);
    expect(lastToolResult()).toContain("Echo: after stop");
  });

  it("a server killed mid-call: the call fails saying so, and the server is back for the next call", async () => {
    await addEverything(true);
    const client = await chat();
    void client.prompt(`Long ${call("k1", "trigger-long-running-operation", { duration: 30, steps: 60 })}`).catch(() => {});
    await waitForView(client, (v) => v.toolRuns.k1?.partialResult !== undefined, 20_000);
    const pid = (await core.mcp!.info())!.servers[0].pid!;
    process.kill(pid, "SIGKILL");
    await settled(client, 4);
    expect(lastToolResult()).toContain('The MCP server \\"Everything\\" stopped during the call');
    await expect.poll(() => core.mcp!.status()[0], { timeout: 20_000 }).toMatchObject({ state: "ready", restarts: 1 });
    await expect.poll(() => core.mcp!.currentTools().some((t) => t.name === "get-tiny-image"), { timeout: 10_000 }).toBe(true);
    await client.prompt(`Again ${call("k2", "get-sum", { a: 40, b: 2 })}`);
    await settled(client, 8);
    expect(lastToolResult()).toContain("42");
  });

  it("an MCP host process that dies is started again, and its servers with it; disabling the last server ends it", async () => {
    await addEverything(false);
    const host = (await core.mcp!.info())!;
    process.kill(host.pid, "SIGKILL");
    await expect.poll(() => core.mcp!.status()[0].state).toBe("restarting");
    expect(core.mcp!.status()[0].error).toMatch(/MCP host process stopped/);
    expect(core.mcp!.currentTools()).toEqual([]);
    await expect.poll(() => core.mcp!.status()[0].state, { timeout: 20_000 }).toBe("ready");
    const again = (await core.mcp!.info())!;
    expect(again.pid).not.toBe(host.pid);

    core.mcpConfig.save({ ...everything(false), enabled: false }, {});
    await expect.poll(() => core.mcp!.status()).toEqual([expect.objectContaining({ id: "everything", state: "disabled" })]);
    expect(await core.mcp!.info()).toBeUndefined();
    await expect.poll(() => isAlive(again.pid) || isAlive(again.servers[0].pid!)).toBe(false);
  });

  it("pages are told each server's status, and Restart starts it afresh", async () => {
    const events: string[] = [];
    core.service.onEvent((e) => e.type === "mcp-status" && events.push(e.servers.map((s) => `${s.id}:${s.state}`).join(",")));
    await addEverything(false);
    expect(events).toContain("everything:ready");
    const before = (await core.mcp!.info())!.servers[0].pid;
    const status = await core.service.mcpRestart("everything");
    expect(status).toMatchObject({ id: "everything", state: "ready", restarts: 0 });
    expect((await core.mcp!.info())!.servers[0].pid).not.toBe(before);
    expect((await core.service.mcpStatus())[0].tools.map((t) => t.agentName)).toContain("everything__echo");
  });
});

describe("subagents and MCP tools", () => {
  /** A subagent's model requests: those whose first user message is its task (pi's `Task: <task>`, the task starting with `words`). */
  const childRequests = (words: string) =>
    server.requests.filter((r) => {
      const first = (r.body.messages as { role: string; content: unknown }[]).find((m) => m.role === "user");
      const text = typeof first?.content === "string" ? first.content : JSON.stringify(first?.content ?? "");
      return text.replace(/^\[\{"type":"text","text":"/, "").startsWith(`Task: ${words}`);
    });
  /** The tools a subagent's first model request offered. */
  const childTools = (words: string) => ((childRequests(words)[0]?.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);

  it("a subagent gets an MCP tool only when its definition lists it, and its call is asked in the parent's chat", async () => {
    await addEverything(false);
    mkdirSync(join(dir, "agents"), { recursive: true });
    writeFileSync(join(dir, "agents", "mcp-helper.md"), "---\nname: mcp-helper\ndescription: Uses the everything server\ntools: read, everything__*\n---\nUse the tools.\n");
    const client = await chat(folders.make({ "README.md": "hi" }));
    const task = `helper task ${call("m1", "echo", { message: "from the subagent" })}`;
    void client.prompt(`Delegate ${turnDirective({ toolCalls: [{ id: "s1", name: "subagent", arguments: { agent: "mcp-helper", task } }] })}`).catch(() => {});
    await waitForView(client, (v) => v.approvals.length > 0, 30_000);
    const question = client.mirror.getView().approvals[0];
    expect(question).toMatchObject({ toolName: "everything__echo", from: { agent: "mcp-helper" } });
    expect(childTools("helper task")).toEqual(expect.arrayContaining(["read", "everything__echo", "everything__get-sum"]));
    expect(childTools("helper task")).not.toContain("bash");
    await client.answerApproval(question.toolCallId, "once");
    await settled(client, 4);
    const child = childRequests("helper task").at(-1)!;
    expect(JSON.stringify(child.body.messages)).toContain("Echo: from the subagent");

    // The built-in scout lists no MCP tool: it gets none.
    await client.prompt(`Look ${turnDirective({ toolCalls: [{ id: "s2", name: "subagent", arguments: { agent: "scout", task: "scout task, nothing to do" } }] })}`);
    await waitForView(client, (v) => !v.state.isStreaming, 30_000);
    expect(childTools("scout task")).toContain("read");
    expect(childTools("scout task").some((name) => name.startsWith("everything__"))).toBe(false);
  });
});
