/**
 * Custom endpoints as a newcomer meets them, nothing faked: the web host with real workers, the built page in
 * Chromium, loopback OpenAI-compatible servers (one that wants a key). Settings: the id follows the name, a bad id
 * says why next to the field and is never sent, "Test connection" says what happened in words and lists the
 * server's models to pick, Save saves. First-run setup: a server that cannot be reached says so and offers to go on
 * anyway; a running one is tested, its models offered, and the chat works. Each state is checked with axe-core (testkit/axe.ts). Screenshots: test-results/screens/endpoints-*.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Locator } from "playwright-core";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { expectAccessible } from "../../testkit/axe";
import { openChat, poll, replies, send, shot } from "../../testkit/chat-page";
import { privateBuildCopy, startWebHostProcess } from "../../testkit/web-host-process";
import { startOpenAIServer, type OpenAITestServer } from "../../src/web-host/openai-test-server";
import type { Settings } from "../../src/shared/settings/schema";

let rig: E2eRig;
/** "LM Studio": a server that wants a key. */
let studio: OpenAITestServer;
/** A base URL where nothing listens. */
let nowhere: string;

beforeAll(async () => {
  rig = await startE2eRig("endpoints");
  studio = await startOpenAIServer({ models: ["qwen2.5-coder-7b", "llama-3.2-3b", "phi-4"], apiKey: "sk-studio" });
  const closed = await startOpenAIServer();
  nowhere = closed.baseUrl;
  await closed.close();
});
afterAll(async () => {
  await studio?.close();
  await rig?.close();
});

/** The `aria-describedby` text of a field: what a screen reader says about it besides its label. */
const description = (field: Locator) =>
  field.evaluate((el) => (el.getAttribute("aria-describedby") ?? "").split(" ").map((id) => document.getElementById(id)?.textContent ?? "").join(" "));

describe("the custom endpoint editor in Settings", () => {
  it("derives the id from the name, says what is wrong next to a field, tests the server, picks its models and saves", async () => {
    const { browser, host } = rig;
    const { page, problems } = await openChat(browser, host);
    await page.getByTestId("open-settings").click();
    await page.getByTestId("settings-view").waitFor();
    await page.getByRole("button", { name: "Add endpoint", exact: true }).click();
    const endpoint = page.getByTestId("custom-provider").last();

    // The id follows the name.
    await endpoint.getByTestId("endpoint-name").fill("LM Studio");
    await poll(() => endpoint.getByTestId("endpoint-id").inputValue()).toBe("lm-studio");
    expect(await endpoint.locator("legend").textContent()).toBe("LM Studio");

    // An id typed with a space: said in words next to the field, tied to it for screen readers.
    const id = endpoint.getByTestId("endpoint-id");
    await id.fill("lm studio");
    const idError = endpoint.getByTestId("endpoint-id-error");
    await poll(() => idError.textContent()).toBe("Use only letters, digits, dots, dashes and underscores, starting with a letter or digit (no spaces), like “lm-studio”.");
    expect(await id.getAttribute("aria-invalid")).toBe("true");
    expect(await description(id)).toContain("no spaces");
    await endpoint.getByTestId("endpoint-base-url").fill(studio.baseUrl);
    await endpoint.scrollIntoViewIfNeeded();
    await shot(page, "endpoints-inline-error");
    await expectAccessible(page, "Settings, an endpoint with a bad id");

    // Save refuses, next to the button, naming the field; nothing reaches main; the keyboard lands on the field.
    await page.getByRole("button", { name: "Save endpoints" }).click();
    const saveError = page.getByTestId("endpoints-save-error");
    await poll(() => saveError.textContent()).toBe("Not saved: fix this field first (LM Studio: Id).");
    expect(await saveError.textContent()).not.toMatch(/pattern/);
    expect(await id.evaluate((el) => el === document.activeElement)).toBe(true);
    expect((await host.call<Settings>("getSettings")).customProviders.map((p) => p.id)).toEqual(["loopback"]);
    await shot(page, "endpoints-save-refused");
    await saveError.scrollIntoViewIfNeeded();
    await shot(page, "endpoints-save-refused-button");
    await id.fill("lm-studio");
    expect(await idError.count()).toBe(0);
    expect(await saveError.count()).toBe(0);

    // Test connection: the server wants a key, then lists its models once the key is typed.
    const result = endpoint.getByTestId("probe-result");
    await endpoint.getByTestId("endpoint-test").click();
    await poll(() => result.getAttribute("data-kind")).toBe("unauthorized");
    expect(await result.textContent()).toMatch(/^127\.0\.0\.1:\d+ wants an API key \(401 Unauthorized\)\. Enter the key and test again\.$/);
    await shot(page, "endpoints-test-401");
    await endpoint.getByTestId("endpoint-key-input").fill("sk-studio");
    expect(await result.textContent()).toBe(""); // the old answer was about no key
    await endpoint.getByTestId("endpoint-test").click();
    await poll(() => result.getAttribute("data-kind")).toBe("ok");
    expect(await result.textContent()).toMatch(/^Reached the server at 127\.0\.0\.1:\d+: 3 models\.$/);
    const found = endpoint.getByTestId("probe-models");
    expect(await found.getByRole("checkbox").count()).toBe(3);
    await found.getByLabel("llama-3.2-3b").check();
    await poll(() => endpoint.getByTestId("endpoint-models").inputValue()).toBe("llama-3.2-3b");
    await found.getByLabel("qwen2.5-coder-7b").check();
    await poll(() => endpoint.getByTestId("endpoint-models").inputValue()).toBe("llama-3.2-3b, qwen2.5-coder-7b");
    await endpoint.scrollIntoViewIfNeeded();
    await shot(page, "endpoints-models-found");
    await expectAccessible(page, "Settings, an endpoint tested, light");
    await page.emulateMedia({ colorScheme: "dark" });
    await shot(page, "endpoints-models-found-dark");
    await expectAccessible(page, "Settings, an endpoint tested, dark");
    await page.emulateMedia({ colorScheme: "light" });

    // Saved: the endpoint with its derived id and picked models, the key bound to its address.
    await page.getByRole("button", { name: "Save endpoints" }).click();
    await page.getByTestId("endpoints-saved").waitFor();
    await poll(async () => (await host.call<Settings>("getSettings")).customProviders.find((p) => p.id === "lm-studio")).toEqual({
      id: "lm-studio", name: "LM Studio", baseUrl: studio.baseUrl, models: ["llama-3.2-3b", "qwen2.5-coder-7b"],
    });
    await poll(() => endpoint.getByTestId("key-status").textContent()).toBe(`Key saved for ${new URL(studio.baseUrl).origin}`);
    expect(await endpoint.getByTestId("endpoint-id").getAttribute("readonly")).not.toBeNull();

    // Tested again with the saved key (the page never had it), then pointed where nothing listens.
    await endpoint.getByTestId("endpoint-test").click();
    await poll(() => result.getAttribute("data-kind")).toBe("ok");
    expect(studio.listRequests.at(-1)?.headers.authorization).toBe("Bearer sk-studio");
    await endpoint.getByTestId("endpoint-base-url").fill(nowhere);
    await endpoint.getByTestId("endpoint-test").click();
    await poll(() => result.getAttribute("data-kind")).toBe("unreachable");
    expect(await result.textContent()).toMatch(/^Could not reach 127\.0\.0\.1:\d+: nothing is listening there \(connection refused\)\. Check the address and that the server is running\.$/);
    await endpoint.scrollIntoViewIfNeeded();
    await shot(page, "endpoints-test-unreachable");
    // The key went to main and left the page: the field is empty again, and the page never held the saved key.
    expect(await endpoint.getByTestId("endpoint-key-input").inputValue()).toBe("");
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});

describe("first-run setup", () => {
  it("tests the local server before finishing: a failure says why and offers to go on anyway; a running one is used", async () => {
    // The rig's copy of the build (one folder per test process; the rig removes it).
    const build = privateBuildCopy();
    const dataDir = mkdtempSync(join(tmpdir(), "paddock-e2e-setup-"));
    const local = await startOpenAIServer({ models: ["paddock-test", "other-model"] });
    const host = await startWebHostProcess(["--build-dir", build.dir, "--data-dir", dataDir, "--integrity-check"]);
    try {
      const { id } = await host.call<{ id: string }>("createSession");
      const page = await rig.browser.newPage({ viewport: { width: 1100, height: 760 }, colorScheme: "light" });
      const problems: string[] = [];
      page.on("pageerror", (e) => problems.push(e.message));
      await page.goto(host.pageUrl(id));
      const card = page.getByTestId("setup-local");
      await card.waitFor();

      // Nothing listens there: the test fails in words, and the user can fix it or go on anyway.
      await card.getByTestId("setup-base-url").fill(nowhere);
      await card.getByRole("button", { name: "Add endpoint and start" }).click();
      const result = card.getByTestId("probe-result");
      await poll(() => result.getAttribute("data-kind")).toBe("unreachable");
      expect(await result.textContent()).toMatch(/^Could not reach 127\.0\.0\.1:\d+: nothing is listening there/);
      await card.getByTestId("setup-anyway").waitFor();
      expect(await card.getByRole("button", { name: "Add anyway and start" }).isEnabled()).toBe(true);
      expect((await host.call<Settings>("getSettings")).customProviders).toEqual([]);
      await shot(page, "endpoints-setup-unreachable");
      await expectAccessible(page, "setup, the server could not be reached");
      await page.setViewportSize({ width: 600, height: 900 });
      await card.scrollIntoViewIfNeeded();
      await shot(page, "endpoints-setup-unreachable-600");
      await page.setViewportSize({ width: 1100, height: 760 });

      // The right server, typed without its /v1: tested, its models offered, saved at the address they are at.
      await card.getByTestId("setup-base-url").fill(local.baseUrl.replace(/\/v1$/, ""));
      expect(await card.getByTestId("setup-anyway").count()).toBe(0);
      await card.getByTestId("setup-test").click();
      await poll(() => result.getAttribute("data-kind")).toBe("ok");
      expect(await result.textContent()).toContain(`Its models are at ${local.baseUrl}`);
      await card.getByTestId("setup-model").selectOption("other-model");
      await shot(page, "endpoints-setup-tested");
      await card.getByRole("button", { name: "Add endpoint and start" }).click();
      await poll(() => page.getByTestId("composer").count()).toBe(1);
      const settings = await host.call<Settings>("getSettings");
      expect(settings.customProviders).toEqual([{ id: "local-models", name: "Local models", baseUrl: local.baseUrl, models: ["paddock-test", "other-model"] }]);
      expect(settings).toMatchObject({ onboarded: true, defaultModel: { provider: "custom:local-models", id: "other-model" } });

      await poll(() => page.getByTestId("composer").getAttribute("placeholder")).toBe("Message Paddock…");
      await send(page, "Hello from setup");
      await replies(page, 1);
      expect(local.requests.at(-1)?.body.model).toBe("other-model");
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await host.stop();
      await local.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
