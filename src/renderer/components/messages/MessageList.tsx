import { useCallback, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { ToolResultMessage } from "@mariozechner/pi-ai";
import type { ToolRunView } from "../../store/session-view";
import { MessageRow } from "./MessageRow";
import type { ChatItem } from "./chatItems";

interface MessageListProps {
  items: readonly ChatItem[];
  toolRuns: Readonly<Record<string, ToolRunView>>;
  toolResults: ReadonlyMap<string, ToolResultMessage>;
  /** Changes whenever the last row's content changes (a streamed token), so the list can stay pinned. */
  tailVersion: unknown;
}

/** Within this many pixels of the end the list counts as "at the bottom" and follows new content. */
const STICK_THRESHOLD = 48;

/**
 * The virtualized transcript: only rows near the viewport are in the DOM, measured as they render. It opens at the
 * bottom and follows new content while the user is at the bottom; scrolling up stops following until the user
 * returns (or presses "Jump to latest").
 */
export function MessageList({ items, toolRuns, toolResults, tailVersion }: MessageListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);
  const [showJump, setShowJump] = useState(false);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 96,
    overscan: 6,
    getItemKey: (index) => items[index].key,
    paddingStart: 16,
    paddingEnd: 24,
  });

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_THRESHOLD;
    stuck.current = atBottom;
    setShowJump(!atBottom);
  }, []);

  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el && stuck.current) el.scrollTop = el.scrollHeight;
  }, [totalSize, items.length, tailVersion]);

  const jumpToLatest = () => {
    stuck.current = true;
    setShowJump(false);
    if (items.length > 0) virtualizer.scrollToIndex(items.length - 1, { align: "end" });
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  };

  const virtualItems = virtualizer.getVirtualItems();
  const rows = useMemo(
    () =>
      virtualItems.map((v) => (
        <div key={v.key} data-index={v.index} ref={virtualizer.measureElement} className="vrow"
          style={{ transform: `translateY(${v.start}px)` }}>
          <MessageRow item={items[v.index]} toolRuns={toolRuns} toolResults={toolResults} />
        </div>
      )),
    [virtualItems, items, toolRuns, toolResults, virtualizer.measureElement],
  );

  return (
    <div className="message-scroll" ref={scrollRef} onScroll={onScroll} data-testid="message-list"
      role="region" aria-label="Messages" tabIndex={0}>
      <div className="message-canvas" style={{ height: totalSize }}>
        {rows}
      </div>
      {showJump ? (
        <button type="button" className="jump-latest" onClick={jumpToLatest}>↓ Jump to latest</button>
      ) : null}
    </div>
  );
}
