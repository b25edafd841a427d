/**
 * What a page of the browser host holds instead of the host's token: a short-lived credential for this host's port.
 *
 * The host's token (web-host.json, printed in the address) lives as long as the data folder, so a page must not keep
 * it, and no cookie may carry a credential at all: browsers send cookies to every port of `127.0.0.1` (a cookie's
 * scope is a host, never a port; SameSite compares sites, which ignore ports too), so any other local server a tab
 * visits would receive it. Instead the first load, which brings the token in the URL, gets a page credential written
 * into the page; the page keeps it in sessionStorage (scoped to this origin, port included, and to the tab) and sends
 * it in a header.
 *
 * A credential is `p1.<port>.<expiry>.<nonce>.<mac>`, the MAC an HMAC-SHA256 under the host's token: nothing is kept
 * on the host's side, so a credential outlives a host restart (open pages reconnect by themselves) but not a new
 * token, and it is good only for the port it names. It lives `lifetimeMs` (12 hours) from when it was issued or
 * last renewed: an open page renews its own well before then (`POST /api/renew`), so only a page (or a copied
 * credential) left unused that long needs the printed address again.
 */
import { createHmac, randomBytes } from "node:crypto";
import { tokenMatches } from "./token-match";

export const PAGE_CREDENTIAL_LIFETIME_MS = 12 * 60 * 60 * 1000;

export type CredentialCheck = "valid" | "expired" | "invalid";

export interface PageCredentialOptions {
  /** The host's token: the MAC's key. */
  token: string;
  port: number;
  lifetimeMs?: number;
  /** The clock (tests move it). */
  now?: () => number;
}

export class PageCredentials {
  readonly #token: string;
  readonly #port: number;
  readonly #lifetimeMs: number;
  readonly #now: () => number;

  constructor(options: PageCredentialOptions) {
    this.#token = options.token;
    this.#port = options.port;
    this.#lifetimeMs = options.lifetimeMs ?? PAGE_CREDENTIAL_LIFETIME_MS;
    this.#now = options.now ?? Date.now;
  }

  /** A new credential for this port, good for the lifetime from now. */
  issue(): string {
    const body = `p1.${this.#port}.${(this.#now() + this.#lifetimeMs).toString(36)}.${randomBytes(16).toString("base64url")}`;
    return `${body}.${this.#mac(body)}`;
  }

  /**
   * Whether `presented` is a credential this host issued for this port ("invalid" otherwise, whatever it is: the host's
   * token is not one), and if so whether it is still within its lifetime. The MAC is compared in constant time.
   */
  check(presented: string | null | undefined): CredentialCheck {
    if (typeof presented !== "string" || presented.length > 200) return "invalid";
    const parts = presented.split(".");
    if (parts.length !== 5 || parts[0] !== "p1") return "invalid";
    const body = parts.slice(0, 4).join(".");
    if (!tokenMatches(parts[4], this.#mac(body)) || parts[1] !== String(this.#port)) return "invalid";
    const expiry = parseInt(parts[2], 36);
    return Number.isFinite(expiry) && expiry > this.#now() ? "valid" : "expired";
  }

  #mac(body: string): string {
    return createHmac("sha256", this.#token).update(`paddock page credential\n${body}`).digest("base64url");
  }
}
