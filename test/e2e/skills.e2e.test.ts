/**
 * Skills and prompt templates as a user meets them, nothing faked: the web host with HOME in a temp folder holding a
 * pi user's prompt templates and Claude Code skills, the built page in Chromium. Typing `/` lists the templates
 * (filtered as typed, keyboard navigable); `/review "API compatibility"` goes to the model as the template's text,
 * expanded as pi does. A workspace's own template is offered only once the user agreed. Settings' "Skills & prompts"
 * lists skills and templates with where they come from, and the files skipped and why. Screenshots go to
 * test-results/screens/skills-*.png.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, shot } from "../../testkit/chat-page";
import { TempFolders } from "../../testkit/temp-folders";
import { expectAccessible } from "../../testkit/axe";

let rig: E2eRig;
let home: string;
const folders = new TempFolders("paddock-e2e-skills-");

beforeAll(async () => {
  home = folders.make({
    ".pi/agent/prompts/review.md": '---\ndescription: Review staged git changes\nargument-hint: "[focus]"\n---\nReview the staged changes. Focus on ${1:-correctness, security and error handling}.\n',
    ".pi/agent/prompts/summarize.md": "Summarize this conversation in three bullet points.\n",
    ".pi/agent/prompts/explain.md": "---\ndescription: Explain a file to a newcomer\nargument-hint: <file>\n---\nExplain $1 to someone new to this codebase.\n",
    ".claude/skills/pdf-tools/SKILL.md": "---\nname: pdf-tools\ndescription: Extract text and tables from PDF files. Use when reading, converting, or inspecting PDFs.\n---\n\nSteps.\n",
    ".claude/skills/brand/SKILL.md": "---\nname: Brand_Voice\ndescription: Writes in the company's voice.\n---\n\nSteps.\n",
    ".claude/skills/draft/SKILL.md": "---\nname: draft\n---\n\nNo description yet.\n",
  });
  rig = await startE2eRig("skills", undefined, { HOME: home, PI_CODING_AGENT_DIR: "" });
});
afterAll(async () => {
  await rig?.close();
  folders.removeAll();
});

/** Other engineers' parts of the page are checked by their tests. */
const NOT_MINE = [".sidebar", "#settings-section-endpoints .settings-card", "#settings-section-mcp .settings-card"];
const composer = (page: Page) => page.getByTestId("composer");
const menuNames = (page: Page) => page.getByTestId("slash-item").locator(".slash-name").allTextContents();
/** The system prompt of the model request that carried the user's message `text` last. */
const systemPromptFor = async (text: string) => {
  const request = rig.server.requests.findLast((r) => JSON.stringify((r.body.messages as { role: string }[]).filter((m) => m.role === "user").at(-1) ?? "").includes(text));
  return String((request?.body.messages as { content: unknown }[] | undefined)?.[0]?.content ?? "");
};
const lastUserMessage = async () => {
  const messages = (rig.server.requests.at(-1)?.body.messages ?? []) as { role: string; content: unknown }[];
  const content = messages.filter((m) => m.role === "user").at(-1)?.content;
  return typeof content === "string" ? content : JSON.stringify(content);
};

describe("prompt templates in the composer", () => {
  it("/ lists them, filters as typed, takes one with the keyboard, and sends it expanded as pi does", async () => {
    const { page, problems } = await openChat(rig.browser, rig.host);
    await composer(page).click();
    await composer(page).pressSequentially("/");
    await page.getByTestId("slash-menu").waitFor();
    // The templates arrive from main as the menu opens (MCP prompts with them): polled, not read at once.
    await poll(() => menuNames(page)).toEqual(["/explain", "/review", "/summarize"]);
    const menuId = await page.getByTestId("slash-menu").getAttribute("id");
    expect(await composer(page).getAttribute("aria-controls")).toBe(menuId);
    expect(await composer(page).getAttribute("aria-activedescendant")).toBe(`${menuId}-0`);
    await expectAccessible(page, "the composer's / menu, open", { exclude: NOT_MINE, wholeHeight: false });
    await shot(page, "skills-slash-menu");

    await composer(page).pressSequentially("e");
    expect(await menuNames(page)).toEqual(["/explain", "/review", "/summarize"]); // starts with "e", then holds it
    await composer(page).pressSequentially("r");
    expect(await menuNames(page)).toEqual([]); // "er": none starts or holds it
    await composer(page).press("Backspace");
    await composer(page).press("Backspace");
    await composer(page).pressSequentially("re");
    expect(await menuNames(page)).toEqual(["/review"]);
    await shot(page, "skills-slash-menu-filtered");

    // Esc closes the menu (and stops nothing); typing on opens it again.
    await composer(page).press("Escape");
    expect(await page.getByTestId("slash-menu").count()).toBe(0);
    await composer(page).press("Backspace");
    await composer(page).pressSequentially("e");
    await page.getByTestId("slash-menu").waitFor();

    await composer(page).press("Enter"); // takes the highlighted /review
    expect(await composer(page).inputValue()).toBe("/review ");
    expect(await page.getByTestId("slash-menu").count()).toBe(0);
    await composer(page).pressSequentially('"API compatibility"');
    await composer(page).press("Enter");
    await poll(() => page.getByTestId("message-user").allTextContents()).toEqual(["Review the staged changes. Focus on API compatibility."]);
    await poll(lastUserMessage).toContain("Review the staged changes. Focus on API compatibility.");

    // Arrow keys, and a template typed out in full goes at once with Enter, its defaults filled in.
    await composer(page).pressSequentially("/");
    await page.getByTestId("slash-menu").waitFor();
    await composer(page).press("ArrowDown");
    await composer(page).press("ArrowDown");
    expect(await page.locator("[data-testid=slash-item][aria-selected=true] .slash-name").textContent()).toBe("/summarize");
    await composer(page).press("Tab");
    expect(await composer(page).inputValue()).toBe("/summarize ");
    await composer(page).fill("/review");
    await composer(page).press("Enter");
    await poll(() => page.getByTestId("message-user").allTextContents()).toHaveLength(2);
    await poll(lastUserMessage).toContain("Review the staged changes. Focus on correctness, security and error handling.");
    expect(problems).toEqual([]);
  });

  it("offers a workspace's own template only after the user agreed", async () => {
    const workspace = folders.make({ ".pi/prompts/ship.md": "---\ndescription: Cut a release of this project\n---\nCut release $1 and write its notes.\n" });
    const { id } = await rig.host.call<{ id: string }>("createSession");
    await rig.host.call("setWorkspace", id, workspace);
    const { page, problems } = await openChat(rig.browser, rig.host, id);
    await composer(page).click();
    await composer(page).pressSequentially("/");
    await page.getByTestId("slash-agree").waitFor();
    expect(await menuNames(page)).not.toContain("/ship");
    expect(await page.getByTestId("slash-agree").textContent()).toContain("This project has 1 prompt template of its own. Use it?");
    await shot(page, "skills-slash-menu-project");
    await page.getByTestId("slash-agree").click();
    await poll(() => menuNames(page)).toContain("/ship");
    expect(await page.getByTestId("slash-agree").count()).toBe(0);
    await composer(page).fill("/ship 2.0");
    await composer(page).press("Enter");
    await poll(() => page.getByTestId("message-user").allTextContents()).toEqual(["Cut release 2.0 and write its notes."]);
    expect(problems).toEqual([]);
  });
});

describe("a project's own skills", () => {
  it("are mentioned above the composer, and listed to the agent once the user says to use them", async () => {
    const workspace = folders.make({ ".claude/skills/deploy/SKILL.md": "---\nname: deploy\ndescription: Deploys this project.\n---\nSteps.\n" });
    const { id } = await rig.host.call<{ id: string }>("createSession");
    await rig.host.call("setWorkspace", id, workspace);
    const { page, problems } = await openChat(rig.browser, rig.host, id);
    const note = page.getByTestId("project-skills-note");
    await note.waitFor();
    expect(await note.textContent()).toContain("This project has 1 skill of its own for the agent: only for a project you trust.");
    await shot(page, "skills-project-skills-note");
    await composer(page).fill("hi");
    await composer(page).press("Enter");
    await poll(async () => systemPromptFor("hi")).toContain("<cwd>");
    expect(await systemPromptFor("hi")).not.toContain("<name>deploy</name>");

    await note.getByRole("button", { name: "Use it" }).click();
    await poll(() => note.count()).toBe(0);
    await composer(page).fill("again");
    await composer(page).press("Enter");
    await poll(async () => systemPromptFor("again")).toContain("<name>deploy</name>");
    expect(problems).toEqual([]);
  });
});

describe("Settings' Skills & prompts", () => {
  it("lists skills and templates with where each comes from, and what was skipped and why", async () => {
    const { page, problems } = await openChat(rig.browser, rig.host);
    await page.getByTestId("open-settings").click();
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Skills & prompts" }).click();
    const list = page.getByTestId("skills-list");
    await list.waitFor();
    const skills = await list.getByTestId("skill").allTextContents();
    expect(skills).toHaveLength(2);
    expect(skills.find((s) => s.startsWith("pdf-tools"))).toContain("from Claude Code");
    expect(skills.find((s) => s.startsWith("pdf-tools"))).toContain(join(home, ".claude", "skills", "pdf-tools", "SKILL.md"));
    expect(await list.getByTestId("skill-warning").allTextContents()).toEqual(["⚠ name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)"]);
    const templates = await list.getByTestId("template").allTextContents();
    expect(templates.map((t) => t.split("from")[0].trim())).toEqual(["/explain<file>", "/review[focus]", "/summarize"]);
    expect(templates[1]).toContain("from pi");
    expect(await list.getByTestId("skill-problems").textContent()).toContain(`${join(home, ".claude", "skills", "draft", "SKILL.md")}: description is required: skipped`);
    await expectAccessible(page, "Settings' Skills & prompts", { exclude: NOT_MINE });
    // (The check makes the window as tall as the page and back, scrolling it: the section is brought back for the shot.)
    await page.locator("#settings-section-skills h2").evaluate((h) => h.scrollIntoView({ block: "start" }));
    await shot(page, "skills-settings");
    await list.getByTestId("skill-problems").evaluate((p) => p.scrollIntoView({ block: "center" }));
    await shot(page, "skills-settings-skills-skipped");
    expect(problems).toEqual([]);
  });
});
