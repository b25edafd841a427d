/**
 * Budgets through the core both hosts assemble, real workers and the loopback model's reported usage (issue 27 §3):
 * a run stops at a token cap with the reason journaled; a subagent's usage counts toward its parent's cap (the parent
 * stops, and the subagent with it); the month's spending at Settings' cap refuses a new run, saying where to raise it.
 * The loopback endpoint has no pricing: its cost is unknown, never "$0.00".
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Core } from "../../src/main/broker/core";
import { endpointUrl } from "../../src/main/broker/session-broker";
import { SessionClient } from "../../src/renderer/store/session-client";
import { startOpenAIServer, turnDirective, type OpenAITestServer } from "../../src/web-host/openai-test-server";
import { loadTranscript } from "../../src/shared-node/session-files/transcript-store";
import { openWebSocket, waitForView } from "../../testkit/worker-harness";
import { createLoopbackCore } from "../../testkit/loopback-core";
import { monthKey } from "../../src/shared/agent/budget";
import { MONTHLY_SPEND_FILE } from "../../src/main/broker/monthly-spend";
import { TempFolders } from "../../testkit/temp-folders";

let dir: string;
let server: OpenAITestServer;
let core: Core<never>;
const clients: SessionClient[] = [];
const folders = new TempFolders();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "paddock-budgets-"));
  // $12 spent this month already (other chats, before a restart): no cap is set until the last test.
  writeFileSync(join(dir, MONTHLY_SPEND_FILE), JSON.stringify({ version: 1, month: monthKey(new Date()), costUsd: 12 }));
  server = await startOpenAIServer({ models: ["test-model"] });
  core = await createLoopbackCore(dir, server);
});
afterAll(async () => {
  for (const c of clients) c.close();
  await core?.shutdown();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
  folders.removeAll();
});

async function chat(workspace?: string): Promise<{ id: string; client: SessionClient }> {
  const { id } = await core.service.createSession();
  if (workspace) await core.service.setWorkspace(id, workspace);
  const client = new SessionClient(id, async () => ({ transport: await openWebSocket(endpointUrl(await core.broker.attach(id, "page"))) }));
  clients.push(client);
  await client.start();
  return { id, client };
}

const settled = (client: SessionClient) => waitForView(client, (v) => !v.state.isStreaming, 30_000);
const transcript = (id: string) => loadTranscript(join(dir, "sessions", `${id}.jsonl`));
const usage = (tokens: number) => ({ prompt_tokens: tokens / 2, completion_tokens: tokens / 2 });
const calculate = (tokens: number) => ({ toolCalls: [{ name: "calculate", arguments: { expression: "1+1" } }], usage: usage(tokens) });

describe("budgets, through real workers", () => {
  it("a run stops at its token cap: the stopped reply says why, in the chat and the transcript", async () => {
    const { id, client } = await chat();
    await client.setChatOptions({ budget: { run: { tokens: 1000 } } });
    server.enqueue(calculate(400), calculate(400), calculate(400));
    const before = server.requests.length;
    await client.prompt("count");
    await settled(client);
    const stop = "Stopped at the 1k-token budget: 2 tool calls, cost unknown";
    const messages = client.mirror.getView().state.messages;
    expect(messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted", errorMessage: stop });
    expect(server.requests.length - before).toBe(3);
    // The reply that went over the cap asked for a call: it is not made (the run was stopped), and says so.
    const results = messages.filter((m) => m.role === "toolResult");
    expect(results.at(-1)).toMatchObject({ isError: true, details: { ending: "stopped" }, content: [{ text: "The run was stopped before this call was made." }] });
    expect(results.slice(-3, -1).map((m) => m.isError)).toEqual([false, false]);
    expect((await transcript(id)).messages.at(-1)).toMatchObject({ stopReason: "aborted", errorMessage: stop });
    // The page was told, and its meter shows the run's spend against the cap, cost unknown.
    expect(client.mirror.getView().notices.map((n) => n.text)).toContain(stop);
    expect(client.mirror.getView().budget?.run).toMatchObject({ caps: { tokens: 1000 }, spend: { tokens: 1200, toolCalls: 3, costUnknown: true, cost: 0 } });
  });

  it("a subagent's usage counts toward its parent's cap: the parent's run stops at it", async () => {
    const root = folders.make({ "a.txt": "a" });
    const { client } = await chat(root);
    await client.setChatOptions({ budget: { run: { tokens: 2000 } } });
    // The subagent's first turn alone (2,500 tokens) is past the parent's cap; the parent's own turn used 100.
    const childTurn = { toolCalls: [{ name: "ls", arguments: {} }], usage: usage(2500) };
    await client.prompt(turnDirective({ toolCalls: [{ id: "s1", name: "subagent", arguments: { agent: "scout", task: `Look. ${turnDirective(childTurn)}` } }], usage: usage(100) }));
    await settled(client);
    const messages = client.mirror.getView().state.messages;
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted", errorMessage: expect.stringMatching(/^Stopped at the 2k-token budget: \d+ tool calls?, cost unknown$/) });
    // The parent was never asked again after the subagent's call: the subagent's usage ended its run.
    const spend = client.mirror.getView().budget?.run?.spend;
    expect(spend?.tokens).toBeGreaterThanOrEqual(2600);
    expect(spend?.toolCalls).toBeGreaterThanOrEqual(2);
  });

  it("the month's spending at Settings' cap refuses a new run, saying where to raise it; raising it lets runs start", async () => {
    const { client } = await chat();
    await core.service.updateSettings({ budgets: { monthlyCapUsd: 10 } });
    await expect
      .poll(() => client.prompt("hello").then(() => "started", (e: Error) => e.message), { timeout: 10_000 })
      .toMatch(/This month's spending reached its \$10\.00 cap \(\$12\.00 spent across all chats\).*Settings → Budgets/);
    expect(client.mirror.getView().state.messages).toHaveLength(0);
    await core.service.updateSettings({ budgets: { monthlyCapUsd: 20 } });
    await expect.poll(() => client.prompt("hello again").then(() => "started", (e: Error) => e.message), { timeout: 10_000 }).toBe("started");
    await settled(client);
  });
});
