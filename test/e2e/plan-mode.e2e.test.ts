/**
 * Plan mode (issue 27 §1) as a user meets it: the web host, real workers and tools, the built page in Chromium.
 * Shift+Tab in the composer cycles the chat's act profile → Plan (this message) → Plan mode → back (the chip beside the
 * box and the header's picker say which); a planning run's write is refused; its reply waits in a plan card whose
 * three buttons work from the keyboard: Keep planning (the focus back in the composer), Edit plan (edited in place) and
 * Approve and run (back to the act profile, the plan sent quoted, the next run writes). One message sent in Plan: its
 * run only reads, its plan card shows (and again after a reload), and the chat and the chip are back in the act
 * profile. Screenshots: test-results/screens/plan-mode-chip.png, plan-card.png, plan-mode-briefing.png,
 * plan-card-editing.png, plan-approved.png, plan-once-chip.png, plan-once-card.png, plan-once-reloaded.png,
 * plan-once-approved.png.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { turnDirective as turn } from "../../src/web-host/openai-test-server";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, replies, send, shot } from "../../testkit/chat-page";
import { expectAccessible } from "../../testkit/axe";

let rig: E2eRig;
let folder: string;

beforeAll(async () => {
  rig = await startE2eRig("plan-mode");
  folder = realpathSync(mkdtempSync(join(tmpdir(), "paddock-e2e-plan-")));
}, 120_000);

afterAll(async () => {
  await rig?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const write = (path: string, content = "hello\n") => turn({ toolCalls: [{ name: "write", arguments: { path, content } }] });
const focused = (page: import("playwright-core").Page) => page.evaluate(() => document.activeElement?.getAttribute("data-testid"));

/** A chat in the test folder whose act profile is Edits allowed (so an approved plan's write runs unasked). */
async function editsChat() {
  const opened = await openChat(rig.browser, rig.host);
  const { page } = opened;
  await rig.host.call("setWorkspace", opened.sessionId, folder);
  await poll(() => page.getByTestId("workspace-button").textContent()).toContain(basename(folder));
  const picker = page.getByTestId("profile-picker");
  await picker.click();
  await page.getByTestId("profile-option-edits").click();
  await poll(() => picker.getAttribute("aria-label")).toBe("Permissions: Edits allowed");
  await page.keyboard.press("Escape");
  return { ...opened, picker };
}

describe("plan mode", () => {
  it("Shift+Tab enters it, a planning run only reads, and the plan card's buttons work from the keyboard", async () => {
    const { page, problems, picker } = await editsChat();

    // Shift+Tab in the composer: Plan for this message (the chat's options untouched); again: Plan mode; again: back;
    // twice more: Plan mode. The focus stays in the box.
    const composer = page.getByTestId("composer");
    const chip = page.getByTestId("composer-mode");
    await composer.focus();
    expect(await chip.innerText()).toContain("Edits allowed");
    await page.keyboard.press("Shift+Tab");
    await poll(() => chip.innerText()).toContain("Plan (this message)");
    expect(await picker.getAttribute("aria-label")).toBe("Permissions: Edits allowed");
    await page.keyboard.press("Shift+Tab");
    await poll(() => chip.innerText()).toContain("Plan mode");
    await poll(() => picker.getAttribute("aria-label")).toBe("Permissions: Plan");
    expect(await focused(page)).toBe("composer");
    await page.keyboard.press("Shift+Tab");
    await poll(() => chip.innerText()).toContain("Edits allowed");
    await poll(() => picker.getAttribute("aria-label")).toBe("Permissions: Edits allowed");
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Shift+Tab");
    await poll(() => picker.getAttribute("aria-label")).toBe("Permissions: Plan");
    await picker.click();
    await poll(() => page.getByTestId("profile-option-plan").locator("input").isChecked()).toBe(true);
    expect(await page.getByTestId("profile-option-plan").innerText()).toMatch(/Approving returns to Edits allowed/);
    await page.keyboard.press("Escape");
    await shot(page, "plan-mode-chip");

    // A planning run: its write is refused, its reply waits in the plan card.
    await send(page, `Plan a file ${write("refused.txt")}`);
    await replies(page, 2);
    expect(existsSync(join(folder, "refused.txt"))).toBe(false);
    await poll(() => page.getByTestId("tool-card").last().getAttribute("data-status")).toBe("denied");
    await poll(() => page.getByTestId("message-permissionProfile").last().innerText()).toMatch(/Plan mode from here/);
    await poll(() => page.getByTestId("tool-card").last().innerText()).toMatch(/This chat is in Plan mode \(read-only\)/);
    const card = page.getByTestId("plan-card");
    await card.waitFor();
    expect(await card.innerText()).toMatch(/Plan ready[\s\S]*Received 1 tool result\./);
    // The prompt the planning run was sent carries the plan part, and "What the agent was told" shows it apart.
    const sent = String((rig.server.requests.at(-1)!.body.messages as { content: unknown }[])[0].content);
    expect(sent).toContain("<plan_mode>\nYou are in plan mode");
    await page.getByTestId("chat-settings-button").click();
    await page.getByTestId("open-agent-briefing").click();
    const briefing = page.getByTestId("agent-briefing");
    await briefing.getByTestId("briefing-plan").waitFor();
    expect(await briefing.getByTestId("briefing-plan").innerText()).toMatch(/Plan mode[\s\S]*answer with a concrete, numbered plan/);
    await shot(page, "plan-mode-briefing");
    await page.keyboard.press("Escape");
    await briefing.waitFor({ state: "detached" });
    if (await page.getByTestId("chat-settings").count()) await page.keyboard.press("Escape");
    await expectAccessible(page, "the chat with a plan card", { wholeHeight: false });
    await shot(page, "plan-card");

    // Keep planning, from the keyboard: the card steps aside, the focus is in the composer, still Plan.
    await page.getByTestId("plan-keep").focus();
    await page.keyboard.press("Enter");
    await poll(() => card.count()).toBe(0);
    await poll(() => focused(page)).toBe("composer");
    expect(await picker.getAttribute("aria-label")).toBe("Permissions: Plan");

    // The next planning reply; Edit plan (Tab moves through the buttons), edited in place, then Approve and run.
    await send(page, `More detail please ${turn({ text: "1. Write plan.txt\n2. Check it" })}`);
    await replies(page, 3);
    await card.waitFor();
    await page.getByTestId("plan-approve").focus();
    await page.keyboard.press("Tab");
    expect(await focused(page)).toBe("plan-edit");
    await page.keyboard.press("Enter");
    const editor = page.getByTestId("plan-editor");
    await poll(() => focused(page)).toBe("plan-editor");
    expect(await editor.inputValue()).toBe("1. Write plan.txt\n2. Check it");
    await editor.fill(`1. Write plan.txt ${write("plan.txt", "planned\n")}\n2. Check it`);
    await shot(page, "plan-card-editing");
    await page.keyboard.press("Tab");
    expect(await focused(page)).toBe("plan-approve");
    expect(await picker.getAttribute("aria-label")).toBe("Permissions: Plan");
    await page.keyboard.press("Enter");

    // Approved: back to Edits allowed, the plan sent quoted, the write runs unasked.
    await poll(() => picker.getAttribute("aria-label")).toBe("Permissions: Edits allowed");
    await poll(async () => (existsSync(join(folder, "plan.txt")) ? readFileSync(join(folder, "plan.txt"), "utf8") : "")).toBe("planned\n");
    await replies(page, 5);
    await poll(() => card.count()).toBe(0);
    expect(await page.getByTestId("message-user").last().innerText()).toMatch(/Carry out this plan:/);
    expect(await page.getByTestId("approval-once").count()).toBe(0);
    expect(await chip.innerText()).toContain("Edits allowed");
    await shot(page, "plan-approved");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("one message in Plan: its run only reads, its plan card shows (after a reload too), and the chat stays in its act profile", async () => {
    const { page, problems, picker } = await editsChat();

    // One Shift+Tab: this message plans; the chip and the footer say so, the header's picker stays the chat's.
    const composer = page.getByTestId("composer");
    const chip = page.getByTestId("composer-mode");
    await composer.focus();
    await page.keyboard.press("Shift+Tab");
    await poll(() => chip.getAttribute("data-mode")).toBe("once");
    expect(await chip.innerText()).toBe("Plan (this message)");
    expect(await chip.getAttribute("title")).toMatch(/the next message you send only reads[\s\S]*stays in Edits allowed/);
    expect(await page.locator("#composer-hint").innerText()).toContain("Shift+Tab: Plan mode for the chat");
    expect(await picker.getAttribute("aria-label")).toBe("Permissions: Edits allowed");
    await composer.fill(`Plan a file ${write("once.txt")}`);
    await shot(page, "plan-once-chip");

    // Sent: the chip is back to act at once; the run refuses the write (Edits allowed would have run it).
    await page.keyboard.press("Enter");
    await poll(() => chip.getAttribute("data-mode")).toBe("act");
    expect(await chip.innerText()).toBe("Edits allowed");
    await replies(page, 2); // the refused write's reply and the one after its result
    expect(existsSync(join(folder, "once.txt"))).toBe(false);
    await poll(() => page.getByTestId("tool-card").last().innerText()).toMatch(/This chat is in Plan mode \(read-only\)/);
    await poll(() => page.getByTestId("message-permissionProfile").last().innerText()).toMatch(/This message in Plan/);
    const card = page.getByTestId("plan-card");
    await card.waitFor();
    expect(await page.getByTestId("plan-approve").getAttribute("title")).toMatch(/carried out under Edits allowed/);
    expect(await picker.getAttribute("aria-label")).toBe("Permissions: Edits allowed");
    const sent = String((rig.server.requests.at(-1)!.body.messages as { content: unknown }[])[0].content);
    expect(sent).toContain("<plan_mode>");
    await expectAccessible(page, "a one-message plan's card", { wholeHeight: false });
    await shot(page, "plan-once-card");

    // Reloaded: the transcript says the message was sent in Plan, so the card is back; the chip is act.
    await page.reload();
    await card.waitFor();
    expect(await chip.innerText()).toBe("Edits allowed");
    await page.getByTestId("message-permissionProfile").last().scrollIntoViewIfNeeded();
    await shot(page, "plan-once-reloaded");

    // Approved: the plan is sent to act under Edits allowed; nothing about the chat changed.
    await page.getByTestId("plan-approve").click();
    await replies(page, 3);
    await poll(() => card.count()).toBe(0);
    expect(await page.getByTestId("message-user").last().innerText()).toMatch(/Carry out this plan:/);
    await poll(() => page.getByTestId("message-permissionProfile").last().innerText()).toMatch(/^Permissions\s+Runs from here: Edits allowed/);
    expect(await picker.getAttribute("aria-label")).toBe("Permissions: Edits allowed");
    expect(String((rig.server.requests.at(-1)!.body.messages as { content: unknown }[])[0].content)).not.toContain("<plan_mode>");
    await shot(page, "plan-once-approved");
    expect(problems).toEqual([]);
    await page.close();
  });
});
