/** Small protocol facts shared by main, the browser host and pages (no dependencies, so any bundle may import them). */

/** A session id: safe as a file name and a URL segment. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

/** The HTTP header carrying a browser host page's credential (or a script's host token) on its API calls. */
export const WEB_HOST_TOKEN_HEADER = "x-paddock-token";

/**
 * The `<meta name>` in which the browser host hands a page credential to the page its printed address loads (never the
 * token itself: web-host/page-credentials.ts).
 */
export const PAGE_TOKEN_META = "paddock-token";
