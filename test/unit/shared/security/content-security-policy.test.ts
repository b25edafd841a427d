import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, CSP_META_PATTERN, withMetaPolicy } from "../../../../src/shared/security/content-security-policy";

const page = readFileSync("src/renderer/index.html", "utf8");

describe("the pages' Content-Security-Policy", () => {
  it("ships the strict policy in the page itself: no sockets, no inline scripts, no eval", () => {
    const meta = CSP_META_PATTERN.exec(page)?.[2];
    expect(meta).toBe(contentSecurityPolicy({ forMetaTag: true }));
    expect(meta).not.toMatch(/ws:|unsafe-eval/);
    expect(meta).toMatch(/script-src 'self';/);
  });

  it("lets only the browser host's pages reach loopback WebSockets, and only dev pages run inline scripts", () => {
    const served = CSP_META_PATTERN.exec(withMetaPolicy(page, { loopbackWebSockets: true }))?.[2];
    expect(served).toContain("connect-src 'self' ws://127.0.0.1:* ws://localhost:*");
    expect(served).toMatch(/script-src 'self';/);
    expect(contentSecurityPolicy({ devServer: true })).toContain("script-src 'self' 'unsafe-inline'");
    expect(contentSecurityPolicy()).toContain("frame-ancestors 'none'");
    expect(contentSecurityPolicy({ forMetaTag: true })).not.toContain("frame-ancestors");
  });
});
