/**
 * The message list's one hook for find and search: scroll a row into view, flash it, and highlight text in it
 * (text-highlight.ts). The list stops following new messages, as when the user scrolls up.
 */
import { useLayoutEffect, useRef, type RefObject } from "react";
import type { Virtualizer } from "@tanstack/react-virtual";
import { clearHighlights, highlightRow } from "./text-highlight";
import { REVEAL_EVENT, revealHiddenAround } from "./reveal-hidden";

export interface RowReveal {
  /** The row's key (`messageRowKey` of its message's index). */
  key: string;
  /** Text to highlight in the row ("": none). */
  query: string;
  /**
   * Where in the row the text is: a tool call's id when it is that call's output (a tool result shows in the tool
   * card of its call, in the row of the reply that made the call); the card is opened to show it. None: the row.
   */
  part?: string;
  /** Which occurrence of `query` in the row (in `part`, when given) is the current one (from 0). */
  occurrence: number;
  /** New for every request: asking for the same row again scrolls to it again. */
  nonce: number;
  /** The highlight fades after a few seconds (a search result opened) rather than staying (find in chat). */
  transient?: boolean;
}

/** Frames to wait for the row to be rendered, and frames during which its measured size may still move it. */
const MAX_WAIT_FRAMES = 60;
const SETTLE_FRAMES = 6;
const FLASH_MS = 1600;
const TRANSIENT_MS = 4000;
/** The highlighted text is kept at least this far inside the list's edges. */
const MARGIN = 48;

export function useRevealRow(
  scrollRef: RefObject<HTMLDivElement | null>,
  virtualizer: Virtualizer<HTMLDivElement, Element>,
  keys: () => readonly string[],
  reveal: RowReveal | undefined,
  unstick: () => void,
): void {
  const latest = useRef({ virtualizer, keys, unstick });
  latest.current = { virtualizer, keys, unstick };
  useLayoutEffect(() => {
    if (!reveal) return;
    const { virtualizer: list, keys: rowKeys, unstick: stopFollowing } = latest.current;
    const index = rowKeys().indexOf(reveal.key);
    if (index < 0) return;
    stopFollowing();
    list.scrollToIndex(index, { align: "center" });
    let frame = 0;
    let waited = 0;
    let settling = 0;
    let observer: MutationObserver | undefined;
    const timers: ReturnType<typeof setTimeout>[] = [];
    const bringIntoView = (target: Range | Element) => {
      const scroller = scrollRef.current;
      if (!scroller) return;
      const box = scroller.getBoundingClientRect();
      const rect = target.getBoundingClientRect();
      if (rect.top >= box.top + MARGIN && rect.bottom <= box.bottom - MARGIN) return;
      scroller.scrollTop += rect.top + rect.height / 2 - (box.top + box.height / 2);
    };
    /** Highlights the text; `open`: a folded tool card holding it is asked to open (only while settling). */
    const mark = (row: Element, open: boolean) => {
      const within = reveal.part === undefined ? row : toolOutput(row, reveal.part, open);
      if (!within) return row.querySelector(toolCardSelector(reveal.part!)) ?? row;
      const range = reveal.query ? highlightRow(within, reveal.query, reveal.occurrence) : undefined;
      return range ?? within;
    };
    const settle = (row: Element) => {
      if (!row.isConnected) return;
      const target = mark(row, true);
      // Only while settling: a message the user folds again afterwards stays folded.
      if (target instanceof Range) revealHiddenAround(target);
      bringIntoView(target);
      if (++settling < SETTLE_FRAMES) frame = requestAnimationFrame(() => settle(row));
    };
    const look = () => {
      const row = scrollRef.current?.querySelector(`.vrow[data-key="${CSS.escape(reveal.key)}"]`);
      if (!row) {
        // Far rows sit at estimated places until rows near them are measured: aim again with what is known now.
        const now = latest.current.keys().indexOf(reveal.key);
        if (now >= 0 && waited % 4 === 3) latest.current.virtualizer.scrollToIndex(now, { align: "center" });
        if (++waited < MAX_WAIT_FRAMES) frame = requestAnimationFrame(look);
        return;
      }
      row.setAttribute("data-revealed", "");
      timers.push(setTimeout(() => row.removeAttribute("data-revealed"), FLASH_MS));
      settle(row);
      // Code is highlighted a task later and long texts fill in near the screen: mark the new text again.
      observer = new MutationObserver(() => {
        if (settling >= SETTLE_FRAMES) mark(row, false);
      });
      observer.observe(row, { subtree: true, childList: true, characterData: true });
      if (reveal.transient) timers.push(setTimeout(() => {
        observer?.disconnect();
        clearHighlights();
      }, TRANSIENT_MS));
    };
    look();
    const scroller = scrollRef.current;
    return () => {
      cancelAnimationFrame(frame);
      observer?.disconnect();
      for (const timer of timers) clearTimeout(timer);
      scroller?.querySelector("[data-revealed]")?.removeAttribute("data-revealed");
      clearHighlights();
    };
    // One reveal per request: the nonce says when there is a new one.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reveal's other fields come with its nonce
  }, [reveal?.nonce, scrollRef]);
}

function toolCardSelector(callId: string): string {
  return `[data-tool-call="${CSS.escape(callId)}"]`;
}

/**
 * The output of tool call `callId` in `row`, or undefined while its card is folded: with `open`, the card is then
 * asked to open (REVEAL_EVENT), and the next frame marks the output.
 */
function toolOutput(row: Element, callId: string, open: boolean): Element | undefined {
  const card = row.querySelector(toolCardSelector(callId));
  const output = card?.querySelector("[data-find-output]");
  if (output) return output;
  if (open) card?.dispatchEvent(new Event(REVEAL_EVENT));
  return undefined;
}
