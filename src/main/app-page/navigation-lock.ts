/**
 * The navigation lock, as decisions (Electron-free; security.ts applies them to each window's events): a Paddock
 * window only ever shows the app's page. Whatever the page tries, opening a window, navigating, being redirected,
 * attaching a `<webview>`, is refused; a link the user clicked reaches the system (browser, mail client) when it
 * is http(s) or mailto (`linkTarget`, the page's own rule), and is dropped otherwise.
 */
import { linkTarget } from "../../shared/security/external-links";

/** The window events the lock answers. */
export type NavigationAttempt =
  /** `window.open`, a `target=_blank` link (setWindowOpenHandler). */
  | "window-open"
  /** The page navigating itself: a plain link, `location = ...` (will-navigate). */
  | "will-navigate"
  /** A server redirect of a navigation (will-redirect). */
  | "will-redirect"
  /** A `<webview>` about to attach (will-attach-webview). */
  | "attach-webview";

export interface NavigationVerdict {
  /** Always false: nothing replaces the page, nothing opens beside it. */
  allow: false;
  /** The address to hand to the system instead, when there is one. */
  openExternally?: string;
}

/**
 * What happens when the page tries `attempt` to `url`. Window opens and navigations of an http(s) or mailto URL
 * are denied and opened outside the app (the parsed URL, never the raw string); anything else (file:, javascript:,
 * data:, custom schemes, the app's own scheme) is denied and dropped; redirects and webviews are simply denied.
 */
export function navigationVerdict(attempt: NavigationAttempt, url: string): NavigationVerdict {
  if (attempt === "window-open" || attempt === "will-navigate") {
    const target = linkTarget(url);
    return target ? { allow: false, openExternally: target.href } : { allow: false };
  }
  return { allow: false };
}
