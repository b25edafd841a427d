/**
 * A subagent after Paddock restarts, in Chromium against the browser host (real workers, the loopback model): the
 * parent's card still shows the run (also from a chat saved when details carried the children's messages) and its
 * nested view reads the child's own session; the child's own page is its agent's chat, with its agent's tools only,
 * and asks about its calls right there now that no parent task runs it.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium } from "../../testkit/launch-chromium";
import { privateBuildCopy, startWebHostProcess, type WebHostProcess } from "../../testkit/web-host-process";
import { openChat, poll, replies, send, shot, SCREENS } from "../../testkit/chat-page";
import { TempFolders } from "../../testkit/temp-folders";
import { startOpenAIServer, turnDirective as turn, type OpenAITestServer } from "../../src/web-host/openai-test-server";

let browser: Browser;
let build: ReturnType<typeof privateBuildCopy>;
let server: OpenAITestServer;
const temp = new TempFolders("paddock-e2e-subrestart-");

beforeAll(async () => {
  mkdirSync(SCREENS, { recursive: true });
  build = privateBuildCopy();
  browser = await launchChromium();
  server = await startOpenAIServer();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  build?.remove();
  temp.removeAll();
});

const startHost = (dataDir: string) => startWebHostProcess(["--build-dir", build.dir, "--integrity-check", "--data-dir", dataDir, "--loopback-url", server.baseUrl]);

/** The tools of the last model request whose last user message says `words`. */
function toolsAsked(words: string): string[] {
  const request = [...server.requests].reverse().find((r) => {
    const user = [...(r.body.messages as { role: string; content: unknown }[])].reverse().find((m) => m.role === "user");
    return JSON.stringify(user?.content ?? "").includes(words);
  });
  if (!request) throw new Error(`no request saying "${words}"`);
  return ((request.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name).sort();
}

/**
 * Makes the chat's saved `subagent` result look as chats saved before this change do: each run's messages copied
 * into the details.
 */
function addLegacyMessages(transcript: string): void {
  const lines = readFileSync(transcript, "utf8").split("\n").map((line) => {
    if (!line.includes('"toolResult"') || !line.includes('"runs"')) return line;
    const record = JSON.parse(line) as { message?: { details?: { runs?: Record<string, unknown>[] } } };
    for (const run of record.message?.details?.runs ?? []) run.messages = [{ role: "user", content: "Task: (an old copy)", timestamp: 1 }];
    return JSON.stringify(record);
  });
  writeFileSync(transcript, lines.join("\n"));
}

describe("a subagent after a restart", () => {
  it("shows in its parent's card from its own session, and opens as its agent, asking in its own page", async () => {
    const dataDir = temp.make({});
    const folder = temp.make({ "notes.txt": "the zebra is in the second drawer\n" });
    let host: WebHostProcess = await startHost(dataDir);
    let parentId: string;
    try {
      const { page, sessionId, problems } = await openChat(browser, host);
      parentId = sessionId;
      await host.call("setWorkspace", sessionId, folder);
      const read = turn({ toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] });
      await send(page, `Ask a scout ${turn({ toolCalls: [{ name: "subagent", arguments: { agent: "scout", task: `Find the zebra. ${read}` } }] })}`);
      await replies(page, 2);
      expect(toolsAsked("Task: Find the zebra.")).toEqual(["bash", "find", "grep", "ls", "read"]);
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await host.stop();
    }

    const index = JSON.parse(readFileSync(join(dataDir, "sessions", "index.json"), "utf8")) as { sessions: { id: string; parent?: unknown }[] };
    const childId = index.sessions.find((s) => s.parent)!.id;
    addLegacyMessages(join(dataDir, "sessions", `${parentId}.jsonl`));

    host = await startHost(dataDir);
    try {
      // The parent's card: the run as it ended, and its transcript read from the child's session.
      const parent = await openChat(browser, host, parentId);
      const card = parent.page.getByTestId("tool-card");
      // A subagent card stays open when its run ends (as the user left it).
      const row = card.getByTestId("subagent");
      await poll(() => row.getAttribute("data-status")).toBe("completed");
      await row.getByTestId("subagent-watch").click();
      const nested = row.getByTestId("subagent-transcript");
      await poll(() => nested.getByTestId("message-assistant").count()).toBe(2);
      expect(await nested.textContent()).not.toContain("an old copy");
      await shot(parent.page, "subagent-restart-parent-card");
      expect(parent.problems).toEqual([]);
      await parent.page.close();

      // The child's own page: its agent's chat; what the user asks here is asked about here.
      const child = await openChat(browser, host, childId);
      await poll(() => child.page.getByTestId("message-assistant").count()).toBe(2);
      await send(child.page, `Look again ${turn({ toolCalls: [{ name: "bash", arguments: { command: "echo again" } }] })}`);
      const question = child.page.getByTestId("approval");
      await poll(() => question.count()).toBe(1);
      expect(await question.textContent()).toContain("echo again");
      expect(toolsAsked("Look again")).toEqual(["bash", "find", "grep", "ls", "read"]);
      await shot(child.page, "subagent-restart-own-page");
      await child.page.getByTestId("approval-once").click();
      await replies(child.page, 4);
      expect(child.problems).toEqual([]);
      await child.page.close();
    } finally {
      await host.stop();
    }
  }, 120_000);
});
