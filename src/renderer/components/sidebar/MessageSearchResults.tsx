import { useEffect, useState } from "react";
import type { MessageHit, MessageSearchResult } from "../../../shared/protocol/app-api";
import { useServices } from "../../context/ServicesContext";
import { errorText } from "../../../shared/error-text";

interface MessageSearchResultsProps {
  query: string;
  /**
   * The chats as the sidebar lists them: a new list (a reply landed, a chat went idle) asks again, since main reads
   * what a chat gained into its index when that chat's status changes. Without it, results asked for while a reply
   * was landing would stay without it.
   */
  chats: readonly unknown[];
  onOpen(hit: MessageHit): void;
}

/** How long typing must pause before main is asked (each keystroke would otherwise be a search). */
const DEBOUNCE_MS = 60;
const LIMIT = 20;

/**
 * The sidebar's search in message text, across chats: main's index answers (`searchMessages`); each result shows
 * its chat, who said it and a snippet with the matching words marked, and opens the chat at that message.
 */
export function MessageSearchResults({ query, chats, onOpen }: MessageSearchResultsProps) {
  const { app } = useServices();
  const [result, setResult] = useState<{ query: string; found: MessageSearchResult } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const trimmed = query.trim();

  useEffect(() => {
    // Results of an earlier search stay while the next one is typed (it usually narrows them), not once cleared.
    if (trimmed === "") {
      setResult(null);
      return;
    }
    let current = true;
    const ask = () =>
      app.searchMessages(query.slice(0, 200), LIMIT).then(
        (found) => {
          if (!current) return;
          setFailure(null);
          setResult({ query, found });
          // Main is still reading chats (just after start): ask again shortly for the rest.
          if (found.indexing) retry = setTimeout(ask, 1000);
        },
        (e: unknown) => current && setFailure(errorText(e)),
      );
    let retry: ReturnType<typeof setTimeout> | undefined;
    const timer = setTimeout(ask, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
      clearTimeout(retry);
    };
  }, [app, query, trimmed, chats]);

  if (trimmed === "") return null;
  const hits = result?.found.hits ?? [];
  return (
    <section className="message-results" aria-label="Messages" data-testid="message-results" data-query={result?.query}>
      <h2 className="group-label">Messages</h2>
      {failure ? <p className="muted sidebar-empty">{failure}</p> : null}
      {result === null && !failure ? <p className="muted sidebar-empty">Searching…</p> : null}
      {result !== null && hits.length === 0 && !failure ? (
        <p className="muted sidebar-empty">{result.found.indexing ? "Still reading your chats…" : "No messages match."}</p>
      ) : null}
      <ul>
        {hits.map((hit) => (
          <li key={`${hit.sessionId}:${hit.messageIndex}`}>
            <button type="button" className="message-hit" onClick={() => onOpen(hit)} data-testid="message-hit"
              data-session-id={hit.sessionId} data-message-index={hit.messageIndex}>
              <span className="message-hit-title" dir="auto">{hit.title || "New chat"}</span>
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
