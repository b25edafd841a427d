/**
 * Find in a chat, and opening a chat at a message: what ChatView wires to its header area and its message list.
 * Ctrl/Cmd+F opens the find bar; matches cover every message the page holds (a long chat loads its older messages
 * behind the first paint, and the count grows as they land); the current match is scrolled into view and
 * highlighted once they all have. A search result opened from the sidebar (`target`) is revealed then too.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { AgentMessage } from "../../../shared/agent/types";
import { FindBar } from "./FindBar";
import { matchesChord, shortcut } from "../../../shared/shortcuts";
import { findMatches, positionOf, type FindMatch } from "./find-matches";
import type { RowReveal } from "./useRevealRow";
import { rowPlaces } from "./row-places";

/** A message to open the chat at (a sidebar search result), with the word to highlight in it. */
export interface MessageTarget {
  messageIndex: number;
  text: string;
  /** New for every request. */
  nonce: number;
}

interface ChatFindInput {
  messages: readonly AgentMessage[];
  /** Session-wide number of `messages[0]` (older ones still loading). */
  historyStart: number;
  target?: MessageTarget;
}

export function useChatFind({ messages, historyStart, target }: ChatFindInput): { bar: ReactNode; reveal: RowReveal | undefined; openFind(): void } {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [current, setCurrent] = useState<FindMatch | undefined>(undefined);
  const [nonce, setNonce] = useState(0);
  const [focusSignal, setFocusSignal] = useState(0);
  const dismissedTarget = useRef<number | undefined>(undefined);
  const targetNow = useRef(target);
  targetNow.current = target;

  const openFind = useCallback(() => {
    dismissedTarget.current = targetNow.current?.nonce;
    setOpen(true);
    setFocusSignal((n) => n + 1);
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!matchesChord(shortcut("find-in-chat").keys, e)) return;
      e.preventDefault();
      openFind();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [openFind]);

  const matches = useMemo(() => (open ? findMatches(messages, historyStart, query) : []), [open, messages, historyStart, query]);
  // A tool's output shows in its call's card, in the reply's row: where each message's text is on screen.
  const places = useMemo(() => rowPlaces(messages, historyStart), [messages, historyStart]);
  const position = positionOf(matches, current);

  const onQuery = useCallback((next: string) => {
    setQuery(next);
    setCurrent(undefined); // the newest match first: a chat is read from its end
    setNonce((n) => n + 1);
  }, []);
  const onStep = useCallback((direction: 1 | -1) => {
    if (matches.length === 0) return;
    const next = (Math.max(position, 0) + direction + matches.length) % matches.length;
    setCurrent(matches[next]);
    setNonce((n) => n + 1);
  }, [matches, position]);
  const onClose = useCallback(() => {
    setOpen(false);
    setQuery("");
    setCurrent(undefined);
  }, []);

  // Rows are scrolled to only once the whole history has loaded: pages landing above a row move it, and the list's
  // scroll would chase the row's old place.
  const settled = historyStart === 0;
  const found = position >= 0 && settled ? matches[position] : undefined;
  const findReveal = useMemo<RowReveal | undefined>(
    () => (open && found ? { ...places(found.messageIndex), query, occurrence: found.occurrence, nonce } : undefined),
    // A new nonce (typing, stepping) scrolls; matches moving as history lands do not.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `found` follows from the nonce's request
    [open, nonce, query, found?.messageIndex, found?.occurrence],
  );
  // A target waits for its message to load, and is done with once find opens (closing find does not go back to it).
  // Its message must be there too: where a tool's output shows depends on the messages around it.
  const targetReady = target !== undefined && settled && target.messageIndex < historyStart + messages.length && target.nonce !== dismissedTarget.current;
  const targetReveal = useMemo<RowReveal | undefined>(
    () => (target && targetReady ? { ...places(target.messageIndex), query: target.text, occurrence: 0, nonce: -target.nonce, transient: true } : undefined),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- where the target is, once it is ready (one reveal per nonce)
    [target, targetReady],
  );

  const bar = open ? (
    <FindBar query={query} position={position} total={matches.length} loading={historyStart > 0} focusSignal={focusSignal}
      onQuery={onQuery} onStep={onStep} onClose={onClose} />
  ) : null;
  return { bar, reveal: findReveal ?? targetReveal, openFind };
}

