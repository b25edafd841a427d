/**
 * When the sidebar's message results ask main (`searchMessages`): a moment after typing pauses, and again when main
 * says its index changed (the `search-index` event: a reply landed, a chat was deleted or restored, reading the
 * chats finished). Nothing else asks: a chat renamed, reordered or marked read changes no answer (MessageSearchResults
 * shows titles from the chat list itself). No DOM and no React here: Node tests load it.
 */
import type { AppEvent, MessageSearchResult } from "../../../shared/protocol/app-api";
import { errorText } from "../../../shared/error-text";

/** How long typing must pause before main is asked (each keystroke would otherwise be a search). */
export const SEARCH_DEBOUNCE_MS = 60;
/** Hits asked for. */
export const SEARCH_LIMIT = 20;
/** The query's characters sent to main. */
const MAX_QUERY = 200;

/** What the results show: nothing (no query), an answer to `query`, or why asking failed. */
export type SearchShown = null | { query: string; found: MessageSearchResult } | { query: string; failure: string };

export interface MessageSearchAsksOptions {
  search(query: string, limit: number): Promise<MessageSearchResult>;
  /** Main's events (AppServices.onEvent); returns the unsubscribe function. */
  onEvent(listener: (event: AppEvent) => void): () => void;
  /** Told each change of what to show; an earlier answer stays shown while the next query is asked. */
  show(shown: SearchShown): void;
  debounceMs?: number;
}

export class MessageSearchAsks {
  private query = "";
  private timer?: ReturnType<typeof setTimeout>;
  /** Counts asks: an answer to anything but the latest is dropped. */
  private asked = 0;
  private readonly off: () => void;

  constructor(private readonly options: MessageSearchAsksOptions) {
    this.off = options.onEvent((event) => {
      // Typing still pausing: its ask comes anyway.
      if (event.type === "search-index" && this.query.trim() !== "" && this.timer === undefined) this.ask();
    });
  }

  /** The box's text: asked a moment after the last change; cleared at once. */
  setQuery(query: string): void {
    if (query === this.query) return;
    this.query = query;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.asked++;
    if (query.trim() === "") {
      this.options.show(null);
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.ask();
    }, this.options.debounceMs ?? SEARCH_DEBOUNCE_MS);
  }

  dispose(): void {
    this.off();
    clearTimeout(this.timer);
    this.timer = undefined;
    this.asked++;
  }

  private ask(): void {
    const query = this.query;
    const ask = ++this.asked;
    this.options.search(query.slice(0, MAX_QUERY), SEARCH_LIMIT).then(
      (found) => {
        if (ask === this.asked) this.options.show({ query, found });
      },
      (error: unknown) => {
        if (ask === this.asked) this.options.show({ query, failure: errorText(error) });
      },
    );
  }
}
