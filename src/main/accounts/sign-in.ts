/**
 * One account sign-in at a time, run in main with pi-ai 1.6.0's OAuth contract: the flow's `login(interaction)` calls
 * `notify` (a page to open, a device code to enter, progress) and `prompt` (a question: typed, secret, a choice, a
 * pasted code or redirect address) and resolves with the credential. Here each of those becomes the flow's
 * `SignInState`, pushed to pages (`onState`), and a page's answer resolves the waiting prompt. A sign-in page is
 * opened in the system browser through the host's external-link path (`openExternal`: http(s) only), and shown in
 * the page too. The credential goes to the secret store (account-tokens.ts); no token ever reaches a page.
 *
 * Starting a new sign-in cancels the one in progress. Electron-free.
 */
import { randomUUID } from "node:crypto";
import type { AuthEvent, AuthPrompt, OAuthAuth } from "@earendil-works/pi-ai";
import type { SignInPrompt, SignInState } from "../../shared/protocol/accounts";
import { linkTarget } from "../../shared/security/external-links";
import type { AccountTokens } from "./account-tokens";

export interface SignInOptions {
  flows: () => ReadonlyMap<string, OAuthAuth>;
  tokens: Pick<AccountTokens, "store">;
  /** Opens a web address in the system browser (the desktop app); absent where the host cannot (the page links it). */
  openExternal?(url: string): void;
  /** Told each state of the flow, for the pages. */
  onState(state: SignInState): void;
  /** Called once the account is stored (provider status changed). */
  onSignedIn?(provider: string): void;
  /** The installation's stable id, for flows that send one (OpenAI's agent host id). */
  deviceId(): string;
}

interface Running {
  state: SignInState;
  controller: AbortController;
  answer?: { resolve(value: string): void; reject(error: Error): void };
}

export class SignIns {
  #running: Running | undefined;

  constructor(private readonly options: SignInOptions) {}

  /** The flow in progress, or the last one's end; undefined before any. */
  current(): SignInState | undefined {
    return this.#running?.state;
  }

  /**
   * Starts signing in to `provider` (cancelling a sign-in in progress) and answers its first state. The flow then
   * runs on; its states arrive through `onState`. Rejects only for a provider with no sign-in.
   */
  async start(provider: string): Promise<SignInState> {
    const flow = this.options.flows().get(provider);
    if (!flow) throw new Error(`${provider.slice(0, 60)} has no account sign-in.`);
    if (this.#running?.state.phase === "running") this.cancel(this.#running.state.id);
    const running: Running = { state: { id: randomUUID(), provider, phase: "running", message: "Starting…" }, controller: new AbortController() };
    this.#running = running;
    void this.#run(running, flow);
    return running.state;
  }

  /** Answers the question flow `id` waits on; rejects when it waits on none (a stale page). */
  async answer(id: string, value: string): Promise<void> {
    const running = this.#running;
    if (!running || running.state.id !== id || !running.answer) throw new Error("This sign-in is not waiting for an answer.");
    const { resolve } = running.answer;
    running.answer = undefined;
    this.#update(running, { prompt: undefined });
    resolve(value);
  }

  /** Cancels flow `id` (nothing when it has ended already). */
  cancel(id: string): void {
    const running = this.#running;
    if (!running || running.state.id !== id || running.state.phase !== "running") return;
    running.controller.abort();
    running.answer?.reject(new Error("Sign-in cancelled"));
    running.answer = undefined;
    this.#update(running, { phase: "cancelled", prompt: undefined });
  }

  /** Cancels the sign-in in progress, if any (quitting: a flow's callback server closes with it). */
  dispose(): void {
    if (this.#running) this.cancel(this.#running.state.id);
  }

  async #run(running: Running, flow: OAuthAuth): Promise<void> {
    const signal = running.controller.signal;
    try {
      const credential = await flow.login(
        {
          signal,
          notify: (event) => this.#notify(running, event),
          prompt: (prompt) => this.#prompt(running, prompt),
        },
        { agentName: "Paddock", getDeviceId: () => this.options.deviceId() },
      );
      if (signal.aborted || this.#running !== running) return;
      this.options.tokens.store(running.state.provider, { ...credential, type: "oauth" });
      this.#update(running, { phase: "signed-in", prompt: undefined, message: "Signed in." });
      this.options.onSignedIn?.(running.state.provider);
    } catch (error) {
      if (signal.aborted || running.state.phase !== "running") return;
      const text = error instanceof Error ? error.message : String(error);
      this.#update(running, { phase: "failed", prompt: undefined, error: text.slice(0, 500) || "Sign-in failed" });
    }
  }

  #notify(running: Running, event: AuthEvent): void {
    if (running.state.phase !== "running") return;
    switch (event.type) {
      case "auth_url": {
        const target = linkTarget(event.url);
        if (target?.kind !== "web") return this.#update(running, { error: "The provider sent a sign-in address that is not a web page." });
        this.options.openExternal?.(target.href);
        return this.#update(running, { authUrl: { url: target.href, ...(event.instructions ? { instructions: event.instructions } : {}) } });
      }
      case "device_code": {
        const target = linkTarget(event.verificationUri);
        if (target?.kind !== "web") return;
        return this.#update(running, {
          deviceCode: { userCode: event.userCode, verificationUri: target.href, ...(event.expiresInSeconds ? { expiresInSeconds: event.expiresInSeconds } : {}) },
          message: "Enter the code on the provider's page.",
        });
      }
      case "info": {
        const links = (event.links ?? []).flatMap((l) => (linkTarget(l.url)?.kind === "web" ? [{ url: l.url, ...(l.label ? { label: l.label } : {}) }] : []));
        return this.#update(running, { message: event.message, ...(links.length ? { links } : {}) });
      }
      case "progress":
        return this.#update(running, { message: event.message });
    }
  }

  #prompt(running: Running, prompt: AuthPrompt): Promise<string> {
    if (running.state.phase !== "running") return Promise.reject(new Error("Sign-in cancelled"));
    running.answer?.reject(new Error("Superseded by another question"));
    return new Promise<string>((resolve, reject) => {
      running.answer = { resolve, reject };
      const shown: SignInPrompt = { kind: prompt.type, message: prompt.message };
      if ("placeholder" in prompt && prompt.placeholder) shown.placeholder = prompt.placeholder;
      if (prompt.type === "select") shown.options = prompt.options.map((o) => ({ id: o.id, label: o.label, ...(o.description ? { description: o.description } : {}) }));
      this.#update(running, { prompt: shown });
      // The flow withdrew the question (a browser callback arrived before a pasted code, say).
      prompt.signal?.addEventListener("abort", () => {
        if (running.answer?.resolve !== resolve) return;
        running.answer = undefined;
        this.#update(running, { prompt: undefined });
        reject(new Error("Question withdrawn"));
      }, { once: true });
    });
  }

  #update(running: Running, patch: Partial<SignInState>): void {
    const next: SignInState = { ...running.state, ...patch };
    for (const key of Object.keys(patch) as (keyof SignInState)[]) if (patch[key] === undefined) delete next[key];
    running.state = next;
    if (this.#running === running) this.options.onState(next);
  }
}
