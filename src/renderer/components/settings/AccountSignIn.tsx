import { useEffect, useRef, useState } from "react";
import type { AccountInfo, SignInPrompt, SignInState } from "../../../shared/protocol/accounts";
import { errorText } from "../../../shared/error-text";
import { useServices } from "../../context/ServicesContext";
import { mayFocusUnasked } from "../../context/focus-hold";
import { ExternalLink } from "../markdown/ExternalLink";
import { useSignIn } from "./useSignIn";

interface AccountSignInProps {
  provider: string;
  /** The provider's display name (provider-names.ts). */
  name: string;
  account: AccountInfo;
  /** The provider's status changed (signed in, signed out). */
  onChanged(): void;
  /** A sign-in finished (after `onChanged`). */
  onSignedIn?(): void;
  onError(message: string): void;
}

/**
 * A provider's account: "Sign in" (pi-ai's OAuth login, run by main), or who is signed in and "Sign out". While a
 * sign-in runs it shows where it stands: the page main opened in the browser (a link, should the browser not have
 * come up), a device code to enter there, a question to answer, progress, why it failed. What the user should know
 * first (pi's note on Anthropic's extra usage) shows before they sign in and while signed in.
 */
export function AccountSignIn({ provider, name, account, onChanged, onSignedIn, onError }: AccountSignInProps) {
  const { app } = useServices();
  const { state: latest, started } = useSignIn();
  const [busy, setBusy] = useState(false);
  const flow = latest?.provider === provider ? latest : undefined;
  const running = flow?.phase === "running";

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (e) {
      onError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  // A finished sign-in changes the provider's status (and models): Settings asks main again, once per flow.
  const changed = useRef({ onChanged, onSignedIn });
  changed.current = { onChanged, onSignedIn };
  const signedInFlow = flow?.phase === "signed-in" ? flow.id : undefined;
  useEffect(() => {
    if (!signedInFlow) return;
    changed.current.onChanged();
    changed.current.onSignedIn?.();
  }, [signedInFlow]);

  return (
    <div className="account" data-testid={`account-${provider}`}>
      <div className="account-head">
        <span className="account-name">
          {account.name}
          {account.subscription ? <span className="account-kind"> · subscription</span> : null}
        </span>
        <span className={`key-status ${account.expired ? "key-moved" : account.signedIn ? "key-settings" : ""}`} data-testid="account-status">
          {account.expired ? "Sign-in expired" : account.signedIn ? "Signed in" : "Not signed in"}
        </span>
        <span className="account-actions">
          {running ? (
            <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => void act(() => app.cancelSignIn(flow.id))}>Cancel</button>
          ) : account.signedIn && !account.expired ? (
            <button type="button" className="btn btn-ghost" disabled={busy} data-testid="sign-out"
              onClick={() => void act(async () => {
                await app.signOut(provider);
                onChanged();
              })}>Sign out</button>
          ) : (
            <button type="button" className="btn btn-secondary" disabled={busy} data-testid="sign-in"
              onClick={() => void act(async () => started(await app.startSignIn(provider)))}>
              {account.loginLabel ?? `Sign in to ${name}`}
            </button>
          )}
        </span>
      </div>
      {account.terms ? (
        <p className="account-terms" data-testid="account-terms">
          {/* pi's words once signed in: "<name> subscription auth is active." */}
          {account.signedIn && account.subscription ? `${name} subscription auth is active. ` : null}
          {account.terms}
        </p>
      ) : null}
      {account.expired && !running ? <p className="account-problem" role="alert">{account.expired}</p> : null}
      {flow ? <SignInProgress flow={flow} /> : null}
    </div>
  );
}

/** Where a sign-in stands, in words; its question, if it waits on one. */
function SignInProgress({ flow }: { flow: SignInState }) {
  if (flow.phase === "cancelled") return <p className="account-progress muted" data-testid="sign-in-state">Sign-in cancelled.</p>;
  if (flow.phase === "failed") return <p className="account-problem" role="alert" data-testid="sign-in-state">Sign-in failed: {flow.error}</p>;
  if (flow.phase === "signed-in") return <p className="account-progress" data-testid="sign-in-state">Signed in.</p>;
  return (
    <div className="account-progress" data-testid="sign-in-state" aria-live="polite">
      {flow.authUrl ? (
        <p>
          {flow.authUrl.instructions ?? "Finish signing in in your browser."} Browser did not open?{" "}
          <ExternalLink href={flow.authUrl.url}>Open the sign-in page</ExternalLink>
        </p>
      ) : null}
      {flow.deviceCode ? (
        <div className="device-code">
          <span>Enter this code at <ExternalLink href={flow.deviceCode.verificationUri}>{flow.deviceCode.verificationUri}</ExternalLink>:</span>
          <code className="device-code-value" data-testid="device-code">{flow.deviceCode.userCode}</code>
          <button type="button" className="btn btn-ghost" onClick={() => void navigator.clipboard?.writeText(flow.deviceCode!.userCode).catch(() => {})}>Copy</button>
        </div>
      ) : null}
      {flow.message && !flow.prompt ? <p className="muted">{flow.message}</p> : null}
      {flow.links?.map((l) => <p key={l.url}><ExternalLink href={l.url}>{l.label ?? l.url}</ExternalLink></p>)}
      {flow.prompt ? <SignInQuestion key={`${flow.id}:${flow.prompt.message}`} flowId={flow.id} prompt={flow.prompt} /> : null}
    </div>
  );
}

/** The flow's question: typed (secret ones hidden), a choice, or a pasted code or address. */
function SignInQuestion({ flowId, prompt }: { flowId: string; prompt: SignInPrompt }) {
  const { app } = useServices();
  const [value, setValue] = useState(prompt.kind === "select" ? (prompt.options?.[0]?.id ?? "") : "");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  // The question comes when the sign-in gets to it, maybe while the user types elsewhere in Settings: the focus comes
  // here only from nowhere in particular (the Sign in button just pressed), never from a field.
  useEffect(() => {
    if (mayFocusUnasked(field.current)) field.current?.focus();
  }, []);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await app.answerSignIn(flowId, value);
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };
  return (
    <form className="sign-in-question" data-testid="sign-in-question" onSubmit={(e) => {
      e.preventDefault();
      void submit();
    }}>
      <label>
        <span>{prompt.message}</span>
        {prompt.kind === "select" ? (
          <select value={value} onChange={(e) => setValue(e.target.value)}>
            {prompt.options?.map((o) => <option key={o.id} value={o.id}>{o.label}{o.description ? ` (${o.description})` : ""}</option>)}
          </select>
        ) : (
          <input type={prompt.kind === "secret" ? "password" : "text"} autoComplete="off" spellCheck={false} value={value}
            placeholder={prompt.placeholder} onChange={(e) => setValue(e.target.value)} ref={field} />
        )}
      </label>
      <button type="submit" className="btn btn-primary" disabled={busy}>Continue</button>
      {error ? <span className="account-problem" role="alert">{error}</span> : null}
    </form>
  );
}
