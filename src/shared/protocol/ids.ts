/** Small protocol facts shared by main, the browser host and pages (no dependencies, so any bundle may import them). */

/** A session id: safe as a file name and a URL segment. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

/** The HTTP header carrying the browser host's per-run token on its API calls. */
export const WEB_HOST_TOKEN_HEADER = "x-paddock-token";

/** The `<meta name>` in which the browser host hands its token to the pages it serves (so the URL need not keep it). */
export const PAGE_TOKEN_META = "paddock-token";
