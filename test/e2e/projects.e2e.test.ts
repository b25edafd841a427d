/**
 * Projects as the unit of work, as a user meets them, nothing faked: the web host with HOME in a temp folder holding
 * two projects (`~/code/shop` with an AGENTS.md, `~/code/blog`), real workers, the loopback model, the built page in
 * Chromium. The sidebar groups chats by project (the folder's name, its full path in the tooltip), "No project" for
 * the rest, each group collapsible; a folder typed as `~/code/blog` moves a chat into that project; New chat (the
 * button, the shortcut, a project's own +) starts in the current project; Settings' default instructions are added
 * to the coding prompt (the tool list and the folder rule stay), and "What the agent was told" shows that prompt with
 * the project's AGENTS.md, its path and text. Screenshots: test-results/screens/projects-*.png.
 */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, replies, send, shot } from "../../testkit/chat-page";
import { TempFolders } from "../../testkit/temp-folders";
import { expectAccessible } from "../../testkit/axe";
import type { SessionSummary } from "../../src/shared/protocol/app-api";

let rig: E2eRig;
let home: string;
let shop: string;
let blog: string;
const folders = new TempFolders("paddock-e2e-projects-");
const AGENTS = "# Shop\n\nUse tabs, never spaces. Run `npm test` before you say a change is done.\n";

beforeAll(async () => {
  home = realpathSync(folders.make({ "code/shop/AGENTS.md": AGENTS, "code/shop/src/cart.ts": "export {};\n", "code/blog/README.md": "The blog.\n" }));
  shop = join(home, "code", "shop");
  blog = join(home, "code", "blog");
  rig = await startE2eRig("projects", undefined, { HOME: home, PI_CODING_AGENT_DIR: "" });
});
afterAll(async () => {
  await rig?.close();
  folders.removeAll();
});

const call = <T>(method: string, ...args: unknown[]) => rig.host.call<T>(method, ...args);
const sessions = () => call<SessionSummary[]>("listSessions");
async function chat(title: string, folder?: string): Promise<string> {
  const { id } = await call<{ id: string }>("createSession");
  // Through main's call as the page makes it: `~/…` is the home folder's.
  if (folder) await call("setWorkspace", id, folder);
  await call("renameSession", id, title);
  return id;
}
/**
 * Each group of the sidebar: its label, its folder (data-project), the chats shown in it; by label, each group's
 * chats sorted (their order, newest first, is the unit test's: opening a chat may make it the newest).
 */
const groups = async (page: Page) => (await page.getByTestId("project-group").evaluateAll((nodes) => nodes.map((n) => ({
  label: n.querySelector(".project-name")?.textContent ?? "",
  folder: n.getAttribute("data-project"),
  tooltip: n.querySelector("[data-testid=project-toggle]")?.getAttribute("title"),
  chats: [...n.querySelectorAll(".session-title")].map((t) => t.textContent ?? "").sort(),
})))).sort((a, b) => a.label.localeCompare(b.label));
const group = (page: Page, folder: string) => page.locator(`[data-testid=project-group][data-project="${folder}"]`);
const activeWorkspace = async (page: Page) => {
  const id = await page.locator(".session-item.active").getAttribute("data-session-id");
  return { id, workspace: (await sessions()).find((s) => s.id === id)?.workspace };
};

describe("projects", () => {
  it("groups the sidebar by project, takes ~/ in a typed folder, and starts New chat in the current project", async () => {
    await call("updateSettings", { defaultSystemPrompt: "Always answer in French." });
    const checkout = await chat("Fix the checkout total", "~/code/shop");
    await chat("Add a coupon field", "~/code/shop");
    const launch = await chat("Draft the launch post");
    await chat("Trip to Lisbon");
    const { page, problems } = await openChat(rig.browser, rig.host, checkout);

    await poll(() => groups(page)).toEqual([
      { label: "No project", folder: "", tooltip: "Chats without a workspace", chats: ["Draft the launch post", "Trip to Lisbon"] },
      { label: "shop", folder: shop, tooltip: shop, chats: ["Add a coupon field", "Fix the checkout total"] },
    ]);

    // A folder typed with ~/ moves the chat into that project.
    await page.locator(`[data-session-id="${launch}"] .session-open`).click();
    await page.getByTestId("workspace-button").click();
    await page.getByTestId("workspace-path").fill("~/code/blog");
    await page.getByTestId("workspace-path").press("Enter");
    await poll(() => page.getByTestId("workspace-button").textContent()).toContain("blog");
    expect((await sessions()).find((s) => s.id === launch)?.workspace).toBe(blog);
    await poll(() => groups(page)).toEqual([
      { label: "blog", folder: blog, tooltip: blog, chats: ["Draft the launch post"] },
      { label: "No project", folder: "", tooltip: "Chats without a workspace", chats: ["Trip to Lisbon"] },
      { label: "shop", folder: shop, tooltip: shop, chats: ["Add a coupon field", "Fix the checkout total"] },
    ]);
    await page.keyboard.press("Escape");
    await shot(page, "projects-sidebar");
    await expectAccessible(page, "the sidebar grouped by project");

    // A group collapses to its header and its count, and stays so after a reload.
    await group(page, "").getByTestId("project-toggle").click();
    expect(await group(page, "").getByTestId("project-toggle").getAttribute("aria-expanded")).toBe("false");
    expect(await group(page, "").locator(".session-item").count()).toBe(0);
    expect(await group(page, "").locator(".project-count").textContent()).toBe("1");
    await shot(page, "projects-collapsed");
    await page.reload();
    await poll(() => group(page, "").getByTestId("project-toggle").getAttribute("aria-expanded")).toBe("false");
    await group(page, "").getByTestId("project-toggle").click();
    await poll(() => group(page, "").locator(".session-item").count()).toBe(1);

    // New chat from a chat in shop: a new chat in shop, shown in its group.
    await page.locator(`[data-session-id="${checkout}"] .session-open`).click();
    await poll(() => page.locator(".session-item.active").getAttribute("data-session-id")).toBe(checkout);
    const before = (await sessions()).length;
    await page.getByTestId("new-chat").click();
    await poll(async () => (await activeWorkspace(page)).id).not.toBe(checkout);
    await poll(async () => (await activeWorkspace(page)).workspace).toBe(shop);
    const fresh = (await activeWorkspace(page)).id!;
    expect((await sessions()).length).toBe(before + 1);
    await poll(() => page.getByTestId("workspace-button").textContent()).toContain("shop");
    // The newest on top of its project.
    await poll(() => group(page, shop).locator(".session-title").allTextContents()).toEqual(["New chat", "Fix the checkout total", "Add a coupon field"]);
    await shot(page, "projects-new-chat");

    // The shortcut in that still empty chat stays in it: empty chats do not pile up.
    await page.keyboard.press("Control+Shift+O");
    await poll(async () => (await activeWorkspace(page)).id).toBe(fresh);
    expect((await sessions()).length).toBe(before + 1);

    // A project's own + starts in that project, whatever chat is shown.
    await group(page, blog).getByTestId("project-new-chat").click();
    await poll(async () => (await activeWorkspace(page)).id).not.toBe(fresh);
    await poll(async () => (await activeWorkspace(page)).workspace).toBe(blog);
    const inBlog = (await activeWorkspace(page)).id;
    await poll(() => page.getByTestId("workspace-button").textContent()).toContain("blog");
    // "No project"'s + starts a chat without a folder.
    await group(page, "").getByTestId("project-new-chat").click();
    await poll(async () => (await activeWorkspace(page)).id).not.toBe(inBlog);
    await poll(async () => (await activeWorkspace(page)).workspace).toBeUndefined();
    await poll(() => page.getByTestId("workspace-button").textContent()).toContain("No workspace");
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it("adds Settings' default instructions to the coding prompt, and shows what the agent was told with the project's AGENTS.md", async () => {
    const id = await chat("Rename the cart module", "~/code/shop");
    const { page, problems } = await openChat(rig.browser, rig.host, id);
    await send(page, "Which file holds the cart?");
    await replies(page, 1);
    const sent = String((rig.server.requests.at(-1)!.body.messages as { content: unknown }[])[0].content);
    expect(sent).toContain("<tools>\n- read: ");
    expect(sent).toContain("- Work only inside the working directory: paths outside it are refused");
    expect(sent).toContain("<user_instructions>\nAlways answer in French.\n</user_instructions>");

    await page.getByTestId("chat-settings-button").click();
    await page.getByTestId("open-agent-briefing").click();
    const dialog = page.getByTestId("agent-briefing");
    await dialog.getByTestId("briefing-base").waitFor();
    expect(await dialog.getByTestId("briefing-base").textContent()).toContain("- read: Read file contents");
    expect(await dialog.getByTestId("briefing-base").textContent()).toContain("Work only inside the working directory");
    const instructions = dialog.getByTestId("briefing-instructions");
    expect(await instructions.locator(".briefing-source").textContent()).toBe("Settings' default");
    expect(await instructions.locator("pre").textContent()).toBe("Always answer in French.");
    const file = dialog.getByTestId("briefing-context-file");
    expect(await file.count()).toBe(1);
    expect(await file.locator(".briefing-path").textContent()).toBe(join(shop, "AGENTS.md"));
    expect(await file.locator("pre").textContent()).toBe(AGENTS);
    // The whole prompt shown is the one the model was sent.
    expect(await dialog.getByTestId("briefing-prompt").textContent()).toBe(sent);
    await shot(page, "projects-agent-briefing");
    await expectAccessible(page, "what the agent was told", { wholeHeight: false });

    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});
