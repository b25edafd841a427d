/**
 * A chat saved by a newer version of Paddock, opened in this one (transcript-format.ts): the page says so in words and
 * the transcript stays byte for byte as it was; the other chats work as ever.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium } from "../../testkit/launch-chromium";
import { privateBuildCopy, startWebHostProcess, type WebHostProcess } from "../../testkit/web-host-process";
import { openChat, poll, replies, SCREENS, send, shot } from "../../testkit/chat-page";
import { TRANSCRIPT_FORMAT } from "../../src/shared-node/session-files/transcript-format";

let browser: Browser;
let build: ReturnType<typeof privateBuildCopy>;
let host: WebHostProcess;
let dataDir: string;

beforeAll(async () => {
  mkdirSync(SCREENS, { recursive: true });
  build = privateBuildCopy();
  browser = await launchChromium();
  dataDir = mkdtempSync(join(tmpdir(), "paddock-e2e-format-"));
  host = await startWebHostProcess(["--build-dir", build.dir, "--integrity-check", "--data-dir", dataDir, "--openai-test-server"]);
});

afterAll(async () => {
  await host?.stop();
  await browser?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  build?.remove();
});

describe("a chat from a newer version of Paddock", () => {
  it("says so when opened and is left as it was; a chat of this version still works", async () => {
    const { id } = await host.call<{ id: string }>("createSession");
    const file = join(dataDir, "sessions", `${id}.jsonl`);
    const newer = [
      JSON.stringify({ t: "meta", v: TRANSCRIPT_FORMAT + 1, title: "From the future" }),
      JSON.stringify({ t: "message", message: { role: "user", content: "hello from a newer Paddock", timestamp: 1 } }),
    ].join("\n") + "\n";
    writeFileSync(file, newer);
    const page = await browser.newPage({ viewport: { width: 1100, height: 720 }, colorScheme: "light" });
    await page.goto(host.pageUrl(id));
    const refusal = page.getByText(/^Could not open this chat: This chat was saved by a newer version of Paddock \(transcript format \d+ at line 1; this version reads up to \d+\)\. Update Paddock to open it; the file is left as it is\.$/);
    await refusal.waitFor();
    await poll(() => page.getByTestId("composer").getAttribute("placeholder")).toBe("Disconnected from the agent — reopen the chat");
    await shot(page, "newer-transcript");
    expect(readFileSync(file, "utf8")).toBe(newer);
    await page.close();

    const chat = await openChat(browser, host);
    await send(chat.page, "Are you there?");
    await replies(chat.page, 1);
    await poll(() => chat.page.getByTestId("message-assistant").count()).toBe(1);
    await chat.page.close();
  }, 90_000);
});
