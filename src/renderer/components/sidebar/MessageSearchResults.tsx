import { useEffect, useMemo, useRef, useState } from "react";
import type { MessageHit, SessionSummary } from "../../../shared/protocol/app-api";
import { useServices } from "../../context/ServicesContext";
import { MessageSearchAsks, type SearchShown } from "./message-search-asks";

interface MessageSearchResultsProps {
  query: string;
  /**
   * The chats as the sidebar lists them: a hit shows its chat's title as listed now (a chat renamed after the search
   * keeps its hits, under the new name). A new list never asks main again: main's `search-index` event does
   * (message-search-asks.ts).
   */
  chats: readonly Pick<SessionSummary, "id" | "title">[];
  onOpen(hit: MessageHit): void;
}

/**
 * The sidebar's search in message text, across chats: main's index answers (`searchMessages`); each result shows
 * its chat, who said it and a snippet with the matching words marked, and opens the chat at that message. Asked
 * when typing pauses and when main's index changes (a reply landing after the search was typed), never otherwise.
 */
export function MessageSearchResults({ query, chats, onOpen }: MessageSearchResultsProps) {
  const services = useServices();
  const { app } = services;
  const [shown, setShown] = useState<SearchShown>(null);
  const asks = useRef<MessageSearchAsks | null>(null);
  const latestQuery = useRef(query);
  latestQuery.current = query;

  useEffect(() => {
    const current = new MessageSearchAsks({
      search: (q, limit) => app.searchMessages(q, limit),
      onEvent: (listener) => services.onEvent(listener),
      show: setShown,
    });
    asks.current = current;
    current.setQuery(latestQuery.current);
    return () => {
      current.dispose();
      asks.current = null;
    };
  }, [app, services]);
  useEffect(() => asks.current?.setQuery(query), [query]);

  const titles = useMemo(() => new Map(chats.map((c) => [c.id, c.title])), [chats]);

  if (query.trim() === "") return null;
  const result = shown && "found" in shown ? shown : null;
  const failure = shown && "failure" in shown ? shown.failure : null;
  const hits = result?.found.hits ?? [];
  return (
    <section className="message-results" aria-label="Messages" data-testid="message-results" data-query={result?.query}>
      <h2 className="group-label">Messages</h2>
      {failure ? <p className="muted sidebar-empty">{failure}</p> : null}
      {shown === null ? <p className="muted sidebar-empty">Searching…</p> : null}
      {result !== null && hits.length === 0 ? (
        <p className="muted sidebar-empty">{result.found.indexing ? "Still reading your chats…" : "No messages match."}</p>
      ) : null}
      <ul>
        {hits.map((hit) => (
          <li key={`${hit.sessionId}:${hit.messageIndex}`}>
            <button type="button" className="message-hit" onClick={() => onOpen(hit)} data-testid="message-hit"
              data-session-id={hit.sessionId} data-message-index={hit.messageIndex}>
              <span className="message-hit-title" dir="auto">{(titles.get(hit.sessionId) ?? hit.title) || "New chat"}</span>
              <span className="message-hit-snippet" dir="auto">
                <span className="message-hit-role">{hitRoleLabel(hit)}</span>
                <Marked text={hit.snippet} ranges={hit.ranges} />
              </span>
            </button>
          </li>
        ))}
      </ul>
      {result?.found.indexing && hits.length > 0 ? <p className="muted sidebar-empty">Still reading your chats…</p> : null}
    </section>
  );
}

/** `text` with the `ranges` wrapped in <mark>. */
function Marked({ text, ranges }: { text: string; ranges: readonly [number, number][] }) {
  const parts: (string | { mark: string })[] = [];
  let at = 0;
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (start < at || end > text.length || end <= start) continue;
    if (start > at) parts.push(text.slice(at, start));
    parts.push({ mark: text.slice(start, end) });
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts.map((part, i) => (typeof part === "string" ? part : <mark key={i}>{part.mark}</mark>))}</>;
}

/** Who said the matching text, before its snippet: "You: ", a tool's output ("bash output: "), or nothing (a reply). */
export function hitRoleLabel(hit: Pick<MessageHit, "role" | "toolName">): string {
  if (hit.role === "user") return "You: ";
  if (hit.role === "toolResult") return `${hit.toolName || "tool"} output: `;
  return "";
}
