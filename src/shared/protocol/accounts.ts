/**
 * Signing in to a provider with an account (pi-ai 1.6.0's OAuth logins: GitHub Copilot, ChatGPT, Claude Pro/Max...),
 * as pages see it. The flow runs in main (main/accounts/sign-in.ts); the page shows where it stands (a page to open in
 * the browser, a device code to enter there, a question to answer) from `sign-in` events, and answers through the
 * AppApi. Tokens never reach a page: it learns only whether an account is signed in.
 */
import { Type } from "typebox";

/** A provider's account sign-in, as Settings offers it. */
export interface AccountInfo {
  /** pi-ai's name for the sign-in ("GitHub Copilot", "Anthropic (Claude Pro/Max)"). */
  name: string;
  /** The button's words ("Sign in with ChatGPT"); default "Sign in". */
  loginLabel?: string;
  /** The account is a subscription (pi labels it so). */
  subscription: boolean;
  /** What the user should know first, in pi's words where pi says it (Anthropic's extra-usage billing). */
  terms?: string;
  signedIn: boolean;
  /** The signed-in account's token could not be refreshed: it must sign in again (the reason, in words). */
  expired?: string;
}

/** A question the flow asks (pi-ai's `AuthPrompt`): a typed answer, a secret one, one of options, or a pasted code. */
export interface SignInPrompt {
  kind: "text" | "secret" | "select" | "manual_code";
  message: string;
  placeholder?: string;
  options?: { id: string; label: string; description?: string }[];
}

export interface SignInState {
  /** One flow; answers and cancels name it, so a stale page cannot answer a newer flow. */
  id: string;
  provider: string;
  phase: "running" | "signed-in" | "failed" | "cancelled";
  /** A page to sign in on (main opened it in the system browser, where it can). */
  authUrl?: { url: string; instructions?: string };
  /** A code to enter at `verificationUri`. */
  deviceCode?: { userCode: string; verificationUri: string; expiresInSeconds?: number };
  /** The question waiting for an answer, if any. */
  prompt?: SignInPrompt;
  /** The flow's latest progress or information line. */
  message?: string;
  links?: { url: string; label?: string }[];
  /** Why it failed, in words. */
  error?: string;
}

/** The AppApi's sign-in calls' arguments (app-api-schema.ts). */
export const SIGN_IN_ID_PATTERN = "^[0-9a-f-]{36}$";
export const SignInAnswerSchema = Type.String({ maxLength: 10_000 });
