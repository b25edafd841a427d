import { ScrollRoot } from "../common/scroll-root";
import { useCallback, useContext, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { ToolResultMessage } from "@earendil-works/pi-ai";
import type { ToolRun } from "../../../shared/agent/tool-runs";
import { MessageRow } from "./MessageRow";
import { USER_TEXT_MAX_LINES } from "./CollapsibleUserText";
import type { ChatItem } from "./chatItems";
import { useRevealRow, type RowReveal } from "../find/useRevealRow";
import { ListFollowContext } from "./message-actions-context";
import { JUMP_GAP, jumpPlacement } from "./jump-placement";
import { LayoutFrameContext } from "../common/LayoutFrameScope";

interface MessageListProps {
  items: readonly ChatItem[];
  toolRuns: Readonly<Record<string, ToolRun>>;
  toolResults: ReadonlyMap<string, ToolResultMessage>;
  /** Changes whenever the last row's content changes (a streamed token), so the list can stay pinned. */
  tailVersion: unknown;
  /** Changes when the user sends a message: the list goes back to the bottom and follows again. */
  followSignal?: number;
  /** Scrolls to a row and highlights text in it (find in chat, a search result opened). */
  reveal?: RowReveal;
}

/** Within this many pixels of the end the list counts as "at the bottom" and follows new content. */
const STICK_THRESHOLD = 48;

/**
 * The virtualized transcript: only rows near the viewport are in the DOM, measured as they render. It opens at the
 * bottom and follows new content while the user is at the bottom; scrolling up stops following until the user
 * returns (or presses "Jump to latest").
 */
export function MessageList({ items, toolRuns, toolResults, tailVersion, followSignal, reveal }: MessageListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);
  const [showJump, setShowJump] = useState(false);

  // Before the virtualizer sees new items: if rows are about to land above the reader, note which row is at the
  // top of the viewport and where, from the measurements the screen shows now.
  const heldRow = useRef<{ key: string; offset: number } | null>(null);
  const shownItems = useRef(items);
  const shownVirtualizer = useRef<ReturnType<typeof useVirtualizer<HTMLDivElement, Element>> | null>(null);
  const firstKey = firstMessageKey(items);
  if (shownItems.current !== items) {
    const before = shownItems.current;
    shownItems.current = items;
    const el = scrollRef.current;
    const shown = shownVirtualizer.current;
    if (el && shown && !stuck.current && firstMessageKey(before) !== firstKey) {
      const top = shown.getVirtualItemForOffset(el.scrollTop);
      // The placeholder row stays first whatever lands, so hold the row after it.
      const row = top && before[top.index]?.kind === "history" ? shown.measurementsCache[top.index + 1] : top;
      if (row && before[row.index]) heldRow.current = { key: before[row.index].key, offset: row.start - el.scrollTop };
    }
  }

  // Row keys follow from the row count and the first message's key (they are session-wide message indices), so
  // these stay the same function until one of those changes: the virtualizer re-derives every row's position
  // whenever they change, which must not happen on every streamed frame.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the keys change with these, as said above
  const getItemKey = useCallback((index: number) => shownItems.current[index].key, [items.length, firstKey]);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the same
  const estimateSize = useCallback((index: number) => estimateRowHeight(shownItems.current[index]), [items.length, firstKey]);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    // Open at the bottom: rendering the first rows only to scroll past them would double the work of opening a chat.
    initialOffset: () => items.reduce((sum, item) => sum + estimateRowHeight(item), 0),
    overscan: 6,
    getItemKey,
    paddingStart: 16,
    paddingEnd: 24,
  });

  shownVirtualizer.current = virtualizer;

  useRevealRow(scrollRef, virtualizer, () => shownItems.current.map((item) => item.key), reveal, () => {
    stuck.current = false;
    setShowJump(true);
  });

  // "Jump to latest" never covers a question's buttons: placed above an approval panel it would cover (jump-placement.ts),
  // in the chat body's one layout pass per frame with the notices (layout-frame.ts).
  const jumpRef = useRef<HTMLButtonElement>(null);
  const layoutFrame = useContext(LayoutFrameContext);
  // Placed only while shown: at the bottom (a reply streaming) the frame has nothing of the list's to place.
  useLayoutEffect(() => (showJump ? layoutFrame?.add(() => {
    const button = jumpRef.current;
    if (!button) return undefined;
    const height = button.offsetHeight;
    return (layout) => {
      const place = jumpPlacement(layout.list, height, layout.panels);
      const visibility = place === "hidden" ? "hidden" : "";
      const bottom = place === "hidden" || place === JUMP_GAP ? "" : `${place}px`;
      if (button.style.visibility !== visibility) button.style.visibility = visibility;
      if (button.style.bottom !== bottom) button.style.bottom = bottom;
    };
  }) : undefined), [layoutFrame, showJump]);
  // Rows and panels changing: placed again in the next frame (scrolling, resizing and rows coming and going ask by
  // themselves; this catches a row growing in place).
  useLayoutEffect(() => {
    if (showJump) layoutFrame?.schedule();
  });

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_THRESHOLD;
    stuck.current = atBottom;
    setShowJump(!atBottom);
  }, []);

  // A version switch keeps the reader at the row they switched (see ListFollowContext): the list does not follow to
  // the new end when the rows change, then finds out again whether it is at the bottom.
  const holding = useRef(false);
  const follow = useMemo(() => ({
    stopFollowing: () => {
      holding.current = true;
      stuck.current = false;
    },
  }), []);

  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el && stuck.current) el.scrollTop = el.scrollHeight;
  }, [totalSize, items.length, tailVersion]);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!holding.current || !el) return;
    holding.current = false;
    onScroll();
  }, [items, onScroll]);

  // Older messages arrive in front of the loaded ones (a long chat opens with its newest messages). A reader who
  // has scrolled up keeps seeing the same row at the same place: the layout effect below restores it.
  useLayoutEffect(() => {
    const held = heldRow.current;
    heldRow.current = null;
    const el = scrollRef.current;
    if (!held || !el) return;
    const index = items.findIndex((item) => item.key === held.key);
    const now = index >= 0 ? virtualizer.measurementsCache[index] : undefined;
    if (now) el.scrollTop = now.start - held.offset;
  }, [items, virtualizer]);

  useLayoutEffect(() => {
    if (followSignal) jumpToLatest();
    // Only a new send re-sticks the list, not a re-render.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- so not when jumpToLatest is a new function
  }, [followSignal]);

  function jumpToLatest() {
    stuck.current = true;
    setShowJump(false);
    if (items.length > 0) virtualizer.scrollToIndex(items.length - 1, { align: "end" });
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }

  const rows = virtualizer.getVirtualItems().map((v) => (
    <div key={v.key} data-index={v.index} data-key={v.key} ref={virtualizer.measureElement} className="vrow"
      style={{ transform: `translateY(${v.start}px)` }}>
      <MessageRow item={items[v.index]} toolRuns={toolRuns} toolResults={toolResults} />
    </div>
  ));

  return (
    <div className="message-scroll" ref={scrollRef} onScroll={onScroll} data-testid="message-list"
      role="region" aria-label="Messages" tabIndex={0}>
      <div className="message-canvas" style={{ height: totalSize }}>
        <ScrollRoot.Provider value={scrollRef}>
          <ListFollowContext.Provider value={follow}>{rows}</ListFollowContext.Provider>
        </ScrollRoot.Provider>
      </div>
      {showJump ? (
        <button type="button" ref={jumpRef} className="jump-latest" onClick={jumpToLatest} data-testid="jump-latest">↓ Jump to latest</button>
      ) : null}
    </div>
  );
}

/**
 * A row's height before it is measured, from its text: close estimates keep rows from shifting (and rendering
 * again) when they are measured, and keep the scrollbar honest for rows never rendered.
 */
function estimateRowHeight(item: ChatItem | undefined): number {
  if (!item) return 96;
  switch (item.kind) {
    case "user": {
      // 28 of it: the message's action bar (MessageActionBar), as under a finished reply. A long message shows
      // folded (CollapsibleUserText): its lines up to the fold, and the "Show more" line.
      const lines = Math.ceil(textLength(item.message.content) / 70);
      return 72 + 24 * Math.min(lines, USER_TEXT_MAX_LINES) + (lines > USER_TEXT_MAX_LINES ? 28 : 0);
    }
    case "assistant": {
      let lines = 0;
      for (const block of item.message.content) {
        if (block.type === "text") lines += Math.ceil(block.text.length / 90) + (block.text.match(/\n/g)?.length ?? 0) / 2;
        else if (block.type === "toolCall") lines += 2;
      }
      return (item.streaming ? 60 : 88) + 26 * Math.max(1, lines);
    }
    default:
      return 40;
  }
}

function textLength(content: string | readonly { type: string; text?: string }[]): number {
  return typeof content === "string" ? content.length : content.reduce((n, part) => n + (part.text?.length ?? 0), 0);
}

/** The key of the first message row (past the "loading earlier messages" row); it changes when history lands. */
function firstMessageKey(items: readonly ChatItem[]): string | undefined {
  return (items[0]?.kind === "history" ? items[1] : items[0])?.key;
}
