/**
 * What `app://paddock/...` answers (main/app-page/page-files.ts): the built renderer's files with their types and
 * the policy header, 404 for what is not there, and nothing outside the renderer folder, however the path is spelt.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { resolvePageFile, servePageRequest } from "../../../../src/main/app-page/page-files";
import { contentSecurityPolicy } from "../../../../src/shared/security/content-security-policy";
import { TempFolders } from "../../../../testkit/temp-folders";

const folders = new TempFolders("paddock-app-page-");
let outside: string;
let root: string;

beforeAll(() => {
  // The renderer folder and, beside it, a file the page must never reach.
  outside = folders.make({
    "secret.txt": "not for the page",
    "renderer/index.html": "<!doctype html><title>Paddock</title>",
    "renderer/assets/index-abc.js": "console.log(1)",
    "renderer/assets/index-abc.css": "body{}",
    "renderer/assets/logo.svg": "<svg/>",
    "renderer/assets/data.bin": "\u0000\u0001",
  });
  root = join(outside, "renderer");
});
afterAll(() => folders.removeAll());

const get = (url: string, init: { method?: string; initiatorOrigin?: string | null } = {}) =>
  servePageRequest(root, { method: init.method ?? "GET", url, ...("initiatorOrigin" in init ? { initiatorOrigin: init.initiatorOrigin } : {}) });

describe("the app:// handler", () => {
  it("serves the page and its assets with their content types, the policy and nosniff on each", async () => {
    const page = await get("app://paddock/index.html?session=abc#x");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<title>Paddock</title>");
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toBe(contentSecurityPolicy());
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");

    const types = await Promise.all(["assets/index-abc.js", "assets/index-abc.css", "assets/logo.svg", "assets/data.bin"].map(async (path) => {
      const response = await get(`app://paddock/${path}`, { initiatorOrigin: "app://paddock" });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-security-policy")).toBe(contentSecurityPolicy());
      return response.headers.get("content-type");
    }));
    expect(types).toEqual(["text/javascript; charset=utf-8", "text/css; charset=utf-8", "image/svg+xml", "application/octet-stream"]);
  });

  it("answers 404 for files that are not there, folders, and the bare origin", async () => {
    for (const url of ["app://paddock/missing.js", "app://paddock/assets", "app://paddock/", "app://paddock"]) {
      const response = await get(url);
      expect(response.status, url).toBe(404);
      expect(response.headers.get("content-security-policy"), url).toBe(contentSecurityPolicy());
    }
  });

  it("never serves a file outside the renderer folder, however the path is spelt", async () => {
    const escapes = [
      "app://paddock/../secret.txt",
      "app://paddock/assets/../../secret.txt",
      "app://paddock/%2e%2e/secret.txt",
      "app://paddock/%2E%2e%2Fsecret.txt",
      "app://paddock/..%2fsecret.txt",
      "app://paddock/..%5csecret.txt",
      "app://paddock/%2fetc%2fpasswd",
      "app://paddock//etc/passwd",
      `app://paddock/${encodeURIComponent(join(outside, "secret.txt"))}`,
      "app://paddock/C:%5cWindows%5cwin.ini",
      "app://paddock/index.html%00.js",
    ];
    for (const url of escapes) {
      const response = await get(url);
      expect([400, 403, 404], url).toContain(response.status);
      expect(await response.text(), url).not.toContain("not for the page");
    }
    // Dot segments, encoded or not, are resolved by the URL parser and stop at the origin's root; what survives
    // parsing as a name with a separator in it is refused before the disk is asked.
    expect(resolvePageFile(root, "app://paddock/%2e%2e/assets/../../secret.txt")).toEqual({ ok: true, file: join(root, "secret.txt") });
    expect(resolvePageFile(root, "app://paddock/..%2fsecret.txt")).toMatchObject({ ok: false, status: 403 });
    expect(resolvePageFile(root, "app://paddock/..%5csecret.txt")).toMatchObject({ ok: false, status: 403 });
    expect(resolvePageFile(root, "app://paddock//etc/passwd")).toMatchObject({ ok: false, status: 403 });
    expect(resolvePageFile(root, "app://paddock/%E0%A4%A")).toMatchObject({ ok: false, status: 400 });
    expect(resolvePageFile(root, "app://paddock/assets/index-abc.js")).toEqual({ ok: true, file: join(root, "assets/index-abc.js") });
  });

  it("serves only its own host, only GET and HEAD, and only to the app itself", async () => {
    expect((await get("app://elsewhere/index.html")).status).toBe(404);
    expect((await get("https://paddock/index.html")).status).toBe(404);
    expect((await get("app://paddock/index.html", { method: "POST" })).status).toBe(405);
    const head = await get("app://paddock/index.html", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    // Main's own load has no initiator; the page's subresources come from app://paddock; nobody else is served.
    expect((await get("app://paddock/index.html", { initiatorOrigin: "https://evil.example" })).status).toBe(403);
    expect((await get("app://paddock/index.html", { initiatorOrigin: null })).status).toBe(403);
  });
});
