import { useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import type { UserMessage } from "@earendil-works/pi-ai";
import { REVEAL_EVENT } from "../find/reveal-hidden";

/** Lines a user message shows before it is collapsed behind "Show more" (MessageList's row estimate uses it too). */
export const USER_TEXT_MAX_LINES = 12;

/**
 * Messages the user opened with "Show more" on this page. Rows leave the DOM as the list scrolls (it is virtualized);
 * a message opened stays open when its row comes back. Keyed by the message object, which the transcript keeps
 * while the message is unchanged, so nothing is held for messages that are gone.
 */
const opened = new WeakSet<UserMessage>();

interface CollapsibleUserTextProps {
  message: UserMessage;
  text: string;
}

/**
 * A user message's text, in its own direction (`dir="auto"`, each paragraph on its own), collapsed to
 * USER_TEXT_MAX_LINES when longer, with a "Show more" / "Show less" button (aria-expanded). Whether it is longer is
 * measured, not guessed from the characters: the lines depend on the width. Find in chat opens it when the current
 * match is in its hidden part (reveal-hidden.ts). The text is always in the DOM, collapsed or not, so find, copy
 * and select-all see all of it.
 */
export function CollapsibleUserText({ message, text }: CollapsibleUserTextProps) {
  const [expanded, setExpanded] = useState(() => opened.has(message));
  const [overflows, setOverflows] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const id = useId();

  const setOpen = (open: boolean) => {
    if (open) opened.add(message);
    else opened.delete(message);
    setExpanded(open);
  };

  // Measured while collapsed, before paint and again whenever the width changes the wrapping; an open message keeps
  // its button (it was found too long), so "Show less" never disappears under the pointer.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || expanded) return;
    const measure = () => setOverflows(el.scrollHeight > el.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [expanded, text]);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const reveal = () => {
      opened.add(message);
      setExpanded(true);
    };
    el.addEventListener(REVEAL_EVENT, reveal);
    return () => el.removeEventListener(REVEAL_EVENT, reveal);
  }, [message]);

  const collapsed = !expanded;
  return (
    <>
      <div ref={box} id={id} className={`user-text${collapsed && overflows ? " collapsed" : ""}`} dir="auto"
        data-collapsed={collapsed && overflows ? "" : undefined}
        style={collapsed ? { maxHeight: `${USER_TEXT_MAX_LINES}lh` } : undefined}>
        {text}
      </div>
      {overflows ? (
        <button type="button" className="link-button user-text-toggle" aria-expanded={expanded} aria-controls={id}
          data-find-skip="" onClick={() => setOpen(!expanded)}>
          {expanded ? "Show less" : "Show more"}
        </button>
      ) : null}
    </>
  );
}
