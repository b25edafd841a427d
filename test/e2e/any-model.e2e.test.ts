/**
 * Any model, not only the catalogue's (issue 22 §2), as a user meets it, nothing faked: the web host with real
 * workers, the built page in Chromium, the loopback server standing in for Groq (pi's models.json routes Groq to it,
 * as a pi user routes a provider through a proxy).
 * - Typing a model id the list lacks offers "Use <id> with <provider>"; picking it adds it and the chat's request
 *   reaches the server with that very id.
 * - Its limits are edited in Settings and kept per provider and id.
 * - "Refresh models" asks Groq for its list and marks the ids the catalogue lacks; one click adds one.
 * - The thinking picker offers "Maximum" only where the model has it.
 * - A chat naming a retired model offers its closest current model with one click.
 * - pi's models.json adds a provider of its own (its key from an environment variable, sent only there); a malformed
 *   one is said in Settings and loses nothing else.
 * Screenshots: test-results/screens/any-model/.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { openChat, poll, replies, SCREENS, send, shot as pageShot } from "../../testkit/chat-page";
import { pickModel } from "../../testkit/model-picker";
import { expectAccessible } from "../../testkit/axe";
import type { ModelOption } from "../../src/shared/protocol/app-api";
import type { Settings } from "../../src/shared/settings/schema";

const SHOTS = join(SCREENS, "any-model");
const piFolder = mkdtempSync(join(tmpdir(), "paddock-e2e-pi-agent-"));
/** A Groq model the catalogue knows, which the loopback "Groq" also lists. */
let knownGroq: string;
let rig: E2eRig;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  rig = await startE2eRig("any-model", { models: ["llama-3.3-70b-versatile", "llama-5-70b-preview", "qwen4-32b"] }, { PI_CODING_AGENT_DIR: piFolder, PADDOCK_E2E_LOCAL_KEY: "sk-local-from-env" });
  // pi's models.json, read again whenever the page asks for the models: Groq lives on the loopback server here.
  writeFileSync(join(piFolder, "models.json"), JSON.stringify({ providers: { groq: { baseUrl: rig.server.baseUrl } } }));
  await rig.host.call("setApiKey", "groq", "sk-groq-test");
  await rig.host.call("setApiKey", "anthropic", "sk-ant-test");
  const models = await rig.host.call<ModelOption[]>("listModels");
  knownGroq = models.find((m) => m.provider === "groq" && m.id === "llama-3.3-70b-versatile")!.id;
});
afterAll(async () => {
  await rig?.close();
  rmSync(piFolder, { recursive: true, force: true });
});

const settings = () => rig.host.call<Settings>("getSettings");

/**
 * A screenshot; `openSelect` (a test id) shows that native select's options as a list while it is taken (a native
 * drop-down is drawn outside the page, where screenshots do not reach).
 */
async function shot(page: Page, name: string, dir: string, openSelect?: string) {
  const select = openSelect ? page.getByTestId(openSelect) : undefined;
  await select?.evaluate((el: HTMLSelectElement) => {
    el.size = el.options.length;
    el.style.cssText = "position: relative; z-index: 10; height: auto; align-self: flex-start";
  });
  await pageShot(page, name, dir);
  await select?.evaluate((el: HTMLSelectElement) => {
    el.removeAttribute("size");
    el.style.cssText = "";
  });
}
const typed = (page: Page, provider: string, id: string) => page.locator(`[role=option][data-typed="${JSON.stringify([provider, id]).replace(/"/g, '\\"')}"]`);

async function openModelsSettings(page: Page) {
  await page.getByTestId("open-settings").click();
  await page.getByTestId("settings-view").waitFor();
}

describe("a model id the catalogue lacks", () => {
  it("typed in the picker, is offered for each provider with a key, and the chat's request carries that id", async () => {
    const { page, problems } = await openChat(rig.browser, rig.host);
    await page.getByTestId("model-picker").click();
    const search = page.getByTestId("model-picker-search");

    // The brief's example: Anthropic's models look most like it, so Anthropic is offered first.
    await search.fill("claude-opus-5-6");
    await typed(page, "anthropic", "claude-opus-5-6").waitFor();
    expect(await page.getByTestId("model-picker-typed").getByRole("option").allTextContents()).toEqual([
      "+Use claude-opus-5-6 with Anthropic", "+Use claude-opus-5-6 with Groq",
    ]);
    await shot(page, "picker-typed-id", SHOTS);
    await expectAccessible(page, "the model picker offering a typed id");

    // Naming the provider narrows the offer to it; the keys reach it like any option.
    await search.fill("llama-5-70b-preview groq");
    expect(await page.getByTestId("model-picker-typed").getByRole("option").allTextContents()).toEqual(["+Use llama-5-70b-preview with Groq"]);
    await search.press("ArrowDown");
    await shot(page, "picker-typed-named-provider", SHOTS);
    await search.press("Enter");
    await page.getByTestId("model-picker-popover").waitFor({ state: "detached" });
    await poll(() => page.getByTestId("model-picker").textContent()).toContain("llama-5-70b-preview");
    expect((await settings()).addedModels).toEqual([{ provider: "groq", id: "llama-5-70b-preview" }]);

    await send(page, "hello from a typed model");
    await replies(page, 1);
    const request = rig.server.requests.at(-1)!;
    expect(request.body.model).toBe("llama-5-70b-preview");
    expect(request.headers.authorization).toBe("Bearer sk-groq-test");
    await shot(page, "chat-with-typed-model", SHOTS);

    // Listed now: the picker shows it under Groq, and typing it again offers nothing new.
    await page.getByTestId("model-picker").click();
    await search.fill("llama-5-70b-preview");
    await page.locator(`[role=option][data-value="${JSON.stringify(["groq", "llama-5-70b-preview"]).replace(/"/g, '\\"')}"]`).waitFor();
    expect(await page.getByTestId("model-picker-typed").count()).toBe(0);
    await search.press("Escape");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("its limits are edited in Settings, kept per provider and id, and reach the chat's model", async () => {
    const { page, problems } = await openChat(rig.browser, rig.host);
    await openModelsSettings(page);
    const row = page.locator(`[data-testid=added-model][data-value="${JSON.stringify(["groq", "llama-5-70b-preview"]).replace(/"/g, '\\"')}"]`);
    await row.scrollIntoViewIfNeeded();
    // It starts with its closest Groq model's limits.
    const closest = (await rig.host.call<ModelOption[]>("listModels")).find((m) => m.id === knownGroq)!;
    expect(await row.getByTestId("added-context").inputValue()).toBe(String(closest.contextWindow));
    await row.getByTestId("added-context").fill("65536");
    await row.getByTestId("added-max-tokens").focus();
    await poll(async () => (await settings()).addedModels?.[0]?.contextWindow).toBe(65536);
    await row.getByTestId("added-max-tokens").fill("4096");
    await row.getByLabel("Reads images").focus();
    await poll(async () => (await settings()).addedModels?.[0]?.maxTokens).toBe(4096);
    // Saved at once; the box shows main's answer (the model as resolved from then on).
    await row.getByLabel("Reads images").click();
    await poll(async () => (await settings()).addedModels?.[0]?.images).toBe(true);
    await poll(() => row.getByLabel("Reads images").isChecked()).toBe(true);
    await shot(page, "settings-added-model-limits", SHOTS);
    const listed = (await rig.host.call<ModelOption[]>("listModels")).find((m) => m.provider === "groq" && m.id === "llama-5-70b-preview");
    expect(listed).toMatchObject({ contextWindow: 65536, maxTokens: 4096, images: true, origin: "added" });
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("Refresh models", () => {
  it("asks the provider through main and marks the ids the catalogue lacks; one click adds one to the picker", async () => {
    const { page, problems } = await openChat(rig.browser, rig.host);
    await openModelsSettings(page);
    const groq = page.locator("[data-testid=provider-models][data-provider=groq]");
    await groq.scrollIntoViewIfNeeded();
    const asked = rig.server.listRequests.length;
    await groq.getByTestId("refresh-models").click();
    await poll(() => groq.getByTestId("refresh-result").textContent())
      .toBe("Groq lists 3 models. 2 are not in the catalogue; the other 1 is in the picker already.");
    expect(rig.server.listRequests.slice(asked)).toEqual([expect.objectContaining({ body: "/v1/models", headers: expect.objectContaining({ authorization: "Bearer sk-groq-test" }) })]);
    expect(await groq.getByTestId("listed-model").evaluateAll((items) => items.map((i) => i.getAttribute("data-id")))).toEqual(["llama-5-70b-preview", "qwen4-32b"]);
    // The typed one is added already; the other gets an Add button.
    expect(await groq.locator("[data-id=llama-5-70b-preview]").getByTestId("listed-model-added").count()).toBe(1);
    await shot(page, "settings-refresh-models", SHOTS);
    await expectAccessible(page, "Settings, a provider's model list refreshed, with added models");
    await groq.locator("[data-id=qwen4-32b]").getByTestId("listed-model-add").click();
    await groq.locator("[data-id=qwen4-32b]").getByTestId("listed-model-added").waitFor();
    expect((await settings()).addedModels?.map((m) => m.id)).toEqual(["llama-5-70b-preview", "qwen4-32b"]);

    await page.close();

    const chat = await openChat(rig.browser, rig.host);
    await pickModel(chat.page, { provider: "groq", id: "qwen4-32b" });
    await send(chat.page, "and from a listed one");
    await replies(chat.page, 1);
    expect(rig.server.requests.at(-1)!.body.model).toBe("qwen4-32b");
    expect([...problems, ...chat.problems]).toEqual([]);
    await chat.page.close();
  });
});

describe("thinking levels", () => {
  it("offers Maximum only for a model that has it", async () => {
    const { page, problems } = await openChat(rig.browser, rig.host);
    const levels = () => page.getByTestId("thinking-picker").locator("option").evaluateAll((o) => o.map((e) => (e as HTMLOptionElement).value));
    await pickModel(page, { provider: "anthropic", id: "claude-opus-4-7" });
    await poll(levels).toContain("max");
    expect(await page.getByTestId("thinking-picker").locator("option[value=max]").textContent()).toBe("Maximum");
    await page.getByTestId("thinking-picker").selectOption("max");
    await shot(page, "thinking-max", SHOTS, "thinking-picker");
    // A model without it: not offered, and the picker shows what pi-ai asks that model for instead.
    await pickModel(page, { provider: "anthropic", id: "claude-sonnet-4-5" });
    await poll(levels).not.toContain("max");
    expect(await levels()).toEqual(expect.arrayContaining(["off", "high"]));
    expect(await page.getByTestId("thinking-picker").inputValue()).toBe("high");
    await shot(page, "thinking-without-max", SHOTS, "thinking-picker");
    // The chat's own level is kept for the next model that has it.
    await pickModel(page, { provider: "anthropic", id: "claude-opus-4-7" });
    await poll(() => page.getByTestId("thinking-picker").inputValue()).toBe("max");
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("a chat naming a retired model", () => {
  it("says so once and switches to the closest current model with one click", async () => {
    const before = (await settings()).defaultModel ?? null;
    await rig.host.call("updateSettings", { defaultModel: { provider: "anthropic", id: "claude-opus-4-1" } });
    try {
      // Not openChat: this chat has no model, so its composer asks for one.
      const { id } = await rig.host.call<{ id: string }>("createSession");
      const page = await rig.browser.newPage({ viewport: { width: 1100, height: 720 }, colorScheme: "light" });
      const problems: string[] = [];
      page.on("pageerror", (e) => problems.push(e.message));
      await page.goto(rig.host.pageUrl(id));
      await poll(() => page.getByTestId("composer").getAttribute("placeholder")).toBe("Choose a model above to start");
      const notice = page.getByTestId("notice").filter({ hasText: 'no longer offers the model "claude-opus-4-1"' });
      await notice.waitFor();
      const closest = /The closest current model is (.+) \((claude-opus-[\w-]+)\)/.exec((await notice.textContent()) ?? "")!;
      const button = notice.getByTestId("notice-use-model");
      expect(await button.textContent()).toBe(`Use ${closest[1]}`);
      await shot(page, "retired-model-notice", SHOTS);
      await expectAccessible(page, "a chat naming a retired model");
      await button.click();
      await notice.waitFor({ state: "detached" });
      await poll(() => page.getByTestId("model-picker").textContent()).toContain(closest[1]);
      await poll(() => page.getByTestId("composer").getAttribute("placeholder")).toBe("Message Paddock…");
      await shot(page, "retired-model-switched", SHOTS);
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await rig.host.call("updateSettings", { defaultModel: before });
    }
  });
});

describe("pi's models.json", () => {
  it("adds a provider of its own, whose key (from the environment) goes only to it; a malformed file is said in Settings and loses nothing else", async () => {
    const file = join(piFolder, "models.json");
    writeFileSync(file, JSON.stringify({
      providers: {
        groq: { baseUrl: rig.server.baseUrl },
        local: { name: "Local server", baseUrl: rig.server.baseUrl, api: "openai-completions", apiKey: "$PADDOCK_E2E_LOCAL_KEY", models: [{ id: "local-coder", contextWindow: 32768 }] },
        broken: { api: "openai-completions", models: [{ id: "x" }] },
      },
    }));
    const { page, problems } = await openChat(rig.browser, rig.host);
    await page.getByTestId("model-picker").click();
    await page.getByTestId("model-picker-search").fill("local-coder");
    await shot(page, "picker-pi-models-json", SHOTS);
    await page.getByTestId("model-picker-search").press("Escape");
    await pickModel(page, { provider: "pi:local", id: "local-coder" });
    await send(page, "hello through pi's file");
    await replies(page, 1);
    const request = rig.server.requests.at(-1)!;
    expect(request.body.model).toBe("local-coder");
    expect(request.headers.authorization).toBe("Bearer sk-local-from-env");

    await openModelsSettings(page);
    const panel = page.getByTestId("pi-models-file");
    await panel.scrollIntoViewIfNeeded();
    await poll(() => panel.getByTestId("pi-models-summary").textContent())
      .toBe("It adds 1 model, and sends Groq’s requests (with its key) to the address it gives; some parts could not be used (below).");
    expect(await panel.getByTestId("pi-models-problems").textContent()).toBe('Provider "broken": a new provider needs a "baseUrl" (http or https): skipped.');
    expect(await panel.textContent()).not.toContain("sk-local-from-env");
    await shot(page, "settings-pi-models-json", SHOTS);

    writeFileSync(file, '{ "providers": { "groq": ');
    await panel.getByTestId("pi-models-reread").click();
    await poll(() => panel.getByTestId("pi-models-summary").textContent()).toBe("It could not be used (below): nothing else is affected.");
    expect(await panel.getByTestId("pi-models-problems").textContent()).toMatch(/models\.json is not valid JSON \(.+\): none of its models are offered\.$/);
    await shot(page, "settings-pi-models-json-malformed", SHOTS);
    await expectAccessible(page, "Settings, pi's models.json malformed");
    // Nothing else is lost: the catalogue's and the added models are all still there.
    const models = await rig.host.call<ModelOption[]>("listModels");
    expect(models.filter((m) => m.origin === "added").map((m) => m.id)).toEqual(["llama-5-70b-preview", "qwen4-32b"]);
    expect(models.some((m) => m.provider === "pi:local")).toBe(false);
    expect(models.some((m) => m.provider === "anthropic")).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });
});
