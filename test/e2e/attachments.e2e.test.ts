/**
 * Attachments and a chat's own settings in the browser host, nothing faked: the web host with real workers, the built
 * page in Chromium, the loopback model server. Files come as a user gives them (the paperclip's picker, a paste, a
 * drop); the loopback server's requests show what the model got. Screenshots go to test-results/screens/.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { OpenAITestServer } from "../../src/web-host/openai-test-server";
import type { WebHostProcess } from "../../testkit/web-host-process";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { dropFiles, openChat, pasteFiles, pickFiles, poll, replies, send, shot } from "../../testkit/chat-page";
import { bandsPng } from "../../testkit/png";
import { pickModel } from "../../testkit/model-picker";
import type { CustomProvider, Settings } from "../../src/shared/settings/schema";

let rig: E2eRig;
let browser: Browser;
let server: OpenAITestServer;
let host: WebHostProcess;

const VISION = { provider: "custom:vision", id: "seeing-model" };
const bluePng = bandsPng(240, 160);
const redPng = bandsPng(120, 120, [[220, 38, 38], [250, 204, 21]]);

beforeAll(async () => {
  rig = await startE2eRig("attach", { models: ["test-model", "seeing-model"] });
  ({ browser, server, host } = rig);
  // A second endpoint on the same server whose model reads images, beside the host's text-only "Loopback".
  const settings = await host.call<Settings>("getSettings");
  const vision: CustomProvider = { id: "vision", name: "Vision", baseUrl: server.baseUrl, models: ["seeing-model"], images: true };
  await host.call("updateSettings", { customProviders: [...settings.customProviders, vision] });
});

afterAll(() => rig?.close());

/** Whether every image in the element has loaded with real pixels. */
const imagesLoaded = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((imgs) => imgs.length > 0 && imgs.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0));

describe("attachments in the browser", () => {
  it("picks, pastes and drops files; thumbnails can be removed; the model that reads images gets them; the message shows them", async () => {
    const { page, problems } = await openChat(browser, host);
    await pickModel(page, VISION);
    await pickFiles(page, [{ name: "bands.png", mimeType: "image/png", bytes: bluePng }]);
    await pasteFiles(page, [{ name: "image.png", mimeType: "image/png", bytes: redPng }]);
    await dropFiles(page, [{ name: "notes.md", mimeType: "text/markdown", bytes: Buffer.from("# Notes\n\nShip on Friday.\n") }]);
    const chips = page.getByTestId("composer-attachment");
    await poll(() => chips.count()).toBe(3);
    await poll(() => imagesLoaded(page, "[data-testid=composer-attachment] img")).toBe(true);
    await page.getByTestId("composer").fill("What do you see?");
    await shot(page, "attachments-composer");
    await page.emulateMedia({ colorScheme: "dark" });
    await shot(page, "attachments-composer-dark");
    await page.emulateMedia({ colorScheme: "light" });

    await page.getByRole("button", { name: "Remove image.png" }).click();
    await poll(() => chips.count()).toBe(2);
    await page.getByTestId("composer").press("Enter");
    await replies(page, 1);
    expect(await chips.count()).toBe(0);

    // The model got the picked image (bytes unchanged) and the text file inlined, ahead of the text.
    const user = (server.requests.at(-1)!.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === "user").at(-1)!;
    expect(user.content).toEqual([
      { type: "image_url", image_url: { url: `data:image/png;base64,${bluePng.toString("base64")}` } },
      { type: "text", text: '<file name="notes.md">\n# Notes\n\nShip on Friday.\n\n</file>' },
      { type: "text", text: "What do you see?" },
    ]);
    const sent = page.getByTestId("message-user").last();
    await poll(() => sent.getByTestId("message-attachment").count()).toBe(2);
    await poll(() => imagesLoaded(page, "[data-testid=message-user] img")).toBe(true);
    expect(await sent.textContent()).toContain("What do you see?");
    await shot(page, "attachments-sent");

    // The text file opens in place; the image opens whole, and Esc closes it.
    await sent.getByRole("button", { name: /notes\.md/ }).click();
    await poll(() => sent.getByTestId("attachment-preview").textContent()).toContain("Ship on Friday.");
    await sent.locator(".attachment-image button").click();
    const viewer = page.getByRole("dialog", { name: "bands.png" });
    await viewer.waitFor();
    await poll(() => imagesLoaded(page, ".image-viewer img")).toBe(true);
    await shot(page, "attachments-viewer");
    await page.keyboard.press("Escape");
    await viewer.waitFor({ state: "detached" });

    // Another page (or a reload) fetches the image from the session's folder.
    const again = await openChat(browser, host, (await page.evaluate(() => new URL(location.href).searchParams.get("session")))!);
    await poll(() => imagesLoaded(again.page, "[data-testid=message-user] img")).toBe(true);
    expect(await again.page.getByTestId("message-attachment").count()).toBe(2);
    expect(problems).toEqual([]);
    expect(again.problems).toEqual([]);
    await again.page.close();
    await page.close();
  }, 60_000);

  it("a model that reads text only: the composer says so, sending is refused with the reason, and nothing is lost", async () => {
    const { page, problems } = await openChat(browser, host);
    const before = server.requests.length;
    await pickFiles(page, [{ name: "photo.png", mimeType: "image/png", bytes: redPng }]);
    await page.getByTestId("images-refused").waitFor();
    expect(await page.getByTestId("images-refused").textContent()).toBe(
      "test-model (Loopback) does not read images: remove the images, or choose a model that does.",
    );
    await send(page, "Describe it");
    const failure = page.locator(".composer-failure").first();
    await poll(() => failure.textContent()).toContain("Not sent: test-model (Loopback) does not read images");
    expect(await page.getByTestId("composer").inputValue()).toBe("Describe it");
    expect(await page.getByTestId("composer-attachment").count()).toBe(1);
    expect(await page.getByTestId("images-refused").count()).toBe(0); // the refusal says it once
    expect(server.requests.length).toBe(before);

    // Too large, and not a kind that can go: each file gets its own sentence.
    const huge = Buffer.alloc(11 * 1024 * 1024);
    huge.set(redPng);
    await pickFiles(page, [
      { name: "huge.png", mimeType: "image/png", bytes: huge },
      { name: "archive.zip", mimeType: "application/zip", bytes: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0]) },
    ]);
    await poll(() => page.getByTestId("attachment-problems").textContent()).toBe(
      "huge.png is 11 MB: images can be at most 10 MB. archive.zip cannot be attached: only PNG, JPEG, GIF and WebP images and text files can be attached.✕",
    );
    await shot(page, "attachments-refused");
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("a chat's own settings in the browser", () => {
  it("instructions, temperature and max output tokens from the header reach the model, and stay with the chat", async () => {
    const { page, sessionId, problems } = await openChat(browser, host);
    await page.getByTestId("chat-settings-button").click();
    await page.getByTestId("chat-instructions").fill("You are a ship's cat. Answer in meows.");
    await page.getByTestId("temperature-default").uncheck();
    await page.getByTestId("temperature-input").fill("0.4");
    await page.getByTestId("max-tokens-input").fill("300");
    await shot(page, "chat-settings");
    await page.emulateMedia({ colorScheme: "dark" });
    await shot(page, "chat-settings-dark");
    await page.emulateMedia({ colorScheme: "light" });
    await page.getByTestId("chat-settings-save").click();
    await page.getByTestId("chat-settings").waitFor({ state: "detached" });
    await page.locator(".chat-settings-dot").waitFor();

    await send(page, "Hello?");
    await replies(page, 1);
    const body = server.requests.at(-1)!.body;
    expect(body.messages[0]).toEqual({ role: "system", content: "You are a ship's cat. Answer in meows." });
    expect(body.temperature).toBe(0.4);
    expect(body.max_tokens).toBe(300);

    // A reload shows them as saved; Reset goes back to the defaults.
    await page.close();
    const reopened = await openChat(browser, host, sessionId);
    await reopened.page.getByTestId("chat-settings-button").click();
    expect(await reopened.page.getByTestId("chat-instructions").inputValue()).toBe("You are a ship's cat. Answer in meows.");
    expect(await reopened.page.getByTestId("temperature-input").inputValue()).toBe("0.4");
    expect(await reopened.page.getByTestId("max-tokens-input").inputValue()).toBe("300");
    await reopened.page.getByTestId("chat-settings-reset").click();
    await reopened.page.getByTestId("chat-settings").waitFor({ state: "detached" });
    await send(reopened.page, "And now?");
    await replies(reopened.page, 2);
    const after = server.requests.at(-1)!.body;
    expect(after.messages[0].role).not.toBe("system");
    expect(after.temperature).toBeUndefined();
    expect(problems).toEqual([]);
    expect(reopened.problems).toEqual([]);
    await reopened.page.close();
  });

  it("Settings: default instructions reach a new chat; an endpoint's context window, output limit and images are editable", async () => {
    const { page, problems } = await openChat(browser, host);
    await page.getByTestId("open-settings").click();
    await page.getByTestId("settings-view").waitFor();
    const instructions = page.getByTestId("default-instructions");
    await instructions.fill("Always end with a haiku.");
    await instructions.blur();
    await poll(async () => (await host.call<Settings>("getSettings")).defaultSystemPrompt).toBe("Always end with a haiku.");

    const vision = page.getByTestId("custom-provider").filter({ hasText: "Vision" });
    await vision.getByTestId("endpoint-context-window").fill("65536");
    await vision.getByTestId("endpoint-max-tokens").fill("2048");
    await vision.scrollIntoViewIfNeeded();
    await shot(page, "settings-endpoint-limits");
    await page.getByRole("button", { name: "Save endpoints" }).click();
    await poll(async () => (await host.call<Settings>("getSettings")).customProviders.find((p) => p.id === "vision")).toMatchObject({
      contextWindow: 65536, maxTokens: 2048, images: true,
    });
    await page.getByTestId("settings-view").getByRole("button", { name: "Done" }).click();

    const fresh = await openChat(browser, host);
    await send(fresh.page, "Hi");
    await replies(fresh.page, 1);
    expect(server.requests.at(-1)!.body.messages[0]).toEqual({ role: "system", content: "Always end with a haiku." });
    await host.call("updateSettings", { defaultSystemPrompt: "" });
    expect(problems).toEqual([]);
    expect(fresh.problems).toEqual([]);
    await fresh.page.close();
    await page.close();
  });
});
