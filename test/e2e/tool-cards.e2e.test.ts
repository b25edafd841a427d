/**
 * Tool cards that keep what their calls did (issue 25), in Chromium against the browser host with real workers, the
 * loopback model scripting the calls, a real MCP server: a finished edit's diff folded to "+2 −1 src/csv.ts"; a
 * command's exit code, duration and last lines; failed, stopped and denied told apart; a long output saying what it
 * shows, its full output opened; an MCP tool's image shown; a subagent card counting its tasks, keeping a Watch view
 * and each child's answer as markdown when the run ends; a subagent's own window saying whose it is. Screenshots
 * under test-results/screens/tool-cards-*.png.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Locator } from "playwright-core";
import { turnDirective as turn } from "../../src/web-host/openai-test-server";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, replies, send, shot } from "../../testkit/chat-page";
import { sandboxForTests } from "../../testkit/sandbox-support";
import { REPO_ROOT } from "../../testkit/web-host-process";

/** Outside a sandbox every command asks; these checks answer only the questions they mean to. */
const sandbox = await sandboxForTests("the tool cards' browser checks");

let rig: E2eRig;
const folders: string[] = [];

beforeAll(async () => {
  if (!sandbox.available) return;
  rig = await startE2eRig("tool-cards");
  await rig.host.call("updateSettings", { tools: { approval: { bash: "allow", write: "allow", edit: "allow" } } });
}, 120_000);

afterAll(async () => {
  await rig?.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const CSV = ["export function parse(text: string) {", "  return text.split(\"\\n\");", "}", ""].join("\n");

function workspace(): string {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), "paddock-e2e-cards-")));
  folders.push(folder);
  mkdirSync(join(folder, "src"));
  writeFileSync(join(folder, "src", "csv.ts"), CSV);
  return folder;
}

async function chatIn(folder: string) {
  const chat = await openChat(rig.browser, rig.host);
  await rig.host.call("setWorkspace", chat.sessionId, folder);
  await poll(() => chat.page.getByTestId("workspace-button").textContent()).toContain(basename(folder));
  return chat;
}

const status = (card: Locator) => card.getAttribute("data-status");

describe.skipIf(!sandbox.available)("tool cards with real workers", () => {
  it("a finished edit keeps its diff folded, a command its exit code, duration and last lines; failed, stopped and denied differ", async () => {
    const folder = workspace();
    const { page, problems } = await chatIn(folder);
    const edit = { path: "src/csv.ts", edits: [{ oldText: '  return text.split("\\n");', newText: '  const rows = text.split("\\n");\n  return rows.filter(Boolean);' }] };
    await send(page, `Fix it ${turn({ toolCalls: [{ name: "edit", arguments: edit }, { name: "bash", arguments: { command: "sleep 0.3; printf 'one\\ntwo\\nthree\\nfour\\n'" } }] })}`);
    await replies(page, 2);
    const cards = page.getByTestId("tool-card");
    const [editCard, commandCard] = [cards.nth(0), cards.nth(1)];
    expect(await status(editCard)).toBe("done");
    // The diff stays, folded to its counts and path; the card's arguments are folded too.
    const fold = editCard.getByTestId("tool-diff-fold");
    expect((await fold.locator("summary").textContent())?.replace(/\s+/g, " ").trim()).toBe("+2 \u22121 src/csv.ts");
    expect(await fold.getAttribute("open")).toBe(null);
    expect(await editCard.getByTestId("diff").isVisible()).toBe(false);
    // The command: exit code, how long it ran, its last three lines, while the card stays folded.
    expect(await status(commandCard)).toBe("done");
    const facts = (await commandCard.getByTestId("command-facts").textContent()) ?? "";
    expect(facts).toMatch(/^exit 0 \u00b7 \d\.\d s$/);
    expect(Number(facts.match(/(\d\.\d) s/)?.[1])).toBeGreaterThanOrEqual(0.3);
    expect(await commandCard.getByTestId("tool-tail").textContent()).toBe("two\nthree\nfour");
    await shot(page, "tool-cards-folded");
    await fold.locator("summary").click();
    await editCard.getByTestId("diff").waitFor();
    expect(await editCard.locator(".diff-add").allTextContents()).toEqual(['+  const rows = text.split("\\n");\n', "+  return rows.filter(Boolean);\n"]);
    // Unfolded, the command's card shows its whole output, the arguments still behind their disclosure.
    await commandCard.locator(".tool-header").click();
    expect(await commandCard.getByTestId("tool-output").textContent()).toBe("one\ntwo\nthree\nfour\n");
    expect(await commandCard.getByTestId("tool-args-fold").getAttribute("open")).toBe(null);
    expect(await commandCard.getByTestId("tool-args").isVisible()).toBe(false);
    await shot(page, "tool-cards-diff-open");

    // Failed: the exit code, in the danger colour.
    await send(page, `Break it ${turn({ toolCalls: [{ name: "bash", arguments: { command: "echo oops >&2; exit 2" } }] })}`);
    await replies(page, 4);
    const failed = cards.nth(2);
    expect(await status(failed)).toBe("failed");
    expect(await failed.getByTestId("tool-status").textContent()).toBe("\u2715failed");
    expect(await failed.getByTestId("command-facts").textContent()).toMatch(/^exit 2/);
    expect(await failed.getByTestId("tool-output").textContent()).toBe("oops\n");

    // Stopped by the user: "stopped", not "error", with what it printed so far.
    await send(page, `Wait ${turn({ toolCalls: [{ name: "bash", arguments: { command: "echo started; sleep 30" } }] })}`);
    const stopped = cards.nth(3);
    await poll(() => stopped.getByTestId("tool-output").textContent()).toContain("started");
    await page.getByTestId("stop-button").click();
    await poll(() => status(stopped)).toBe("stopped");
    expect(await stopped.getByTestId("tool-status").textContent()).toBe("\u25a0stopped");
    expect(await stopped.getByTestId("tool-output").textContent()).toBe("started\n");
    expect(await stopped.getByTestId("command-facts").textContent()).toMatch(/^\d+\.\d s$/); // no exit code: it was killed
    await page.getByTestId("send-button").waitFor();

    // Denied by the user: its own word and colour.
    await rig.host.call("updateSettings", { tools: { approval: { write: "ask" } } });
    try {
      await send(page, `Write ${turn({ toolCalls: [{ name: "write", arguments: { path: "NOTES.md", content: "# Notes\n" } }] })}`);
      await page.getByTestId("approval").waitFor();
      await poll(() => page.getByTestId("approval-once").getAttribute("aria-disabled")).toBe(null);
      await page.getByTestId("approval-deny").click();
      await page.getByTestId("approval-deny-send").click();
      const denied = cards.nth(4);
      await poll(() => status(denied)).toBe("denied");
      expect(await denied.getByTestId("tool-status").textContent()).toBe("\u2298denied");
      await poll(() => page.locator("[data-testid=message-assistant] .message-footer").count()).toBeGreaterThanOrEqual(6);
      await page.getByTestId("send-button").waitFor();
    } finally {
      await rig.host.call("updateSettings", { tools: { approval: { write: "allow" } } });
    }
    await page.setViewportSize({ width: 1100, height: 1500 }); // the three ended cards at once
    await cards.nth(2).evaluate((el) => el.scrollIntoView({ block: "start" }));
    await shot(page, "tool-cards-failed-stopped-denied");
    // Each ended state has its own colour.
    const colours = await Promise.all([2, 3, 4].map((i) => cards.nth(i).getByTestId("tool-status").evaluate((el) => getComputedStyle(el).color)));
    expect(new Set(colours).size).toBe(3);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it("a long output says what it shows, and its full output opens", async () => {
    const folder = workspace();
    const { page, problems } = await chatIn(folder);
    await send(page, `Count ${turn({ toolCalls: [{ name: "bash", arguments: { command: "seq 1 3001" } }] })}`);
    await replies(page, 2);
    const card = page.getByTestId("tool-card");
    expect(await card.getByTestId("command-facts").textContent()).toContain("last 2,000 of 3,001 lines");
    expect(await card.getByTestId("tool-tail").textContent()).toBe("2999\n3000\n3001");
    await card.locator(".tool-header").click();
    expect(await card.getByTestId("tool-output-shown").textContent()).toBe("Showing the last 2,000 of 3,001 lines");
    const output = (await card.getByTestId("tool-output").textContent()) ?? "";
    expect(output.startsWith("1002\n")).toBe(true);
    expect(output).not.toContain("Full output:"); // the card says it at the top, and opens the file
    await shot(page, "tool-cards-long-output");

    await card.getByTestId("tool-open-output").click();
    const dialog = page.getByTestId("tool-output-dialog");
    await dialog.getByTestId("tool-output-full").waitFor();
    const full = (await dialog.getByTestId("tool-output-full").textContent()) ?? "";
    expect(full).toBe(`${Array.from({ length: 3001 }, (_, i) => i + 1).join("\n")}\n`);
    expect(await dialog.getByTestId("tool-output-dialog-about").textContent()).toMatch(/^All 3,001 lines \(13\.\d KB\), saved in .*bash-output/);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("tool-output-close");
    await shot(page, "tool-cards-full-output");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("an MCP tool's image shows as an image", async () => {
    const everything = resolve(REPO_ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    await rig.host.call("saveMcpServer", { id: "everything", name: "Everything", enabled: true, trusted: true, transport: { type: "stdio", command: process.execPath, args: [everything, "stdio"], env: {} } }, {});
    expect(await rig.host.call<{ state: string }>("mcpRestart", "everything")).toMatchObject({ state: "ready" });
    const { page, problems } = await openChat(rig.browser, rig.host);
    await send(page, `Show me ${turn({ toolCalls: [{ name: "everything__get-tiny-image", arguments: {} }] })}`);
    await replies(page, 2);
    const card = page.getByTestId("tool-card");
    expect(await status(card)).toBe("done");
    const image = card.getByTestId("tool-image");
    await poll(() => image.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    expect(await image.getAttribute("src")).toMatch(/^data:image\/png;base64,iVBOR/);
    expect((await image.boundingBox())?.width).toBeGreaterThan(10);
    await shot(page, "tool-cards-mcp-image");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("a subagent card counts its tasks, keeps a Watch view and each answer as markdown; a subagent's window says whose it is", async () => {
    const folder = workspace();
    const { page, problems } = await chatIn(folder);
    const answer = (who: string) => turn({ text: `## ${who} found\n\n- **csv.ts** splits rows\n- nothing else\n`, tokensPerSecond: 30 });
    const tasks = [
      { agent: "scout", task: `Map the parser ${answer("Scout one")}` },
      { agent: "planner", task: `Plan the fix ${answer("Planner")}` },
      { agent: "scout", task: `Map the tests ${answer("Scout two")}` },
      { agent: "reviewer", task: `Review it ${answer("Reviewer")}` },
    ];
    await send(page, `Split it ${turn({ toolCalls: [{ name: "subagent", arguments: { tasks } }] })}`);
    const card = page.getByTestId("tool-card");
    expect(await card.locator(".tool-summary").textContent()).toBe("4 tasks: scout \u00d72, planner, reviewer");
    const rows = card.getByTestId("subagent");
    await poll(() => rows.count()).toBe(4);
    await poll(() => rows.nth(0).getByTestId("subagent-watch").count()).toBe(1);
    await rows.nth(0).getByTestId("subagent-watch").click();
    await rows.nth(0).getByTestId("subagent-transcript").waitFor();
    await replies(page, 2);
    expect(await status(card)).toBe("done");
    // The run ended: the card is still open, the Watch view where the user left it, each answer as markdown.
    expect(await card.locator(".tool-header").getAttribute("aria-expanded")).toBe("true");
    await poll(() => rows.nth(0).getByTestId("subagent-transcript").getByTestId("message-assistant").count()).toBe(1);
    expect(await rows.nth(0).getByTestId("subagent-watch").textContent()).toBe("Hide");
    const outputs = card.getByTestId("subagent-output");
    await poll(() => outputs.count()).toBe(4);
    expect(await outputs.nth(1).locator("h2").textContent()).toBe("Planner found");
    expect(await outputs.nth(1).locator("li strong").textContent()).toBe("csv.ts");
    await page.setViewportSize({ width: 1100, height: 1500 });
    await card.evaluate((el) => el.scrollIntoView({ block: "start" }));
    await shot(page, "tool-cards-subagents-kept");
    // What the model was told of the tasks stays folded under their answers.
    expect(await card.getByTestId("tool-result-fold").getAttribute("open")).toBe(null);

    // A subagent in its own window: whose it is, a way back, and that its messages stay there.
    const [own] = await Promise.all([page.context().waitForEvent("page"), rows.nth(1).getByTestId("subagent-open").click()]);
    const banner = own.getByTestId("subagent-banner");
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/A planner subagent of “Split it[^”]*”\. Messages you send here go to this subagent only; they do not reach the parent chat\./);
    await shot(own, "tool-cards-subagent-window");
    await own.getByTestId("subagent-parent-link").click();
    await poll(() => own.getByTestId("subagent-banner").count()).toBe(0);
    await poll(() => own.locator(".chat-title").textContent()).toMatch(/^Split it/);
    await own.close();
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
