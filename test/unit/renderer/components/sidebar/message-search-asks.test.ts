import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AppEvent, MessageSearchResult, SessionSummary } from "../../../../../src/shared/protocol/app-api";
import { MessageSearchAsks, SEARCH_DEBOUNCE_MS, type SearchShown } from "../../../../../src/renderer/components/sidebar/message-search-asks";
import { Listeners } from "../../../../../src/shared/transport/transport";

const found = (text: string, indexing = false): MessageSearchResult => ({
  hits: [{ sessionId: "a", title: "Chat a", messageIndex: 1, role: "assistant", snippet: text, ranges: [] }], indexing,
});
const session = (id: string, title: string, updated: number): SessionSummary =>
  ({ id, title, created: 1, updated, messageCount: 2, activity: "idle", unread: false }) as unknown as SessionSummary;

/** The asks with main played by a list of answers, its events by `emit`. */
function setUp(answer: (query: string) => Promise<MessageSearchResult> = (q) => Promise.resolve(found(q))) {
  const events = new Listeners<[AppEvent]>();
  const asked: string[] = [];
  const shown: SearchShown[] = [];
  const asks = new MessageSearchAsks({
    search: (query) => {
      asked.push(query);
      return answer(query);
    },
    onEvent: (listener) => events.add(listener),
    show: (s) => shown.push(s),
  });
  return { asks, asked, shown, emit: (event: AppEvent) => events.emit(event) };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("when the sidebar's message results ask main", () => {
  it("asks once typing pauses, for the last text typed", async () => {
    const { asks, asked, shown } = setUp();
    asks.setQuery("p");
    asks.setQuery("pe");
    asks.setQuery("pet");
    expect(asked).toEqual([]);
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
    expect(asked).toEqual(["pet"]);
    expect(shown).toEqual([{ query: "pet", found: found("pet") }]);
    asks.setQuery("  ");
    expect(shown.at(-1)).toBeNull();
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS * 2);
    expect(asked).toEqual(["pet"]);
  });

  it("does not ask again when only chats' titles, order or activity change; asks when main's index changed", async () => {
    const { asks, asked, shown, emit } = setUp();
    asks.setQuery("petrel");
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
    expect(asked).toEqual(["petrel"]);
    // A chat renamed, another moved to the top, one going idle, one deleted and restored: the sidebar's list changes.
    emit({ type: "session", session: session("a", "Seabirds", 5) });
    emit({ type: "session", session: session("b", "Older chat", 9) });
    emit({ type: "attention", sessionId: "a", title: "Seabirds", reason: "done" });
    emit({ type: "session-removed", id: "b" });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(asked).toEqual(["petrel"]);
    // Main read a reply into its index.
    emit({ type: "search-index" });
    await vi.advanceTimersByTimeAsync(0);
    expect(asked).toEqual(["petrel", "petrel"]);
    expect(shown).toHaveLength(2);
  });

  it("an index change with no query, or while typing still pauses, asks nothing more", async () => {
    const { asks, asked, emit } = setUp();
    emit({ type: "search-index" });
    asks.setQuery("gull");
    emit({ type: "search-index" });
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
    expect(asked).toEqual(["gull"]);
    asks.dispose();
    emit({ type: "search-index" });
    expect(asked).toEqual(["gull"]);
  });

  it("shows only the answer to the latest ask, and a failure as text", async () => {
    const pending = new Map<string, (r: MessageSearchResult) => void>();
    const { asks, shown } = setUp((q) => new Promise((resolve) => pending.set(q, resolve)));
    asks.setQuery("tern");
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
    asks.setQuery("terns");
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
    pending.get("terns")!(found("terns"));
    pending.get("tern")!(found("tern"));
    await vi.advanceTimersByTimeAsync(0);
    expect(shown).toEqual([{ query: "terns", found: found("terns") }]);

    const failing = setUp(() => Promise.reject(new Error("main went away")));
    failing.asks.setQuery("auk");
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
    expect(failing.shown).toEqual([{ query: "auk", failure: "main went away" }]);
  });
});
