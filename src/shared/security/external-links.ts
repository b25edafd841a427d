/**
 * The one rule for links that leave Paddock, used by the page (which links are live, what they show, when to ask)
 * and by main (what it hands to the system): http(s) and mailto go out, everything else is dropped. And the check
 * for links whose text disguises where they lead.
 */

/** A link Paddock may open outside the app. */
export interface LinkTarget {
  kind: "web" | "mail";
  /** What to open: the parsed URL, serialized (so the same string the check judged, never the raw text). */
  href: string;
  /**
   * The target as a person should read it: host names in their ASCII (punycode) form, so `bаnk.com` with a
   * Cyrillic "а" shows as `xn--bnk-6cd.com`; for mail, the decoded address with its domain so.
   */
  display: string;
  /** Lower-case ASCII host (web) or mail domain; "" when there is none. */
  host: string;
  /** The mail address, lower-cased, for mail targets. */
  address?: string;
  /** The URL names a user (and maybe a password) before its host: `https://bank.com@evil.com/`. */
  hasUserInfo: boolean;
}

/**
 * The link target `href` names when Paddock may open it (http, https, mailto), undefined for anything else
 * (javascript:, file:, data:, custom protocols, relative or unparsable addresses). Never throws.
 */
export function linkTarget(href: string): LinkTarget | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  if (url.protocol === "http:" || url.protocol === "https:") {
    if (url.hostname === "") return undefined;
    return { kind: "web", href: url.href, display: url.href, host: url.hostname.toLowerCase(), hasUserInfo: url.username !== "" || url.password !== "" };
  }
  if (url.protocol === "mailto:") {
    const raw = url.pathname;
    let address: string;
    try {
      address = decodeURIComponent(raw);
    } catch {
      address = raw;
    }
    const at = address.lastIndexOf("@");
    const domain = at === -1 ? "" : asciiHost(address.slice(at + 1)) ?? "";
    const shown = at === -1 ? address : `${address.slice(0, at + 1)}${domain}`;
    return {
      kind: "mail",
      href: url.href,
      display: `mailto:${shown}${url.search}`,
      host: domain,
      address: shown.toLowerCase(),
      hasUserInfo: false,
    };
  }
  return undefined;
}

/** `host` in lower-case ASCII (punycode) form, or undefined when it is no valid host name. */
function asciiHost(host: string): string | undefined {
  try {
    const parsed = new URL(`http://${host}/`);
    // Anything that would have been a path, port or user is not part of a plain host name.
    return parsed.port === "" && parsed.username === "" && parsed.pathname === "/" ? parsed.hostname.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Common file extensions that are also top-level domains (`.md`, `.rs`, `.sh`...). A bare name ending in one
 * (`README.md`, `main.rs`) is read as a file name, not a domain: model output names files all the time, and asking
 * before every link to a file on GitHub would teach people to click through the question. With `www.` or a scheme
 * in front it is an address again.
 */
const FILE_EXTENSIONS = new Set(["md", "rs", "sh", "py", "pl", "ts", "js", "rb", "cc", "cs", "go", "java", "json", "php", "kt", "lock", "toml", "txt", "yml", "yaml", "zip", "mov"]);

/** A URL with a scheme, an e-mail address, or a host name (at least one dot, a final label of letters). */
const ADDRESS = /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"']+|[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+|(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,63}(?![\p{L}\p{N}-])(?:[/?#][^\s<>"']*)?/giu;

interface ShownAddress {
  text: string;
  kind: "web" | "mail";
  /** ASCII host or mail domain; undefined when it cannot be one. */
  host: string | undefined;
  address?: string;
  /** The text writes the host with characters outside ASCII (it may imitate another host). */
  unicode: boolean;
}

/** How much of a link's text is searched for addresses: far more than any link shows, and a bound on the work. */
const MAX_TEXT_CHARS = 4_000;

/** The addresses a link's visible text shows, in order. */
function addressesIn(text: string): ShownAddress[] {
  const found: ShownAddress[] = [];
  for (const match of text.slice(0, MAX_TEXT_CHARS).matchAll(ADDRESS)) {
    const token = match[0].replace(/[.,;:!?)\]}'"]+$/u, "");
    if (token.includes("://")) {
      let url: URL | undefined;
      try {
        url = new URL(token);
      } catch {
        url = undefined;
      }
      const rawHost = /^[^:]+:\/\/(?:[^@/?#]*@)?([^/?#:]*)/u.exec(token)?.[1] ?? "";
      found.push({ text: token, kind: "web", host: url?.hostname.toLowerCase() || undefined, unicode: /[^\x00-\x7f]/u.test(rawHost) });
    } else if (token.includes("@")) {
      const at = token.lastIndexOf("@");
      const domain = token.slice(at + 1);
      const host = asciiHost(domain);
      found.push({
        text: token,
        kind: "mail",
        host,
        address: host === undefined ? undefined : `${token.slice(0, at + 1)}${host}`.toLowerCase(),
        unicode: /[^\x00-\x7f]/u.test(domain),
      });
    } else {
      const name = /^[^/?#]*/u.exec(token)![0];
      const tld = name.slice(name.lastIndexOf(".") + 1).toLowerCase();
      if (FILE_EXTENSIONS.has(tld) && !/^www\./iu.test(name)) continue;
      found.push({ text: token, kind: "web", host: asciiHost(name), unicode: /[^\x00-\x7f]/u.test(name) });
    }
  }
  return found;
}

/** Hosts are the same site for a reader when equal but for a leading `www.`. */
function sameHost(a: string, b: string): boolean {
  const bare = (h: string) => h.replace(/^www\./u, "");
  return bare(a) === bare(b);
}

/**
 * What a link's visible `text` shows that its target is not: the first address in the text (a URL, a domain, an
 * e-mail address) that names another host or address than `target`, or one written in non-ASCII letters (which
 * can imitate any other); or the target's own address when it names a user before its host. Undefined when the
 * text shows no address, or only the target's. A disguise is a reason to ask before opening, with the real target
 * in full; it is never a reason to open anything.
 */
export function misleadingAddress(text: string, target: LinkTarget): string | undefined {
  for (const shown of addressesIn(text)) {
    if (shown.unicode || shown.host === undefined) return shown.text;
    if (shown.kind !== target.kind) return shown.text;
    if (shown.kind === "mail" ? shown.address !== target.address : !sameHost(shown.host, target.host)) return shown.text;
  }
  if (target.hasUserInfo) return target.display;
  return undefined;
}
