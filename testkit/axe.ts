/**
 * axe-core in a Playwright page: the accessibility rules we hold the app to (contrast, labels, names, ARIA), run
 * on what the page shows now, failing with a list a person can act on. axe is put into the page through the
 * DevTools protocol (`page.evaluate`), which the page's Content-Security-Policy does not govern, so nothing about
 * the app changes for the test.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import type { AxeResults, NodeResult, Result } from "axe-core";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** Rules by id, besides every `aria-*` rule of this axe version that is not experimental. */
export const AXE_RULES = ["color-contrast", "label", "button-name", "link-name", "input-button-name", "select-name", "image-alt", "nested-interactive"];

export interface AxeCheck {
  /** Elements to leave out, as CSS selectors (say why where you call it). */
  exclude?: string[];
  /**
   * Check what lies below the fold of the page's scrolling panes too (default true). axe judges contrast only for
   * text in the viewport, and the app scrolls inside panes (Settings, the transcript): the window is made as tall as
   * the tallest pane's content for the check (at most MAX_HEIGHT), then put back.
   */
  wholeHeight?: boolean;
}

/** The tallest window a whole-height check makes: past it, what is further down goes unchecked. */
const MAX_HEIGHT = 12_000;

/** One rule broken by one or more elements, in short. */
export interface AxeViolation {
  rule: string;
  impact: string;
  help: string;
  /** Each offending element: its selector and what axe says is wrong with it (colours and ratio for contrast). */
  nodes: { target: string; why: string }[];
}

/** Runs the rules on the page as it is; resolves with the violations (none: []). */
export async function axeViolations(page: Page, check: AxeCheck = {}): Promise<AxeViolation[]> {
  const viewport = page.viewportSize();
  if (check.wholeHeight === false || !viewport) return runAxe(page, check);
  let height = viewport.height;
  try {
    // A pane can grow while the window does (a section whose data arrives, rows a virtualized list adds): measure
    // again after each growth, a few times, so text at its very end is in view when axe runs.
    for (let round = 0; round < 4 && height < MAX_HEIGHT; round++) {
      const hidden = await hiddenHeight(page);
      if (hidden <= 1) break;
      height = Math.min(MAX_HEIGHT, height + hidden);
      await page.setViewportSize({ width: viewport.width, height });
      // Two frames: the panes grow and virtualized lists render the rows that now fit.
      await page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))");
    }
    return await runAxe(page, check);
  } finally {
    if (height !== viewport.height) await page.setViewportSize(viewport);
  }
}

/** How far the most overflowing element's content reaches past its box, in pixels. */
function hiddenHeight(page: Page): Promise<number> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ scrollHeight: number; clientHeight: number }> } }).document;
    return Math.max(0, ...Array.from(doc.querySelectorAll("*"), (el) => el.scrollHeight - el.clientHeight));
  });
}

async function runAxe(page: Page, check: AxeCheck): Promise<AxeViolation[]> {
  const hasAxe = await page.evaluate(() => typeof (globalThis as { axe?: unknown }).axe === "object");
  // Ends in `true`: the script's own completion value need not survive the trip back.
  if (!hasAxe) await page.evaluate(`${AXE_SOURCE}\n;true`);
  const results = await page.evaluate(async ({ rules, exclude }) => {
    const axe = (globalThis as unknown as { axe: typeof import("axe-core") }).axe;
    const aria = axe.getRules().filter((r) => r.ruleId.startsWith("aria-") && !r.tags.includes("experimental")).map((r) => r.ruleId);
    // The whole document (this file also compiles without the DOM library, hence no `document` by name).
    const context = exclude.length > 0 ? { exclude: exclude.map((s) => [s]) } : { include: [["html"]] };
    const run: AxeResults = await axe.run(context as Parameters<typeof axe.run>[0], {
      runOnly: { type: "rule", values: [...rules, ...aria] },
      resultTypes: ["violations"],
    });
    return run.violations;
  }, { rules: AXE_RULES, exclude: check.exclude ?? [] });
  return results.map(summarize);
}

/**
 * Fails (throws) when the page breaks any rule, naming each rule and element; `where` says which state of which
 * page was checked ("Settings, dark, 600 px").
 */
export async function expectAccessible(page: Page, where: string, check?: AxeCheck): Promise<void> {
  const violations = await axeViolations(page, check);
  if (violations.length > 0) throw new Error(`Accessibility violations in ${where}:\n${formatViolations(violations)}`);
}

export function formatViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map((v) => `- ${v.rule} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target}: ${n.why}`).join("\n")}`)
    .join("\n");
}

function summarize(result: Result): AxeViolation {
  return {
    rule: result.id,
    impact: result.impact ?? "unknown",
    help: result.help,
    nodes: result.nodes.slice(0, 12).map((node) => ({ target: node.target.join(" "), why: why(node) })),
  };
}

/** The first reason axe gives for a node, with the measured colours for contrast. */
function why(node: NodeResult): string {
  const check = [...node.any, ...node.all, ...node.none][0];
  const data = check?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number; expectedContrastRatio?: string } | undefined;
  if (data?.contrastRatio !== undefined) {
    return `${data.fgColor} on ${data.bgColor} is ${data.contrastRatio}:1, needs ${data.expectedContrastRatio} ("${node.html.slice(0, 80)}")`;
  }
  return (check?.message ?? node.failureSummary ?? "").replace(/\s+/g, " ").slice(0, 240);
}
