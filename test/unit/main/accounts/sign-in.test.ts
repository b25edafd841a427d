/**
 * Account sign-in in main, run with pi-ai 1.6.0's real GitHub Copilot flow (its device-code login and its refresh)
 * against a stand-in for github.com and the Copilot API (the flow's own URLs, answered by a local fetch router), and
 * with stand-in flows for what that flow does not do (a sign-in page to open, a question withdrawn).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OAuthAuth } from "@earendil-works/pi-ai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AccountTokens, accountSecretName } from "../../../../src/main/accounts/account-tokens";
import { piOAuthFlows } from "../../../../src/main/accounts/oauth-providers";
import { SignIns } from "../../../../src/main/accounts/sign-in";
import { plaintextDevCipher, SecretStore } from "../../../../src/main/broker/secrets";
import type { SignInState } from "../../../../src/shared/protocol/accounts";

let dir: string;
let secrets: SecretStore;
let states: SignInState[];
let opened: string[];

/** What the stand-in GitHub saw, and how it answers. */
interface FakeGitHub {
  requests: { method: string; url: string; authorization?: string }[];
  /** Polls answered "authorization_pending" before the user approves. */
  pendingPolls: number;
  deviceCodeStatus: number;
  /** Copilot tokens handed out. */
  copilotTokens: string[];
  copilotTokenStatus: number;
}

function fakeGitHub(): FakeGitHub {
  const fake: FakeGitHub = { requests: [], pendingPolls: 1, deviceCodeStatus: 200, copilotTokens: [], copilotTokenStatus: 200 };
  vi.stubGlobal("fetch", async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    const method = init?.method ?? "GET";
    const headers = new Headers(init?.headers);
    fake.requests.push({ method, url, ...(headers.get("authorization") ? { authorization: headers.get("authorization")! } : {}) });
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    if (url === "https://github.com/login/device/code") {
      if (fake.deviceCodeStatus !== 200) return json(fake.deviceCodeStatus, { error: "server_error" });
      return json(200, { device_code: "dc-1", user_code: "WDJB-MJHT", verification_uri: "https://github.com/login/device", interval: 1, expires_in: 900 });
    }
    if (url === "https://github.com/login/oauth/access_token") {
      if (fake.pendingPolls > 0) {
        fake.pendingPolls -= 1;
        return json(200, { error: "authorization_pending" });
      }
      return json(200, { access_token: "gho_user-token", token_type: "bearer" });
    }
    if (url === "https://api.github.com/copilot_internal/v2/token") {
      if (fake.copilotTokenStatus !== 200) return json(fake.copilotTokenStatus, { message: "Bad credentials" });
      const token = `tid=t${fake.copilotTokens.length + 1};exp=9999999999;proxy-ep=proxy.individual.githubcopilot.com;`;
      fake.copilotTokens.push(token);
      return json(200, { token, expires_at: Math.floor(Date.now() / 1000) + 1800 });
    }
    if (url === "https://api.individual.githubcopilot.com/models") return json(200, { data: [{ id: "gpt-5", model_picker_enabled: true, capabilities: { supports: {} } }] });
    return json(404, { message: `no route for ${method} ${url}` });
  });
  return fake;
}

const tokens = () => new AccountTokens({ secrets, flows: piOAuthFlows });
const signIns = (flows: () => ReadonlyMap<string, OAuthAuth> = piOAuthFlows, store = tokens()) =>
  new SignIns({ flows, tokens: store, onState: (s) => states.push(s), openExternal: (url) => opened.push(url), deviceId: () => "device-1" });

/** Resolves with the first state `test` accepts (states already seen count). */
async function stateWhere(test: (s: SignInState) => boolean, timeoutMs = 8000): Promise<SignInState> {
  const start = Date.now();
  for (;;) {
    const found = states.find(test);
    if (found) return found;
    if (Date.now() - start > timeoutMs) throw new Error(`no such state; saw ${JSON.stringify(states.map((s) => s.phase))}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "paddock-sign-in-"));
  secrets = SecretStore.open(join(dir, "secrets.json"), plaintextDevCipher);
  states = [];
  opened = [];
});
afterEach(() => {
  vi.unstubAllGlobals();
  rmSync(dir, { recursive: true, force: true });
});

describe("signing in with pi-ai's GitHub Copilot flow", () => {
  it("asks its question, shows the device code, waits for approval, and stores the account; no token reaches a page", async () => {
    const github = fakeGitHub();
    const flows = signIns();
    const first = await flows.start("github-copilot");
    expect(first).toMatchObject({ provider: "github-copilot", phase: "running" });

    const asked = await stateWhere((s) => s.prompt !== undefined);
    expect(asked.prompt).toEqual({ kind: "text", message: "GitHub Enterprise URL/domain (blank for github.com)", placeholder: "company.ghe.com" });
    await flows.answer(first.id, "");

    const code = await stateWhere((s) => s.deviceCode !== undefined);
    expect(code.deviceCode).toMatchObject({ userCode: "WDJB-MJHT", verificationUri: "https://github.com/login/device", expiresInSeconds: 900 });
    expect(code.prompt).toBeUndefined();

    const done = await stateWhere((s) => s.phase !== "running");
    expect(done.phase).toBe("signed-in");
    const stored = JSON.parse(secrets.get(accountSecretName("github-copilot"))!);
    expect(stored).toMatchObject({ type: "oauth", refresh: "gho_user-token", access: github.copilotTokens[0] });
    // The device flow polled past "authorization_pending", then swapped the GitHub token for a Copilot one.
    expect(github.requests.filter((r) => r.url.endsWith("/access_token"))).toHaveLength(2);
    expect(github.requests.find((r) => r.url.endsWith("/v2/token"))?.authorization).toBe("Bearer gho_user-token");
    expect(JSON.stringify(states)).not.toMatch(/gho_user|tid=t1/);
    // A device code is entered by the user on the page; nothing was opened behind their back.
    expect(opened).toEqual([]);
    // On disk the account sits in the secret store with the keys, not in any settings.
    expect(readFileSync(join(dir, "secrets.json"), "utf8")).toContain(Buffer.from(JSON.stringify(stored)).toString("base64").slice(0, 16));
  });

  it("an answer for a flow that waits on none, or for an older flow, is refused", async () => {
    fakeGitHub();
    const flows = signIns();
    const first = await flows.start("github-copilot");
    await stateWhere((s) => s.prompt !== undefined);
    const second = await flows.start("github-copilot");
    expect(states.find((s) => s.id === first.id && s.phase === "cancelled")).toBeDefined();
    await expect(flows.answer(first.id, "")).rejects.toThrow(/not waiting/);
    flows.cancel(second.id);
    await expect(flows.start("no-such-provider")).rejects.toThrow(/has no account sign-in/);
  });

  it("Cancel ends the flow while it waits for an answer; nothing is stored", async () => {
    fakeGitHub();
    const flows = signIns();
    const { id } = await flows.start("github-copilot");
    await stateWhere((s) => s.prompt !== undefined);
    flows.cancel(id);
    expect(flows.current()).toMatchObject({ phase: "cancelled" });
    expect(flows.current()?.prompt).toBeUndefined();
    await new Promise((r) => setTimeout(r, 50));
    expect(states.at(-1)?.phase).toBe("cancelled");
    expect(secrets.has(accountSecretName("github-copilot"))).toBe(false);
    // Quitting cancels a flow in progress the same way.
    const again = await flows.start("github-copilot");
    await stateWhere((s) => s.id === again.id && s.prompt !== undefined);
    flows.dispose();
    expect(flows.current()).toMatchObject({ id: again.id, phase: "cancelled" });
  });

  it("a server that fails says so in words", async () => {
    const github = fakeGitHub();
    github.deviceCodeStatus = 500;
    const flows = signIns();
    const { id } = await flows.start("github-copilot");
    await stateWhere((s) => s.prompt !== undefined);
    await flows.answer(id, "");
    const failed = await stateWhere((s) => s.phase === "failed");
    expect(failed.error).toMatch(/500/);
    expect(secrets.has(accountSecretName("github-copilot"))).toBe(false);
  });

  it("a sign-in page opens in the system browser and shows in the page; one that is not a web page never opens", async () => {
    const standIn = (url: string): OAuthAuth => ({
      name: "Stand-in",
      async login(interaction) {
        interaction.notify({ type: "auth_url", url, instructions: "Finish in the browser." });
        const code = await interaction.prompt({ type: "manual_code", message: "Paste the code" });
        return { type: "oauth", access: `access-${code}`, refresh: "r", expires: Date.now() + 60_000 };
      },
      refresh: async (c) => c,
      toAuth: async (c) => ({ apiKey: c.access }),
    });
    let flow = standIn("https://auth.example.com/authorize?x=1");
    const flows = signIns(() => new Map([["anthropic", flow]]));
    const { id } = await flows.start("anthropic");
    const shown = await stateWhere((s) => s.prompt?.kind === "manual_code");
    expect(shown.authUrl).toEqual({ url: "https://auth.example.com/authorize?x=1", instructions: "Finish in the browser." });
    expect(opened).toEqual(["https://auth.example.com/authorize?x=1"]);
    await flows.answer(id, "c0de");
    await stateWhere((s) => s.phase === "signed-in");
    expect(JSON.parse(secrets.get(accountSecretName("anthropic"))!).access).toBe("access-c0de");

    states = [];
    flow = standIn("file:///etc/passwd");
    await flows.start("anthropic");
    const refused = await stateWhere((s) => s.error !== undefined);
    expect(refused.error).toMatch(/not a web page/);
    expect(refused.authUrl).toBeUndefined();
    expect(opened).toHaveLength(1);
  });

  it("a question the flow withdraws (its browser callback came first) leaves the page", async () => {
    const flow: OAuthAuth = {
      name: "Stand-in",
      async login(interaction) {
        const withdraw = new AbortController();
        const answer = interaction.prompt({ type: "manual_code", message: "Or paste the redirect address", signal: withdraw.signal }).catch(() => "callback");
        await new Promise((r) => setTimeout(r, 30));
        withdraw.abort();
        return { type: "oauth", access: await answer, refresh: "r", expires: Date.now() + 60_000 };
      },
      refresh: async (c) => c,
      toAuth: async (c) => ({ apiKey: c.access }),
    };
    const flows = signIns(() => new Map([["anthropic", flow]]));
    await flows.start("anthropic");
    await stateWhere((s) => s.prompt !== undefined);
    const done = await stateWhere((s) => s.phase === "signed-in");
    expect(done.prompt).toBeUndefined();
    expect(JSON.parse(secrets.get(accountSecretName("anthropic"))!).access).toBe("callback");
  });
});

describe("an account's token", () => {
  const expiredCopilot = () =>
    secrets.set(accountSecretName("github-copilot"), JSON.stringify({ type: "oauth", refresh: "gho_user-token", access: "tid=old;proxy-ep=proxy.individual.githubcopilot.com;", expires: Date.now() - 1000 }));

  it("is refreshed in main before use when expired, with pi-ai's refresh, once for callers at the same time", async () => {
    const github = fakeGitHub();
    expiredCopilot();
    const store = tokens();
    const [a, b] = await Promise.all([store.apiKey("github-copilot"), store.apiKey("github-copilot")]);
    expect(a).toBe(github.copilotTokens[0]);
    expect(b).toBe(a);
    expect(github.copilotTokens).toHaveLength(1);
    const stored = JSON.parse(secrets.get(accountSecretName("github-copilot"))!);
    expect(stored).toMatchObject({ access: a, refresh: "gho_user-token" });
    expect(stored.expires).toBeGreaterThan(Date.now());
    // Fresh now: no further refresh.
    expect(await store.apiKey("github-copilot")).toBe(a);
    expect(github.copilotTokens).toHaveLength(1);
  });

  it("a refresh that fails gives no key and says the account must sign in again", async () => {
    const github = fakeGitHub();
    github.copilotTokenStatus = 401;
    expiredCopilot();
    const failures: string[] = [];
    const store = new AccountTokens({ secrets, flows: piOAuthFlows, onRefreshFailed: (_p, reason) => failures.push(reason) });
    expect(await store.apiKey("github-copilot")).toBeUndefined();
    expect(store.expired("github-copilot")).toMatch(/^Signing in to GitHub Copilot has expired; sign in again \(.*401/);
    expect(failures).toHaveLength(1);
    store.signOut("github-copilot");
    expect(store.expired("github-copilot")).toBeUndefined();
    expect(store.signedIn("github-copilot")).toBe(false);
  });

  it("a Copilot Business account's requests go to its own address, as pi-ai's toAuth names it; an individual's to the catalogue's", async () => {
    fakeGitHub();
    const business = "tid=b;exp=9999999999;proxy-ep=proxy.business.githubcopilot.com;";
    secrets.set(accountSecretName("github-copilot"), JSON.stringify({ type: "oauth", refresh: "gho_user-token", access: business, expires: Date.now() + 600_000 }));
    const store = tokens();
    expect(store.baseUrl("github-copilot")).toBeUndefined();
    await store.learnAddress("github-copilot");
    expect(store.baseUrl("github-copilot")).toBe("https://api.business.githubcopilot.com");
    // With the key handed out after a refresh to an individual plan's token, the address follows.
    secrets.set(accountSecretName("github-copilot"), JSON.stringify({ type: "oauth", refresh: "gho_user-token", access: business, expires: Date.now() - 1 }));
    await store.apiKey("github-copilot");
    expect(store.baseUrl("github-copilot")).toBe("https://api.individual.githubcopilot.com");
    store.signOut("github-copilot");
    expect(store.baseUrl("github-copilot")).toBeUndefined();
  });

  it("a damaged stored account reads as none", async () => {
    secrets.set(accountSecretName("github-copilot"), "{not json");
    expect(await tokens().apiKey("github-copilot")).toBeUndefined();
  });
});
