/**
 * Marks text inside one transcript row without touching React's DOM: the CSS Custom Highlight API paints ranges
 * (`::highlight(paddock-find)` for every occurrence, `::highlight(paddock-find-current)` for the one the user is
 * on), so rendering, memoized Markdown and virtualization stay as they are. Where the API is missing the row is
 * still scrolled to and flashed.
 */

const ALL = "paddock-find";
const CURRENT = "paddock-find-current";

interface HighlightRegistry {
  set(name: string, highlight: unknown): void;
  delete(name: string): void;
}

function registry(): HighlightRegistry | undefined {
  const css = (globalThis as { CSS?: { highlights?: HighlightRegistry } }).CSS;
  return typeof (globalThis as { Highlight?: unknown }).Highlight === "function" ? css?.highlights : undefined;
}

/** Ranges of every case-insensitive occurrence of `query` in the text under `root`, in document order. */
export function occurrenceRanges(root: Node, query: string): Range[] {
  const needle = query.toLowerCase();
  if (needle === "") return [];
  // Text nodes with where each starts in their concatenation: an occurrence may span nodes (`**bold**` splits text).
  const nodes: Text[] = [];
  const starts: number[] = [];
  let text = "";
  // The page's own words inside a row (a "Show more" button) are not the message's: see reveal-hidden.ts.
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (node.parentElement?.closest("[data-find-skip]") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    nodes.push(node as Text);
    starts.push(text.length);
    text += (node as Text).data;
  }
  const lower = text.toLowerCase();
  const locate = (at: number): [Text, number] => {
    let lo = 0;
    let hi = nodes.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return [nodes[lo], at - starts[lo]];
  };
  const ranges: Range[] = [];
  for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + needle.length)) {
    const range = document.createRange();
    const [startNode, startOffset] = locate(at);
    const [endNode, endOffset] = locate(at + needle.length - 1);
    range.setStart(startNode, startOffset);
    range.setEnd(endNode, endOffset + 1);
    ranges.push(range);
  }
  return ranges;
}

/**
 * Highlights the occurrences of `query` in `row`, the `current`-th (or the last, when it has fewer) as the current
 * one, and returns that one's range. Rows re-render (code is highlighted a task later, long texts fill in as they
 * near the screen), so the caller calls again when the row changes.
 */
export function highlightRow(row: Element, query: string, current: number): Range | undefined {
  const ranges = occurrenceRanges(row, query);
  const chosen = ranges[Math.min(current, ranges.length - 1)];
  const highlights = registry();
  if (highlights) {
    const Highlight = (globalThis as unknown as { Highlight: new (...ranges: Range[]) => unknown }).Highlight;
    highlights.set(ALL, new Highlight(...ranges));
    if (chosen) highlights.set(CURRENT, new Highlight(chosen));
    else highlights.delete(CURRENT);
  }
  return chosen;
}

/** Removes every find highlight. */
export function clearHighlights(): void {
  const highlights = registry();
  highlights?.delete(ALL);
  highlights?.delete(CURRENT);
}
