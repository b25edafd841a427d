/**
 * Settings → MCP servers and a chat's MCP tools as a user meets them, nothing faked: the web host with real workers
 * and its MCP host, `@modelcontextprotocol/server-everything` over stdio, the built page in Chromium. Screenshots go
 * to test-results/screens/ (mcp-*).
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, replies, send, shot } from "../../testkit/chat-page";
import { REPO_ROOT } from "../../testkit/web-host-process";
import { expectAccessible } from "../../testkit/axe";
import { turnDirective as turn } from "../../src/web-host/openai-test-server";
import type { Settings } from "../../src/shared/settings/schema";

const EVERYTHING = resolve(REPO_ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const SECRET = "tok-e2e-never-in-settings";

let rig: E2eRig;

beforeAll(async () => {
  rig = await startE2eRig("mcp");
}, 60_000);
afterAll(async () => {
  await rig?.close();
});

/** Opens Settings in the chat's page and brings the MCP section into view. */
async function openMcpSettings(page: Page): Promise<void> {
  await page.getByTestId("open-settings").click();
  await page.getByTestId("settings-view").waitFor();
  await page.getByTestId("mcp-servers").scrollIntoViewIfNeeded();
}

const settingsFile = () => readFileSync(join(rig.dataDir, "settings.json"), "utf8");
const card = (page: Page, id: string) => page.locator(`[data-testid=mcp-server][data-server-id="${id}"]`);

describe("Settings → MCP servers", () => {
  it("says what is wrong with a server before adding it", async () => {
    const { page, problems } = await openChat(rig.browser, rig.host);
    await openMcpSettings(page);
    await page.getByTestId("mcp-add").click();
    await page.getByTestId("mcp-command").fill("npx -y server-github");
    await page.getByTestId("mcp-entry-add").click();
    await page.getByTestId("mcp-entry-name").fill("GITHUB_TOKEN");
    // A name that looks secret is marked secret, and a secret needs its value.
    expect(await page.getByTestId("mcp-entry-secret").isChecked()).toBe(true);
    await page.getByTestId("mcp-save").click();
    const editor = page.getByTestId("mcp-editor");
    expect(await editor.textContent()).toContain("Give the server a name.");
    expect(await editor.textContent()).toContain("Only the program goes here; put each argument on its own line under Arguments.");
    expect(await editor.textContent()).toContain("Enter the secret value");
    expect(await editor.textContent()).toContain("Fix the fields marked above, then save again.");
    // Focus goes to the first field that says what is wrong.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("mcp-name");
    await editor.scrollIntoViewIfNeeded();
    await shot(page, "mcp-settings-validation");
    await editor.getByRole("button", { name: "Cancel" }).click();

    // A Streamable HTTP server: its address, and an Authorization header kept secret.
    await page.getByTestId("mcp-add").click();
    await editor.getByText("Web address (Streamable HTTP)").click();
    expect(await page.getByTestId("mcp-type-http").isChecked()).toBe(true);
    await page.getByTestId("mcp-name").fill("Remote");
    await page.getByTestId("mcp-url").fill("example.com/mcp");
    await page.getByTestId("mcp-entry-add").click();
    await page.getByTestId("mcp-entry-name").fill("Authorization");
    expect(await page.getByTestId("mcp-entry-secret").isChecked()).toBe(true);
    expect(await page.getByTestId("mcp-entry-value").getAttribute("type")).toBe("password");
    await page.getByTestId("mcp-save").click();
    expect(await editor.textContent()).toContain("This is not a web address: it should look like https://example.com/mcp.");
    expect(await editor.textContent()).toContain("Enter the secret value");
    expect(await editor.textContent()).toContain("Fix the fields marked above, then save again.");
    await shot(page, "mcp-settings-http-validation");
    await editor.getByRole("button", { name: "Cancel" }).click();
    expect(JSON.parse(settingsFile()).mcpServers ?? []).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("adds the everything server over stdio with a secret env variable, and shows it ready with its tools", async () => {
    const { page, problems } = await openChat(rig.browser, rig.host);
    await openMcpSettings(page);
    await page.getByTestId("mcp-add").click();
    await page.getByTestId("mcp-name").fill("Everything");
    await page.getByTestId("mcp-command").fill(process.execPath);
    await page.getByTestId("mcp-args").fill(`${EVERYTHING}\nstdio`);
    await page.getByTestId("mcp-entry-add").click();
    await page.getByTestId("mcp-entry-name").fill("EVERYTHING_API_KEY");
    await page.getByTestId("mcp-entry-value").fill(SECRET);
    await page.getByTestId("mcp-trusted").check();
    await page.getByTestId("mcp-save").click();

    const everything = card(page, "everything");
    await everything.waitFor();
    await poll(() => everything.getByTestId("mcp-state").textContent(), 20_000).toMatch(/^Ready · \d+ tools$/);
    await everything.getByTestId("mcp-tools").locator("summary").click();
    const tools = await everything.getByTestId("mcp-tool").locator(".mcp-tool-name").allTextContents();
    expect(tools).toEqual(expect.arrayContaining(["echo", "get-sum", "get-tiny-image"]));
    expect(await everything.getByTestId("mcp-tools").textContent()).toMatch(/Echoes back the input/i);
    await everything.scrollIntoViewIfNeeded();
    await shot(page, "mcp-settings-ready");

    // The secret went to the secret store: settings.json has only its reference, and the page learns "set".
    expect(settingsFile()).not.toContain(SECRET);
    expect(JSON.parse(settingsFile()).mcpServers[0].transport.env).toEqual({ EVERYTHING_API_KEY: { secret: true } });
    expect(await rig.host.call("mcpSecretStatus")).toEqual([{ id: "everything", set: ["EVERYTHING_API_KEY"] }]);
    expect(await page.content()).not.toContain(SECRET);

    // Restart: it goes through starting and comes back ready.
    await everything.getByTestId("mcp-restart").click();
    await poll(() => everything.getByTestId("mcp-state").textContent(), 20_000).toMatch(/^Ready · \d+ tools$/);

    // Editing shows the secret as set, never its value.
    await everything.getByTestId("mcp-edit").click();
    const value = page.getByTestId("mcp-entry-value");
    expect(await value.inputValue()).toBe("");
    expect(await value.getAttribute("placeholder")).toBe("Set · type to replace");
    await page.getByTestId("mcp-editor").getByRole("button", { name: "Cancel" }).click();
    expect(problems).toEqual([]);
    await page.close();
  });

  it("reads well at 600 px, in dark, and passes the accessibility rules", async () => {
    const { page, problems } = await openChat(rig.browser, rig.host);
    await openMcpSettings(page);
    // Narrow, the sidebar (and its Settings button) folds away: Settings are opened first.
    await page.setViewportSize({ width: 600, height: 900 });
    await page.emulateMedia({ colorScheme: "dark" });
    await card(page, "everything").getByTestId("mcp-tools").locator("summary").click();
    await page.getByTestId("mcp-add").scrollIntoViewIfNeeded();
    await page.getByTestId("mcp-servers").scrollIntoViewIfNeeded();
    await shot(page, "mcp-settings-dark-600");
    await expectAccessible(page, "Settings → MCP servers, dark, 600 px", { exclude: [".sidebar"] });
    await page.getByTestId("mcp-import-open").click();
    // Picking the file, as from ~/Library/Application Support/Claude/.
    const file = '{ "mcpServers": { "time": { "command": "uvx", "args": ["mcp-server-time"], "env": { "TZ_API_KEY": "k" } } } }';
    await page.getByTestId("mcp-import-file").setInputFiles({ name: "claude_desktop_config.json", mimeType: "application/json", buffer: Buffer.from(file) });
    await poll(() => page.getByTestId("mcp-import-text").inputValue()).toBe(file);
    expect(await page.getByTestId("mcp-import-add").textContent()).toBe("time uvx mcp-server-time · to the secret store: TZ_API_KEY");
    await page.getByTestId("mcp-import").scrollIntoViewIfNeeded();
    await expectAccessible(page, "MCP import panel, dark, 600 px", { exclude: [".sidebar"] });
    await shot(page, "mcp-import-dark-600");
    // Nothing was imported: closing leaves Settings as they were.
    await page.getByTestId("mcp-import").getByRole("button", { name: "Close" }).click();
    expect(JSON.parse(settingsFile()).mcpServers.map((s: { id: string }) => s.id)).toEqual(["everything"]);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("imports a Claude Desktop config, showing first what will be added and what skipped, and why", async () => {
    const { page, problems } = await openChat(rig.browser, rig.host);
    await openMcpSettings(page);
    await page.getByTestId("mcp-import-open").click();
    const config = {
      mcpServers: {
        github: { command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: { GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_e2e_secret" }, disabled: true },
        "broken-db": { command: process.execPath, args: ["-e", "console.error('no database at postgres://localhost:5432'); process.exit(3)"] },
        "everything-again": { command: process.execPath, args: [EVERYTHING, "stdio"] },
        legacy: { type: "sse", url: "https://old.example.com/sse" },
      },
    };
    const text = page.getByTestId("mcp-import-text");
    await text.fill("{ not json");
    expect(await page.getByTestId("mcp-import-problem").textContent()).toMatch(/not valid JSON/);
    await text.fill(JSON.stringify(config, null, 2));
    const preview = page.getByTestId("mcp-import-preview");
    expect(await preview.getByTestId("mcp-import-add").allTextContents()).toEqual([
      expect.stringMatching(/^github npx -y @modelcontextprotocol\/server-github · to the secret store: GITHUB_PERSONAL_ACCESS_TOKEN · disabled, as in the file$/),
      expect.stringMatching(/^broken-db /),
    ]);
    expect(await preview.getByTestId("mcp-import-skip").allTextContents()).toEqual([
      'everything-again: it runs the same command as "Everything", already in Settings',
      expect.stringMatching(/^legacy: it uses the older SSE transport/),
    ]);
    await page.getByTestId("mcp-import").scrollIntoViewIfNeeded();
    await shot(page, "mcp-import-preview");
    await page.getByTestId("mcp-import-go").click();
    await poll(() => page.getByTestId("mcp-import-outcome").textContent()).toBe("Added github, broken-db. Skipped everything-again, legacy.");
    expect(settingsFile()).not.toContain("ghp_e2e_secret");

    // The broken server fails (and is tried again with backoff), showing what it printed.
    const broken = card(page, "broken-db");
    await poll(() => broken.getByTestId("mcp-state").textContent(), 20_000).toMatch(/^(Failed|Restarting)/);
    await poll(() => broken.getByTestId("mcp-stderr").textContent(), 20_000).toContain("no database at postgres://localhost:5432");
    expect(await card(page, "github").getByTestId("mcp-state").textContent()).toBe("Disabled");
    await broken.scrollIntoViewIfNeeded();
    await shot(page, "mcp-settings-failed");

    // Removing takes its secrets with it.
    await card(page, "github").getByTestId("mcp-remove").click();
    await card(page, "github").getByTestId("mcp-remove-confirm").click();
    await card(page, "github").waitFor({ state: "detached" });
    expect(await rig.host.call("mcpSecretStatus")).not.toContainEqual(expect.objectContaining({ id: "github" }));
    await card(page, "broken-db").getByTestId("mcp-remove").click();
    await card(page, "broken-db").getByTestId("mcp-remove-confirm").click();
    await card(page, "broken-db").waitFor({ state: "detached" });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("a server moved to another address asks for its secret again, and main does not send the old one there", async () => {
    const remote = (url: string) => ({ id: "remote", name: "Remote", enabled: false, trusted: false, transport: { type: "http", url, headers: { Authorization: { secret: true } } } });
    await rig.host.call("saveMcpServer", remote("https://a.example/mcp"), { Authorization: "Bearer for-a" });
    const { page, problems } = await openChat(rig.browser, rig.host);
    await openMcpSettings(page);
    const server = card(page, "remote");
    await server.getByTestId("mcp-edit").click();
    const editor = page.getByTestId("mcp-editor");
    const value = editor.getByTestId("mcp-entry-value");
    expect(await value.getAttribute("placeholder")).toBe("Set · type to replace");
    // Another path on the same origin: still set. Another origin: to be entered again, and Save says so.
    await editor.getByTestId("mcp-url").fill("https://a.example/v2/mcp");
    expect(await editor.getByTestId("mcp-secrets-moved").count()).toBe(0);
    await editor.getByTestId("mcp-url").fill("https://b.example/mcp");
    await poll(() => editor.getByTestId("mcp-secrets-moved").textContent()).toContain("enter them again for this one");
    expect(await value.getAttribute("placeholder")).toBe("Secret value");
    await editor.getByTestId("mcp-save").click();
    await poll(() => editor.locator(".mcp-entry-problem").textContent()).toContain("Enter the secret value");
    await shot(page, "mcp-secret-moved-editor");
    await editor.getByRole("button", { name: "Cancel" }).click();

    // Moved another way (an import, settings.json by hand): the card says so, and the header is not sent.
    await rig.host.call("saveMcpServer", remote("https://b.example/mcp"), {});
    await page.reload();
    await openMcpSettings(page);
    await poll(() => card(page, "remote").getByTestId("mcp-moved-secrets").textContent())
      .toMatch(/Authorization was saved for this server's earlier address,\s+so Paddock does not send it here/);
    expect(await rig.host.call("mcpSecretStatus")).toContainEqual({ id: "remote", set: [], savedElsewhere: ["Authorization"] });
    await card(page, "remote").scrollIntoViewIfNeeded();
    await shot(page, "mcp-secret-moved-card");
    await rig.host.call("removeMcpServer", "remote");
    expect(problems).toEqual([]);
    await page.close();
  });
});

/** A finished tool card's result text (done cards are folded: this unfolds it). */
async function result(toolCard: ReturnType<Page["getByTestId"]>): Promise<string | null> {
  if ((await toolCard.locator(".tool-header").getAttribute("aria-expanded")) !== "true") await toolCard.locator(".tool-header").click();
  return toolCard.getByTestId("tool-output").textContent();
}

describe("a chat with MCP tools", () => {
  const echo = (message: string) => turn({ toolCalls: [{ name: "everything__echo", arguments: { message } }] });

  it("runs a trusted server's read-only tool at once, asks for it once the server is no longer trusted, and the chat's settings choose its servers", async () => {
    const { page, problems } = await openChat(rig.browser, rig.host);
    await page.getByTestId("chat-settings-button").click();
    expect(await page.getByTestId("chat-mcp-all").isChecked()).toBe(true);
    expect(await page.getByTestId("chat-mcp-servers").textContent()).toContain("This chat gets the tools of Everything, and of servers enabled later.");
    await shot(page, "mcp-chat-settings");
    await page.getByTestId("chat-settings").getByRole("button", { name: "Cancel" }).click();

    // Trusted, and echo says it only reads: no question.
    // Each tool turn is two replies: the call, then the answer after its result.
    await send(page, `Echo it ${echo("hello from MCP")}`);
    await replies(page, 2);
    const first = page.getByTestId("tool-card").last();
    expect(await first.getAttribute("data-status")).toBe("done");
    expect(await result(first)).toBe("Echo: hello from MCP");

    // No longer trusted: the same tool asks first.
    const { mcpServers } = await rig.host.call<Settings>("getSettings");
    await rig.host.call("saveMcpServer", { ...mcpServers.find((s) => s.id === "everything"), trusted: false }, {});
    // Resolves once the change has been applied (restart waits for it) and the server is ready again.
    expect(await rig.host.call<{ state: string }>("mcpRestart", "everything")).toMatchObject({ state: "ready" });
    await send(page, `Again ${echo("asked first")}`);
    await page.getByTestId("approval").waitFor({ timeout: 20_000 });
    await shot(page, "mcp-chat-approval");
    await page.getByTestId("approval-once").click();
    await replies(page, 4);
    const second = page.getByTestId("tool-card").last();
    expect(await result(second)).toBe("Echo: asked first");
    await shot(page, "mcp-chat-result");

    // The chat chooses no servers: its next request offers the model no MCP tools.
    await page.getByTestId("chat-settings-button").click();
    await page.getByTestId("chat-mcp-all").uncheck();
    await page.getByTestId("chat-mcp-everything").uncheck();
    expect(await page.getByTestId("chat-mcp-servers").textContent()).toContain("none: this chat gets no MCP tools");
    await page.getByTestId("chat-settings-save").click();
    const before = rig.server.requests.length;
    await send(page, "Which tools now?");
    await replies(page, 5);
    const tools = (rig.server.requests.slice(before).at(-1)?.body.tools ?? []) as { function: { name: string } }[];
    expect(tools.map((t) => t.function.name).filter((n) => n.startsWith("everything__"))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});
