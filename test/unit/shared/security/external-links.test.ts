/**
 * Links that leave Paddock (shared/security/external-links.ts): which targets may open at all, how a target is
 * shown, and when a link's text disguises where it leads (the page then asks before opening it).
 */
import { describe, expect, it } from "vitest";
import { linkTarget, misleadingAddress } from "../../../../src/shared/security/external-links";

/** What the text of a link to `href` disguises (undefined: nothing, it opens at once). */
const disguise = (text: string, href: string) => misleadingAddress(text, linkTarget(href)!);

describe("linkTarget", () => {
  it("lets out http, https and mailto, parsed", () => {
    expect(linkTarget("https://example.com/a b")).toMatchObject({ kind: "web", href: "https://example.com/a%20b", host: "example.com" });
    expect(linkTarget("HTTP://Example.COM")).toMatchObject({ kind: "web", href: "http://example.com/", host: "example.com" });
    expect(linkTarget("mailto:Ann@Example.com?subject=hi")).toMatchObject({ kind: "mail", host: "example.com", address: "ann@example.com" });
  });

  it("drops every other scheme, and what is no absolute URL", () => {
    for (const href of ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "file:///etc/passwd", "data:text/html,x", "vbscript:x", "app://paddock/index.html", "ftp://example.com/", "/relative", "example.com", "", "http://"]) {
      expect(linkTarget(href), href).toBeUndefined();
    }
  });

  it("shows look-alike host names as punycode, in web and mail targets", () => {
    // "bаnk" with a Cyrillic "а".
    expect(linkTarget("https://bаnk.com/login")!.display).toBe("https://xn--bnk-6cd.com/login");
    expect(linkTarget("mailto:support@bаnk.com")!.display).toBe("mailto:support@xn--bnk-6cd.com");
    expect(linkTarget("https://bank.com/")!.display).toBe("https://bank.com/");
  });
});

describe("misleadingAddress: does a link's text disguise its target", () => {
  it("text showing another address is a disguise", () => {
    expect(disguise("https://bank.com", "https://evil.com")).toBe("https://bank.com");
    expect(disguise("bank.com", "https://evil.com/bank.com")).toBe("bank.com");
    expect(disguise("Log in at www.bank.com now", "https://evil.com")).toBe("www.bank.com");
    expect(disguise("support@bank.com", "mailto:phish@evil.com")).toBe("support@bank.com");
    expect(disguise("support@bank.com", "https://bank.com/")).toBe("support@bank.com");
    expect(disguise("bank.com", "mailto:info@bank.com")).toBe("bank.com");
    expect(disguise("docs.example.com", "https://example.com.evil.com/")).toBe("docs.example.com");
  });

  it("text that shows no address, or the target's own, is none", () => {
    expect(disguise("docs", "https://evil.com")).toBeUndefined();
    expect(disguise("the guide, section 2", "https://example.com/guide#2")).toBeUndefined();
    expect(disguise("example.com", "https://example.com/x")).toBeUndefined();
    expect(disguise("https://example.com/a", "https://example.com/b")).toBeUndefined();
    expect(disguise("www.example.com", "https://example.com")).toBeUndefined();
    expect(disguise("EXAMPLE.COM", "https://example.com")).toBeUndefined();
    expect(disguise("Ann@Example.com", "mailto:ann@example.com")).toBeUndefined();
    expect(disguise("https://example.com/x", "https://example.com/x")).toBeUndefined();
  });

  it("file names are not domains, though some end in a real top-level domain", () => {
    expect(disguise("README.md", "https://github.com/org/repo/blob/main/README.md")).toBeUndefined();
    expect(disguise("src/main.rs", "https://github.com/org/repo")).toBeUndefined();
    expect(disguise("Node.js", "https://nodejs.org/")).toBeUndefined();
    expect(disguise("version 1.2, e.g. here", "https://example.com")).toBeUndefined();
    // With www. or a scheme in front it is an address again.
    expect(disguise("www.release.zip", "https://evil.com")).toBe("www.release.zip");
  });

  it("a host written with look-alike letters is a disguise even when it is the target itself", () => {
    // The reader sees "bank.com" either way; the question shows the real, punycode host.
    expect(disguise("bаnk.com", "https://bank.com/")).toBe("bаnk.com");
    expect(disguise("bank.com", "https://bаnk.com/")).toBe("bank.com");
    expect(disguise("https://bаnk.com", "https://bаnk.com")).toBe("https://bаnk.com");
  });

  it("a target that names a user before its host is a disguise, whatever the text", () => {
    expect(disguise("https://bank.com@evil.com", "https://bank.com@evil.com")).toBe("https://bank.com@evil.com/");
    expect(disguise("sign in", "https://bank.com:pw@evil.com/")).toBe("https://bank.com:pw@evil.com/");
  });
});
