import { useEffect, useRef, type KeyboardEvent } from "react";
import { MAX_MATCHES } from "./find-matches";

interface FindBarProps {
  query: string;
  /** The current match, from 0 (-1: none). */
  position: number;
  total: number;
  /** Older messages are still loading: more may match. */
  loading: boolean;
  /** Changes when Ctrl/Cmd+F is pressed again: the field takes the focus and selects its text. */
  focusSignal: number;
  onQuery(query: string): void;
  onStep(direction: 1 | -1): void;
  onClose(): void;
}

/**
 * Find in the chat: a field, "3/17", previous and next. Enter goes to the next match, Shift+Enter to the previous
 * one, Esc closes (and is not taken as Stop by the chat).
 */
export function FindBar({ query, position, total, loading, focusSignal, onQuery, onStep, onClose }: FindBarProps) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [focusSignal]);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter") {
      e.preventDefault();
      onStep(e.shiftKey ? -1 : 1);
    } else if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      onClose();
    }
  };
  const count = query === "" ? "" : total === 0 ? (loading ? "Searching…" : "No matches") : `${position + 1}/${total >= MAX_MATCHES ? `${MAX_MATCHES}+` : total}${loading ? "…" : ""}`;

  return (
    <div className="find-bar" role="search" aria-label="Find in chat" data-testid="find-bar">
      <input ref={input} type="search" className="find-input" dir="auto" placeholder="Find in chat" aria-label="Find in chat" value={query}
        onChange={(e) => onQuery(e.target.value)} onKeyDown={onKeyDown} data-testid="find-input" />
      <span className="find-count" role="status" aria-live="polite" data-testid="find-count">{count}</span>
      <button type="button" className="icon-button" aria-label="Previous match" title="Previous match (Shift+Enter)"
        disabled={total === 0} onClick={() => onStep(-1)} data-testid="find-previous">↑</button>
      <button type="button" className="icon-button" aria-label="Next match" title="Next match (Enter)"
        disabled={total === 0} onClick={() => onStep(1)} data-testid="find-next">↓</button>
      <button type="button" className="icon-button" aria-label="Close find" title="Close (Esc)" onClick={onClose}
        data-testid="find-close">✕</button>
    </div>
  );
}
