/**
 * The one Content-Security-Policy of Paddock's pages. Every host sends it as a response header: the desktop app's
 * app:// handler (main/app-page/page-files.ts), the browser host, and in development main for the dev server's
 * pages. The page also carries it in its <meta> tag, so a copy of the page opened any other way is held to it too.
 * Hosts that need more relax it at serve time:
 * - `devServer`: electron-vite's dev server (Vite's HMR socket and its inline React-refresh preamble);
 * - `loopbackWebSockets`: the browser host, whose pages talk to agent workers over ws://127.0.0.1.
 * `forMetaTag` leaves out what a <meta> policy may not carry (browsers ignore it and log an error).
 */
export interface CspOptions {
  devServer?: boolean;
  loopbackWebSockets?: boolean;
  forMetaTag?: boolean;
}

export function contentSecurityPolicy(options: CspOptions = {}): string {
  const sockets = options.devServer || options.loopbackWebSockets ? ["ws://127.0.0.1:*", "ws://localhost:*"] : [];
  const directives: [string, string[]][] = [
    ["default-src", ["'none'"]],
    ["script-src", options.devServer ? ["'self'", "'unsafe-inline'"] : ["'self'"]],
    ["style-src", ["'self'", "'unsafe-inline'"]],
    ["img-src", ["'self'", "data:", "blob:"]],
    ["font-src", ["'self'", "data:"]],
    ["connect-src", ["'self'", ...sockets]],
    ["worker-src", ["'self'", "blob:"]],
    ["object-src", ["'none'"]],
    ["base-uri", ["'none'"]],
    ["form-action", ["'none'"]],
  ];
  if (!options.forMetaTag) directives.push(["frame-ancestors", ["'none'"]]);
  return directives.map(([name, sources]) => `${name} ${sources.join(" ")}`).join("; ");
}

/** The page's <meta> policy tag, as it appears in src/renderer/index.html. */
export const CSP_META_PATTERN = /(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(")/;

/** `html` with its <meta> policy replaced by the one for `options` (for hosts that serve the page themselves). */
export function withMetaPolicy(html: string, options: CspOptions): string {
  return html.replace(CSP_META_PATTERN, (_, open: string, _old: string, close: string) => `${open}${contentSecurityPolicy({ ...options, forMetaTag: true })}${close}`);
}
