/**
 * A window whose page does not load still shows, with an error page naming the failure and a Reload: what a window's
 * load events make it do (electron/chat-windows.ts does it), and the page itself (its words, no script, its escaping).
 * The page in Chromium: test/e2e/load-failure-page.e2e.test.ts.
 */
import { describe, expect, it } from "vitest";
import { LOAD_TIMEOUT_MS, loadFailurePage, PageLoadWatch, RELOAD_URL, type LoadAction } from "../../../../src/main/app-page/load-failure";

const html = (url: string) => {
  expect(url.startsWith("data:text/html;charset=utf-8,")).toBe(true);
  return decodeURIComponent(url.slice("data:text/html;charset=utf-8,".length));
};
const errorPage = (action: LoadAction) => {
  expect(action.kind).toBe("show-error");
  return html((action as Extract<LoadAction, { kind: "show-error" }>).page);
};

describe("a window's page loading", () => {
  it("shows the window once painted, once only", () => {
    const watch = new PageLoadWatch();
    watch.finished();
    expect(watch.readyToShow()).toEqual({ kind: "show" });
    expect(watch.timedOut()).toEqual({ kind: "none" });
    expect(watch.showingError).toBe(false);
  });

  it("a failed load shows the window with an error page naming the failure", () => {
    const watch = new PageLoadWatch();
    const page = errorPage(watch.failed({ code: -6, description: "ERR_FILE_NOT_FOUND", url: "app://paddock/index.html", isMainFrame: true }));
    expect(page).toContain("The page failed to load: ERR_FILE_NOT_FOUND <code>(-6)</code>");
    expect(page).toContain("app://paddock/index.html");
    expect(watch.showingError).toBe(true);
    // The error page painting shows nothing twice, and its timer finds the window shown.
    expect(watch.readyToShow()).toEqual({ kind: "none" });
    expect(watch.timedOut()).toEqual({ kind: "none" });
  });

  it("a load another replaced (ERR_ABORTED), or a subframe's failure, is no failure of the window", () => {
    const watch = new PageLoadWatch();
    expect(watch.failed({ code: -3, description: "ERR_ABORTED", url: "app://paddock/index.html", isMainFrame: true })).toEqual({ kind: "none" });
    expect(watch.failed({ code: -105, description: "ERR_NAME_NOT_RESOLVED", url: "https://x.invalid/", isMainFrame: false })).toEqual({ kind: "none" });
    expect(watch.showingError).toBe(false);
  });

  it(`a page not loaded within ${LOAD_TIMEOUT_MS / 1000} s shows the error page; one loaded but never painted shows as it is`, () => {
    const hung = new PageLoadWatch();
    expect(errorPage(hung.timedOut())).toContain(`The page did not load within ${LOAD_TIMEOUT_MS / 1000} seconds.`);

    const unpainted = new PageLoadWatch();
    unpainted.finished();
    expect(unpainted.timedOut()).toEqual({ kind: "show" });
    expect(unpainted.showingError).toBe(false);
  });

  it("Reload starts over: a reload that fails again shows the error again; one that works leaves the error behind", () => {
    const watch = new PageLoadWatch();
    errorPage(watch.failed({ code: -6, description: "ERR_FILE_NOT_FOUND", isMainFrame: true }));
    watch.finished(); // the error page itself loaded
    watch.reloading();
    expect(watch.showingError).toBe(false);
    // The window is visible already: a hung reload still gets the error page, not a blank window.
    expect(errorPage(watch.timedOut())).toContain("did not load");
    watch.reloading();
    watch.finished();
    expect(watch.timedOut()).toEqual({ kind: "none" });
    expect(watch.showingError).toBe(false);
  });

  it("the error page failing itself shows the window rather than loop", () => {
    const watch = new PageLoadWatch();
    expect(watch.failed({ code: -2, description: "ERR_FAILED", url: "data:text/html;charset=utf-8,x", isMainFrame: true })).toEqual({ kind: "show" });
  });
});

describe("the error page", () => {
  it("runs no script, reloads through a link main intercepts, and escapes what it names", () => {
    const page = html(loadFailurePage({ code: -2, description: "<img src=x onerror=alert(1)>", url: "app://paddock/index.html?session=\"><script>" }));
    expect(page).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(page).toContain(`href="${RELOAD_URL}"`);
    expect(page).not.toContain("<img");
    expect(page).not.toMatch(/<script/i);
    expect(page).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(page).toContain("session=&quot;&gt;&lt;script&gt;");
  });

  it("names the failure without a code when there is none", () => {
    const page = html(loadFailurePage({ description: "The page did not load within 20 seconds." }));
    expect(page).toContain("The page did not load within 20 seconds.</p>");
    expect(page).not.toContain("Page: <code>");
  });
});
