/**
 * An account sign-in through main's whole path, as a page drives it: AppService's calls and `sign-in` events, a
 * stand-in authorization server (device code, approval on its page, tokens, refresh), the secret store, the provider's
 * status, and the key a worker's request gets (refreshed in main once expired). One credential per provider.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { accountSecretName } from "../../src/main/accounts/account-tokens";
import { ANTHROPIC_EXTRA_USAGE } from "../../src/main/accounts/oauth-providers";
import type { Core } from "../../src/main/broker/core";
import type { SignInState } from "../../src/shared/protocol/accounts";
import { oauthTestFlow, startOAuthTestServer, type OAuthTestServer } from "../../src/web-host/oauth-test-server";
import { createTestCore } from "../../testkit/test-core";

let dir: string;
let core: Core<never>;
let server: OAuthTestServer;
let states: SignInState[];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "paddock-accounts-"));
  server = await startOAuthTestServer({ tokenSeconds: 1 });
  const flow = oauthTestFlow(server.url);
  core = await createTestCore({
    dataDir: dir,
    oauthFlows: () => new Map([["github-copilot", flow]]),
  });
  states = [];
  core.service.onEvent((event) => {
    if (event.type === "sign-in") states.push(event.state);
  });
});
afterEach(async () => {
  await core.shutdown();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function stateWhere(test: (s: SignInState) => boolean): Promise<SignInState> {
  const start = Date.now();
  for (;;) {
    const found = states.find(test);
    if (found) return found;
    if (Date.now() - start > 10_000) throw new Error(`no such state: ${JSON.stringify(states)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const copilot = async () => (await core.service.providerStatus()).find((p) => p.provider === "github-copilot")!;

/** The user signs in: answers the question, approves the code on the server's page. */
async function signIn(): Promise<void> {
  const { id } = await core.service.startSignIn("github-copilot");
  await stateWhere((s) => s.id === id && s.prompt !== undefined);
  await core.service.answerSignIn(id, "");
  const { deviceCode } = await stateWhere((s) => s.id === id && s.deviceCode !== undefined);
  const approved = await fetch(deviceCode!.verificationUri, { method: "POST", body: new URLSearchParams({ user_code: deviceCode!.userCode }) });
  expect(approved.status).toBe(200);
  expect((await stateWhere((s) => s.id === id && s.phase !== "running")).phase).toBe("signed-in");
}

describe("account sign-in through main", () => {
  it("signs in, hands workers the access token, refreshes it in main once expired, and signs out", async () => {
    expect(await copilot()).toMatchObject({ keySource: "none", account: { name: "GitHub Copilot", subscription: true, signedIn: false } });
    await signIn();
    expect(await copilot()).toMatchObject({ keySource: "settings", account: { signedIn: true } });
    expect(JSON.stringify(states)).not.toContain("test-access");
    // The models of a signed-in provider are offered.
    expect((await core.service.listModels()).some((m) => m.provider === "github-copilot")).toBe(true);

    const key = () => core.accounts.workerKey("github-copilot", () => undefined);
    expect(await key()).toBe(server.issued[0]);

    // The token lives 1 s here: the next request's key is a refreshed one, and the refresh is stored.
    await new Promise((r) => setTimeout(r, 1100));
    const refreshed = await key();
    expect(server.refreshes).toEqual(["test-refresh-1"]);
    expect(refreshed).toBe(server.issued[1]);
    expect(JSON.parse(core.secrets.get(accountSecretName("github-copilot"))!).access).toBe(refreshed);

    // The stand-in's tokens name no address of their own: workers' models keep the catalogue's.
    const model = { provider: "github-copilot", id: "gpt-5", baseUrl: "https://api.individual.githubcopilot.com" };
    expect(core.accounts.requestModel(model)).toBe(model);

    await core.service.signOut("github-copilot");
    expect(await copilot()).toMatchObject({ keySource: "none", account: { signedIn: false } });
    expect(await key()).toBeUndefined();
  });

  it("one credential per provider: signing in replaces a saved key, saving a key signs out", async () => {
    await core.service.setApiKey("github-copilot", "ghu_saved");
    await signIn();
    expect(core.secrets.has("github-copilot")).toBe(false);
    expect(await core.accounts.workerKey("github-copilot", () => "from-otherwise")).toBe(server.issued[0]);

    await core.service.setApiKey("github-copilot", "ghu_saved-again");
    expect(await copilot()).toMatchObject({ keySource: "settings", account: { signedIn: false } });
    expect(core.secrets.has(accountSecretName("github-copilot"))).toBe(false);
  });

  it("pages cannot reach accounts through the key calls, and Anthropic's sign-in carries pi's note on extra usage", async () => {
    await expect(core.service.setApiKey(accountSecretName("github-copilot"), "x")).rejects.toThrow(/Unknown provider/);
    await expect(core.service.startSignIn("openai-compatible-nonsense")).rejects.toThrow(/has no account sign-in/);
    await expect(core.service.signOut("groq")).rejects.toThrow(/has no account sign-in/);
    // With pi-ai's own flows, Anthropic's row shows what pi says about subscription use.
    const pi = await createTestCore({ dataDir: join(dir, "pi") });
    try {
      const status = await pi.service.providerStatus();
      expect(status.find((p) => p.provider === "anthropic")?.account).toMatchObject({ name: "Anthropic (Claude Pro/Max)", subscription: true, terms: ANTHROPIC_EXTRA_USAGE });
      expect(status.filter((p) => p.account).map((p) => p.provider).sort()).toEqual(["anthropic", "github-copilot", "meta", "openai", "openai-codex", "openrouter", "radius", "xai"]);
      expect(status.find((p) => p.provider === "kimi-coding")?.account).toBeUndefined();
    } finally {
      await pi.shutdown();
    }
  });
});
