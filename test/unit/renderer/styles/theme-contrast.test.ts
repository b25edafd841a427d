/**
 * The theme's colours pass WCAG AA in both schemes: every text colour on every background it can sit on at least
 * 4.5:1. Read from theme.css itself, so a colour changed there is checked here; axe (test/e2e/accessibility.e2e)
 * checks the rendered pages.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const css = readFileSync(join(__dirname, "../../../../src/renderer/styles/theme.css"), "utf8");

/** `--name: light-dark(#light, #dark)` pairs of theme.css. */
const pairs = new Map<string, [string, string]>();
for (const m of css.matchAll(/--([\w-]+):\s*light-dark\((#[0-9a-f]{6}),\s*(#[0-9a-f]{6})\)/gi)) pairs.set(m[1], [m[2], m[3]]);

function colour(name: string, scheme: 0 | 1): string {
  const pair = pairs.get(name);
  if (!pair) throw new Error(`theme.css has no light-dark pair for --${name}`);
  return pair[scheme];
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG's contrast ratio, 1 to 21. */
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Every pair below 4.5:1, as "text on background in scheme: ratio", so a failure names them all. */
function failures(texts: readonly string[], backgrounds: readonly string[]): string[] {
  const out: string[] = [];
  for (const scheme of [0, 1] as const) {
    for (const text of texts) {
      for (const bg of backgrounds) {
        const ratio = contrast(colour(text, scheme), colour(bg, scheme));
        if (ratio < 4.5) out.push(`--${text} on --${bg} (${scheme ? "dark" : "light"}): ${ratio.toFixed(2)}`);
      }
    }
  }
  return out;
}

const SURFACES = ["bg", "bg-sidebar", "bg-elevated", "bg-subtle", "bg-hover", "bg-active", "bg-user", "bg-code", "bg-code-header"];
const TINTS = ["accent-soft", "warn-soft", "danger-soft", "ok-soft", "info-soft"];

describe("the theme's contrast (WCAG AA)", () => {
  it("reads the colours from theme.css", () => {
    expect(contrast("#ffffff", "#000000")).toBeCloseTo(21, 5);
    expect(pairs.size).toBeGreaterThan(20);
  });

  it("body, muted and faint text reach 4.5:1 on every surface and tint", () => {
    expect(failures(["text", "text-muted", "text-faint"], [...SURFACES, ...TINTS])).toEqual([]);
  });

  it("coloured text (links, statuses, warnings) reaches 4.5:1 on the surfaces it sits on and on its own tint", () => {
    const onSurfaces = ["bg", "bg-sidebar", "bg-elevated", "bg-subtle", "bg-hover"];
    expect(failures(["accent", "danger", "warn", "ok"], onSurfaces)).toEqual([]);
    expect([
      ...failures(["accent"], ["accent-soft"]), ...failures(["danger"], ["danger-soft"]),
      ...failures(["warn"], ["warn-soft"]), ...failures(["ok"], ["ok-soft"]),
    ]).toEqual([]);
  });

  it("text on the accent (primary buttons, the selected segment) reaches 4.5:1", () => {
    expect(failures(["accent-text"], ["accent", "danger"])).toEqual([]);
  });

  it("every code token colour reaches 4.5:1 on code's background", () => {
    const tokens = [...pairs.keys()].filter((name) => name.startsWith("hl-"));
    expect(tokens.length).toBe(8);
    expect(failures(tokens, ["bg-code"])).toEqual([]);
  });
});
