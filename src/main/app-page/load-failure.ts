/**
 * A window whose page does not load. Windows open hidden and show on `ready-to-show`, which a page that fails to load
 * never fires: the window would stay invisible and keep the app alive with nothing on screen. So a window is shown
 * anyway, with an error page naming the failure and a Reload, when its page fails (`did-fail-load`) or has not
 * loaded within `LOAD_TIMEOUT_MS`. Electron-free: `electron/chat-windows.ts` feeds a window's events to a
 * `PageLoadWatch` and does what it answers.
 *
 * The error page is a `data:` URL, so it shows even when the app's own files cannot be read. It runs no script (its
 * policy allows none); its Reload is a link to `RELOAD_URL`, a navigation main stops like every other and answers by
 * loading the app's page again.
 */
import { APP_ORIGIN } from "./app-origin";

/** How long a window's page may take to load before the window shows with an error page. */
export const LOAD_TIMEOUT_MS = 20_000;

/** The error page's Reload link: never served, main intercepts the navigation (`will-navigate`). */
export const RELOAD_URL = `${APP_ORIGIN}/reload-page`;

/** Chromium's `net::ERR_ABORTED`: a load that another load replaced (a reload, the error page itself): no failure. */
const ERR_ABORTED = -3;

export interface LoadFailure {
  /** Chromium's net error code (negative), when there is one. */
  code?: number;
  /** What went wrong, in Chromium's words (`ERR_FILE_NOT_FOUND`) or ours. */
  description: string;
  /** The address that did not load. */
  url?: string;
}

/** What the window should do now. */
export type LoadAction = { kind: "none" } | { kind: "show" } | { kind: "show-error"; page: string };

const NONE: LoadAction = { kind: "none" };

/** One window's page loads, from opening to closing. */
export class PageLoadWatch {
  #shown = false;
  #loaded = false;
  #showingError = false;

  /** Whether the window shows the error page now (a failure of the load it replaced needs no other word). */
  get showingError(): boolean {
    return this.#showingError;
  }

  /** `ready-to-show`: the page painted. */
  readyToShow(): LoadAction {
    return this.#show();
  }

  /** `did-finish-load`: the page loaded (it may not have painted yet). */
  finished(): void {
    this.#loaded = true;
  }

  /** `did-fail-load`. A subframe's failure, or a load another replaced, is not the window's. */
  failed(failure: LoadFailure & { isMainFrame: boolean }): LoadAction {
    if (!failure.isMainFrame || failure.code === ERR_ABORTED) return NONE;
    // The error page itself failing (it cannot, short of a broken Chromium): show what there is rather than loop.
    if (failure.url?.startsWith("data:")) return this.#show();
    return this.#showError(failure);
  }

  /**
   * `LOAD_TIMEOUT_MS` after the window opened or its page was loaded again. A page that loaded (painted or not) shows
   * as it is; one still loading is replaced by the error page.
   */
  timedOut(): LoadAction {
    if (this.#loaded || this.#showingError) return this.#show();
    return this.#showError({ description: `The page did not load within ${LOAD_TIMEOUT_MS / 1000} seconds.` });
  }

  /** The app's page is being loaded again (Reload, or after a crash). */
  reloading(): void {
    this.#loaded = false;
    this.#showingError = false;
  }

  #show(): LoadAction {
    if (this.#shown) return NONE;
    this.#shown = true;
    return { kind: "show" };
  }

  #showError(failure: LoadFailure): LoadAction {
    this.#shown = true;
    this.#showingError = true;
    return { kind: "show-error", page: loadFailurePage(failure) };
  }
}

/** The error page for `failure`, as a `data:` URL. */
export function loadFailurePage(failure: LoadFailure): string {
  const code = failure.code === undefined ? "" : `(${failure.code})`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Paddock could not load this window</title>
<style>
:root { color-scheme: light dark; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: Canvas; color: CanvasText; }
main { max-width: 34rem; padding: 2rem; }
h1 { font-size: 1.3rem; margin: 0 0 .75rem; }
p { margin: 0 0 1rem; }
code { font: .9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
.reload { display: inline-block; padding: .45rem 1.1rem; border-radius: 6px; background: #2563eb; color: #fff; text-decoration: none; font-weight: 600; }
.reload:focus-visible { outline: 2px solid #93c5fd; outline-offset: 2px; }
.muted { opacity: .75; font-size: .9rem; }
</style></head>
<body><main>
<h1>Paddock could not load this window</h1>
<p data-testid="load-failure">${code ? `The page failed to load: ${escapeHtml(failure.description)} <code>${escapeHtml(code)}</code>` : escapeHtml(failure.description)}</p>
${failure.url ? `<p class="muted">Page: <code>${escapeHtml(failure.url)}</code></p>` : ""}
<p><a class="reload" href="${RELOAD_URL}" data-testid="load-failure-reload">Reload</a></p>
<p class="muted">Your chats are safe: their agents keep working. If this keeps happening, reinstall Paddock.</p>
</main></body></html>`;
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}
