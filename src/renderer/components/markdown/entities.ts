const NAMED: Record<string, string> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0", copy: "\u00a9", reg: "\u00ae",
  trade: "\u2122", hellip: "\u2026", mdash: "\u2014", ndash: "\u2013", larr: "\u2190", rarr: "\u2192",
  times: "\u00d7", middot: "\u00b7", laquo: "\u00ab", raquo: "\u00bb", deg: "\u00b0",
};

/**
 * Resolves the HTML character references marked leaves in text tokens (`&amp;`, `&#39;`, `&#x1F600;`, common
 * named ones). Unknown names stay as written. Never produces markup: the result is rendered as a text node.
 */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}
