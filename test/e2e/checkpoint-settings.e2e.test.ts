/**
 * Settings' Checkpoints group as a user meets it, nothing faked (the web host, its clean-up thread, the built page):
 * on by default with the largest file kept and the storage limit, the help saying .gitignore'd files are not
 * tracked, the store's use next to its limit, a refused size said in words, and "Clear all checkpoints" behind a
 * confirm, after which the page says what was dropped and when. Screenshots: test-results/screens/settings-checkpoints*.png.
 */
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, shot } from "../../testkit/chat-page";
import { expectAccessible } from "../../testkit/axe";
import { openCheckpointStore } from "../../src/shared-node/checkpoints/checkpoint-store";
import { listSessions } from "../../src/shared-node/checkpoints/checkpoint-refs";
import { checkpointsRoot } from "../../src/shared-node/checkpoints/maintenance";

let rig: E2eRig;
let workspace: string;
beforeAll(async () => {
  rig = await startE2eRig("checkpoints");
  // A chat that recorded its workspace twice, an hour ago (a closed one: its agent does not run). Objects written in
  // the last minutes are kept by any clean-up (a snapshot in progress elsewhere may need them).
  workspace = mkdtempSync(join(tmpdir(), "paddock-e2e-checkpoints-ws-"));
  writeFileSync(join(workspace, "notes.md"), "# Notes\n".repeat(20_000));
  const store = openCheckpointStore(rig.dataDir, workspace, "recorded-chat");
  await store.baseline();
  writeFileSync(join(workspace, "notes.md"), "# Changed\n".repeat(30_000));
  await store.snapshot({ paths: ["notes.md"] });
  await store.close();
  const objects = join(checkpointsRoot(rig.dataDir), "objects");
  const anHourAgo = new Date(Date.now() - 3_600_000);
  for (const fan of readdirSync(objects)) for (const name of readdirSync(join(objects, fan))) utimesSync(join(objects, fan, name), anHourAgo, anHourAgo);
});
afterAll(async () => {
  await rig?.close();
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

async function openCheckpoints(colorScheme: "light" | "dark" = "light") {
  const chat = await openChat(rig.browser, rig.host);
  const { page } = chat;
  await page.setViewportSize({ width: 1100, height: 760 });
  await page.emulateMedia({ colorScheme });
  await page.getByTestId("open-settings").click();
  await page.getByTestId("settings-view").waitFor();
  await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Checkpoints" }).click();
  return chat;
}

const NOT_MINE = [".sidebar", "#settings-section-endpoints .settings-card", "#settings-section-mcp .settings-card"];

describe("Settings' Checkpoints", () => {
  it("shows the switch, the sizes, the store's use and its help; refuses a bad size in words; saves a good one", async () => {
    const { page, problems } = await openCheckpoints();
    const section = page.locator("#settings-section-checkpoints");
    expect(await section.innerText()).toContain("Files your .gitignore ignores are not tracked");
    expect(await page.getByLabel("Record checkpoints of each chat's workspace").isChecked()).toBe(true);
    expect(await page.getByLabel("Largest file kept (MB)").inputValue()).toBe("20");
    expect(await page.getByLabel("Storage limit (MB)").inputValue()).toBe("2048");
    await poll(() => page.getByTestId("checkpoint-usage").textContent()).toMatch(/^\d+(\.\d)? KB of 2 GB used$/);

    await page.getByLabel("Largest file kept (MB)").fill("0");
    await page.getByLabel("Largest file kept (MB)").blur();
    await poll(() => page.getByRole("alert").first().textContent()).toBe("The largest file kept must be a whole number of MB from 1 to 1024.");
    await page.getByLabel("Largest file kept (MB)").fill("50");
    await page.getByLabel("Largest file kept (MB)").blur();
    const saved = async () => (await rig.host.call<{ checkpoints: { maxFileMB: number } }>("getSettings")).checkpoints.maxFileMB;
    await poll(saved).toBe(50);
    await section.scrollIntoViewIfNeeded();
    await shot(page, "settings-checkpoints");
    await expectAccessible(page, "Settings' Checkpoints", { exclude: NOT_MINE });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("clears every checkpoint behind a confirm, then says what it dropped and when", async () => {
    const { page, problems } = await openCheckpoints();
    await page.getByRole("button", { name: "Clear all checkpoints" }).click();
    expect(await page.getByText("Clear every chat’s checkpoints? Their changes can no longer be taken back.").isVisible()).toBe(true);
    await page.locator("#settings-section-checkpoints").scrollIntoViewIfNeeded();
    await shot(page, "settings-checkpoints-confirm");
    // "Keep" changes nothing.
    await page.getByRole("button", { name: "Keep" }).click();
    expect(listSessions(checkpointsRoot(rig.dataDir))).toEqual(["recorded-chat"]);

    await page.getByRole("button", { name: "Clear all checkpoints" }).click();
    await page.getByTestId("checkpoint-clear-confirm").click();
    await poll(() => page.getByTestId("checkpoint-last-drop").textContent()).toMatch(/^Cleared all checkpoints \(\d+(\.\d)? KB freed\), .+\.$/);
    expect(await page.getByTestId("checkpoint-last-drop").locator("time").getAttribute("datetime")).toMatch(/^\d{4}-\d\d-\d\dT/);
    await poll(() => page.getByTestId("checkpoint-usage").textContent()).toBe("0 bytes of 2 GB used");
    expect(listSessions(checkpointsRoot(rig.dataDir))).toEqual([]);
    await shot(page, "settings-checkpoints-cleared");
    await expectAccessible(page, "Settings' Checkpoints after Clear all", { exclude: NOT_MINE });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("looks right in the dark theme", async () => {
    const { page } = await openCheckpoints("dark");
    await page.locator("#settings-section-checkpoints").scrollIntoViewIfNeeded();
    await poll(() => page.getByTestId("checkpoint-usage").textContent()).toMatch(/used$/);
    await shot(page, "settings-checkpoints-dark");
    await page.close();
  });
});
