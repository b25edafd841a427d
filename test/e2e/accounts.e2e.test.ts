/**
 * Accounts and cloud providers in Settings, nothing faked but the provider's own servers: the web host with real
 * workers, the built page in Chromium, and a stand-in authorization server (src/web-host/oauth-test-server.ts) in
 * place of github.com for GitHub Copilot's sign-in. Cloud fields: bad values are refused in words and nothing is
 * saved; saved secrets are write-only. Sign-in: signed out, a question, a device code entered on the server's own
 * page in a browser tab, signed in, signed out; Anthropic's note on extra usage. The welcome setup names providers as
 * Settings does. Each state is checked with axe-core. Screenshots: test-results/screens/accounts-*.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startE2eRig, type E2eRig } from "../../testkit/e2e-rig";
import { expectAccessible } from "../../testkit/axe";
import { openChat, poll, send, shot } from "../../testkit/chat-page";
import { startOAuthTestServer, type OAuthTestServer } from "../../src/web-host/oauth-test-server";
import type { ProviderStatus } from "../../src/shared/protocol/app-api";
import { ANTHROPIC_EXTRA_USAGE } from "../../src/main/accounts/oauth-providers";
import type { Settings } from "../../src/shared/settings/schema";

let rig: E2eRig;
let oauth: OAuthTestServer;
let files: string;

beforeAll(async () => {
  oauth = await startOAuthTestServer();
  rig = await startE2eRig("accounts", undefined, undefined, ["--oauth-test-url", oauth.url]);
  files = mkdtempSync(join(tmpdir(), "paddock-e2e-accounts-files-"));
});
afterAll(async () => {
  await rig?.close();
  await oauth?.close();
  if (files) rmSync(files, { recursive: true, force: true });
});

/** Settings open at "Models & keys", the providers without a key listed and filtered to `filter`. */
async function providerRow(page: Page, filter: string, provider: string) {
  if ((await page.getByTestId("settings-view").count()) === 0) {
    await page.getByTestId("open-settings").click();
    await page.getByTestId("settings-view").waitFor();
  }
  const configured = page.getByTestId(`api-key-${provider}`);
  if ((await configured.count()) === 0) {
    if ((await page.getByTestId("provider-filter").count()) === 0) await page.getByTestId("show-all-providers").click();
    await page.getByTestId("provider-filter").fill(filter);
  }
  await page.getByTestId(`api-key-${provider}`).waitFor();
  return { key: page.getByTestId(`api-key-${provider}`), extras: page.getByTestId(`provider-extras-${provider}`) };
}

const status = async (provider: string) => (await rig.host.call<ProviderStatus[]>("providerStatus")).find((p) => p.provider === provider)!;

describe("cloud providers' fields in Settings", () => {
  it("Bedrock: a bad region is refused in words and nothing saved; then region, profile and secret key are saved, the secret write-only", async () => {
    const { page, problems } = await openChat(rig.browser, rig.host);
    const { extras } = await providerRow(page, "bedrock", "amazon-bedrock");
    const cloud = extras.getByTestId("cloud-amazon-bedrock");
    await cloud.locator("summary").scrollIntoViewIfNeeded();
    await shot(page, "accounts-bedrock-closed");
    await cloud.locator("summary").click();
    await cloud.getByLabel("Region").fill("mars-1");
    await cloud.getByLabel("Secret access key").fill("wJalrXUtnFEMI/K7MDENG");
    await cloud.getByRole("button", { name: "Save Amazon Bedrock settings" }).click();
    await poll(() => cloud.getByTestId("cloud-error").textContent()).toMatch(/Region: "mars-1" is not an AWS region such as us-east-1/);
    await shot(page, "accounts-bedrock-refused");
    await expectAccessible(page, "Settings, Bedrock's fields refused");
    expect((await rig.host.call<Settings>("getSettings")).cloudProviders).toBeUndefined();
    expect((await status("amazon-bedrock")).cloud?.secretsSet).toEqual([]);

    await cloud.getByLabel("Region").fill("eu-west-3");
    await cloud.getByLabel("AWS profile").fill("work");
    await cloud.getByLabel("Access key ID").fill("AKIAEXAMPLE12345");
    await cloud.getByRole("button", { name: "Save Amazon Bedrock settings" }).click();
    // Usable now: the row moves up with the configured providers, open, the secret shown as saved and never its value.
    const saved = page.getByTestId("provider-extras-amazon-bedrock").getByTestId("cloud-amazon-bedrock");
    await poll(() => saved.getByTestId("secret-set-secretAccessKey").count()).toBe(1);
    await poll(() => page.getByTestId("api-key-amazon-bedrock").getByTestId("key-status").textContent()).toBe("Set up");
    expect(await saved.getByLabel("Region").inputValue()).toBe("eu-west-3");
    expect(await page.getByTestId("api-key-amazon-bedrock").getByRole("button", { name: "Remove", exact: true }).count()).toBe(0);
    expect(await saved.getByLabel("Secret access key").inputValue()).toBe("");
    expect(await page.content()).not.toContain("wJalrXUtnFEMI");
    expect((await rig.host.call<Settings>("getSettings")).cloudProviders).toEqual({ "amazon-bedrock": { region: "eu-west-3", profile: "work", accessKeyId: "AKIAEXAMPLE12345" } });
    await saved.scrollIntoViewIfNeeded();
    await shot(page, "accounts-bedrock-saved");
    await expectAccessible(page, "Settings, Bedrock configured");
    // The one refused save is the only request that failed (the browser logs it, and its answer).
    expect(problems.filter((p) => !p.includes("setCloudProvider") && !p.includes("status of 400"))).toEqual([]);
    await page.close();
  });

  it("Vertex: a credentials file that is a folder is refused, saying so; a key file is taken", async () => {
    const { page } = await openChat(rig.browser, rig.host);
    const { extras } = await providerRow(page, "vertex", "google-vertex");
    const cloud = extras.getByTestId("cloud-google-vertex");
    await cloud.locator("summary").click();
    await cloud.getByLabel("Project").fill("my-project-1");
    await cloud.getByLabel("Location").fill("europe-west4");
    mkdirSync(join(files, "keys"));
    await cloud.getByLabel("Credentials file").fill(join(files, "keys"));
    await cloud.getByRole("button", { name: "Save Google Vertex AI settings" }).click();
    await poll(() => cloud.getByTestId("cloud-error").textContent()).toMatch(/is a folder, not a file/);
    await cloud.scrollIntoViewIfNeeded();
    await shot(page, "accounts-vertex-refused");
    writeFileSync(join(files, "keys", "sa.json"), JSON.stringify({ type: "service_account", project_id: "my-project-1" }));
    await cloud.getByLabel("Credentials file").fill(join(files, "keys", "sa.json"));
    await cloud.getByRole("button", { name: "Save Google Vertex AI settings" }).click();
    await poll(async () => (await status("google-vertex")).keySource).toBe("settings");
    await page.close();
  });
});

describe("signing in to an account", () => {
  it("signs in with a device code entered on the provider's page, then signs out", async () => {
    const { page, problems } = await openChat(rig.browser, rig.host);
    const { extras } = await providerRow(page, "copilot", "github-copilot");
    const account = extras.getByTestId("account-github-copilot");
    expect(await account.getByTestId("account-status").textContent()).toBe("Not signed in");
    await account.scrollIntoViewIfNeeded();
    await shot(page, "accounts-signed-out");
    await expectAccessible(page, "Settings, an account not signed in");

    await account.getByTestId("sign-in").click();
    const question = account.getByTestId("sign-in-question");
    await question.waitFor();
    expect(await question.textContent()).toContain("GitHub Enterprise URL/domain (blank for github.com)");
    await shot(page, "accounts-sign-in-question");
    await expectAccessible(page, "Settings, a sign-in's question");
    await question.getByRole("button", { name: "Continue" }).click();

    const code = account.getByTestId("device-code");
    await code.waitFor();
    const userCode = (await code.textContent())!;
    expect(userCode).toMatch(/^PADD-\d+$/);
    await shot(page, "accounts-device-code");
    await expectAccessible(page, "Settings, a device code to enter");

    // The user follows the link to the provider's page, enters the code and approves there.
    const [tab] = await Promise.all([page.context().waitForEvent("page"), account.getByRole("link", { name: /\/device$/ }).click()]);
    await tab.waitForLoadState();
    await tab.locator("#user_code").fill(userCode);
    await tab.locator("#authorize").click();
    await tab.locator("#approved").waitFor();
    await tab.close();

    await poll(() => page.getByTestId("account-github-copilot").getByTestId("account-status").textContent()).toBe("Signed in");
    expect(await page.getByTestId("api-key-github-copilot").getByTestId("key-status").textContent()).toBe("Signed in");
    // Signed in by the account, not a saved key: there is no key to remove.
    expect(await page.getByTestId("api-key-github-copilot").getByRole("button", { name: "Remove" }).count()).toBe(0);
    expect(await page.content()).not.toContain("test-access");
    await page.getByTestId("account-github-copilot").scrollIntoViewIfNeeded();
    await shot(page, "accounts-signed-in");
    await expectAccessible(page, "Settings, an account signed in");

    await page.getByTestId("account-github-copilot").getByTestId("sign-out").click();
    await poll(async () => (await status("github-copilot")).account?.signedIn).toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("a failed sign-in says why and can start again; Cancel stops one; Anthropic's sign-in shows pi's note on extra usage", async () => {
    const { page } = await openChat(rig.browser, rig.host);
    let { extras } = await providerRow(page, "copilot", "github-copilot");
    await extras.getByTestId("sign-in").click();
    await extras.getByTestId("sign-in-question").locator("input").fill("ghe.example.com");
    await extras.getByRole("button", { name: "Continue" }).click();
    await poll(() => extras.getByTestId("sign-in-state").textContent()).toBe("Sign-in failed: This test server is not ghe.example.com: leave the domain blank");
    await extras.scrollIntoViewIfNeeded();
    await shot(page, "accounts-sign-in-failed");
    await expectAccessible(page, "Settings, a failed sign-in");

    await extras.getByTestId("sign-in").click();
    await extras.getByTestId("sign-in-question").waitFor();
    await extras.getByRole("button", { name: "Cancel" }).click();
    await poll(() => extras.getByTestId("sign-in-state").textContent()).toBe("Sign-in cancelled.");
    await shot(page, "accounts-sign-in-cancelled");

    ({ extras } = await providerRow(page, "anthropic", "anthropic"));
    const terms = extras.getByTestId("account-terms");
    expect(await terms.textContent()).toBe(ANTHROPIC_EXTRA_USAGE);
    expect(await extras.getByTestId("sign-in").textContent()).toBe("Sign in to Anthropic");
    await extras.scrollIntoViewIfNeeded();
    await shot(page, "accounts-anthropic-terms");
    await page.close();
  });
});

describe("an account that must sign in again", () => {
  it("says so in Settings once main's refresh before a request is refused", async () => {
    const before = (await rig.host.call<Settings>("getSettings")).defaultModel;
    oauth.tokenSeconds = 1;
    oauth.refuseRefresh = true;
    try {
      const { page } = await openChat(rig.browser, rig.host);
      const { extras } = await providerRow(page, "copilot", "github-copilot");
      await extras.getByTestId("sign-in").click();
      await extras.getByTestId("sign-in-question").getByRole("button", { name: "Continue" }).click();
      const code = (await extras.getByTestId("device-code").textContent())!;
      await fetch(`${oauth.url}/device`, { method: "POST", body: new URLSearchParams({ user_code: code }) });
      await poll(async () => (await status("github-copilot")).account?.signedIn).toBe(true);
      await page.close();

      // A chat with a Copilot model, once the token has expired: its request asks main for the key.
      await new Promise((r) => setTimeout(r, 1100));
      await rig.host.call("updateSettings", { defaultModel: { provider: "github-copilot", id: "claude-haiku-4.5" } });
      const chat = await openChat(rig.browser, rig.host);
      await send(chat.page, "hello");
      await poll(async () => oauth.refreshes.length).toBe(1);
      await poll(async () => (await status("github-copilot")).account?.expired).toMatch(/^Signing in to GitHub Copilot has expired; sign in again/);

      await chat.page.close();
      // Settings, opened afterwards, say so (an open page learns it with its next status, and from main's notice).
      const later = await openChat(rig.browser, rig.host);
      const row = (await providerRow(later.page, "copilot", "github-copilot")).extras.getByTestId("account-github-copilot");
      await poll(() => row.getByTestId("account-status").textContent()).toBe("Sign-in expired");
      expect(await later.page.getByTestId("api-key-github-copilot").getByTestId("key-status").textContent()).toBe("Sign-in expired");
      expect(await row.getByRole("alert").textContent()).toMatch(/sign in again \(Token refresh failed: invalid_grant\)/);
      await row.scrollIntoViewIfNeeded();
      await shot(later.page, "accounts-sign-in-expired");
      await expectAccessible(later.page, "Settings, an account that must sign in again");
      await later.page.close();
    } finally {
      oauth.tokenSeconds = 3600;
      oauth.refuseRefresh = false;
      await rig.host.call("signOut", "github-copilot");
      await rig.host.call("updateSettings", { defaultModel: before ?? null });
    }
  });
});

describe("the welcome setup", () => {
  it("names providers as Settings does", async () => {
    const { page } = await openChat(rig.browser, rig.host);
    await page.getByTestId("open-settings").click();
    await page.getByTestId("show-setup").click();
    const select = page.getByTestId("setup-provider");
    await select.waitFor();
    const options = await select.locator("option").allTextContents();
    expect(options).toContain("Google Gemini");
    expect(options).toContain("Amazon Bedrock");
    expect(options).not.toContain("google");
    expect(options).toEqual([...options].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })));
    expect(await select.inputValue()).toBe("anthropic");
    await shot(page, "accounts-welcome-names");
    await page.close();
  });

  it("offers signing in with an account, by display name; once signed in, the setup ends with that provider's model", async () => {
    const { page, problems } = await openChat(rig.browser, rig.host);
    await page.getByTestId("open-settings").click();
    await page.getByTestId("show-setup").click();
    const card = page.getByTestId("setup-account");
    await card.waitFor();
    const names = await card.getByTestId("setup-account-provider").locator("option").allTextContents();
    expect(names).toEqual(expect.arrayContaining(["Anthropic", "GitHub Copilot", "OpenAI Codex"]));
    expect(await card.getByTestId("setup-account-provider").inputValue()).toBe("github-copilot");
    await card.scrollIntoViewIfNeeded();
    await shot(page, "accounts-welcome-account");
    await expectAccessible(page, "the welcome setup's account card");

    await card.getByTestId("sign-in").click();
    await card.getByTestId("sign-in-question").getByRole("button", { name: "Continue" }).click();
    const code = (await card.getByTestId("device-code").textContent())!;
    await shot(page, "accounts-welcome-device-code");
    const approved = await fetch(`${oauth.url}/device`, { method: "POST", body: new URLSearchParams({ user_code: code }) });
    expect(approved.status).toBe(200);
    await page.getByTestId("setup-view").waitFor({ state: "detached", timeout: 15_000 });
    expect((await rig.host.call<Settings>("getSettings")).defaultModel?.provider).toBe("github-copilot");
    expect(problems).toEqual([]);
    await page.close();
  });
});
