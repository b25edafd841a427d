/**
 * The providers Paddock offers "Sign in" for: pi-ai 1.6.0's providers with an OAuth login (its `auth.oauth`: an
 * `OAuthAuth` whose `login` drives the flow, `refresh` renews a token, `toAuth` turns a credential into request auth),
 * each flow's code loaded on first use, for the providers of the catalogue Paddock lists. Left out: Kimi Code, whose
 * requests authenticate by a header rather than a key (Paddock's workers get a key per request, nothing else).
 * Electron-free.
 */
import type { OAuthAuth } from "@earendil-works/pi-ai";
import { builtinProviders } from "@earendil-works/pi-ai/providers/all";
import { catalogProviders } from "../broker/model-catalog";

/** Providers whose sign-in gives no key a worker could use (see above). */
const NO_KEY_SIGN_IN = new Set(["kimi-coding"]);

/**
 * What pi-coding-agent 1.6.0 tells a user signed in to Anthropic with a subscription (its interactive mode's
 * ANTHROPIC_SUBSCRIPTION_AUTH_WARNING, "Anthropic subscription auth is active. " and this), without its last
 * sentence about pi's own /settings. Settings shows it before signing in, and with pi's first sentence once signed in.
 */
export const ANTHROPIC_EXTRA_USAGE =
  "Third-party harness usage draws from extra usage and is billed per token, not your Claude plan limits. Manage extra usage at https://claude.ai/settings/usage.";

/** What to show before signing in, where pi shows something. */
export const SIGN_IN_TERMS: Readonly<Record<string, string>> = { anthropic: ANTHROPIC_EXTRA_USAGE };

/** The sign-in flows by provider id (or a test's stand-ins). */
export type OAuthFlows = ReadonlyMap<string, OAuthAuth>;

let flows: OAuthFlows | undefined;

/** pi-ai's OAuth flows of catalogue providers (built once; each flow's code loads when it is first used). */
export function piOAuthFlows(): OAuthFlows {
  if (!flows) {
    const known = new Set(catalogProviders());
    flows = new Map(
      builtinProviders()
        .filter((p) => p.auth.oauth !== undefined && known.has(p.id) && !NO_KEY_SIGN_IN.has(p.id))
        .map((p) => [p.id, p.auth.oauth!] as const),
    );
  }
  return flows;
}
