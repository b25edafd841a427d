/**
 * The page's draft cache: a chat's draft is held at once and saved a moment after the last change (the newest one,
 * one save at a time), an empty one at once; files are stored in the chat once and named by ref; a stored draft
 * loads with its files' bytes; a save main refuses is reported in words and the draft stays held.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DraftCache, type DraftFiles } from "../../../../../src/renderer/components/composer/draft-cache";
import type { ChatDraft } from "../../../../../src/shared/protocol/drafts";
import type { PendingAttachment } from "../../../../../src/renderer/components/attachments/attachment-files";

const ID = "00000000-0000-4000-8000-000000000001";

function fakeMain() {
  const saved: ChatDraft[] = [];
  let stored: ChatDraft = { text: "", attachments: [] };
  let refuse: string | undefined;
  return {
    saved,
    set: (d: ChatDraft) => void (stored = d),
    refuseWith: (text: string | undefined) => void (refuse = text),
    api: {
      getDraft: vi.fn(async () => stored),
      saveDraft: vi.fn(async (_id: string, d: ChatDraft) => {
        await new Promise((r) => setTimeout(r, 5));
        if (refuse) throw new Error(refuse);
        saved.push(d);
        stored = d;
        return saved.length;
      }),
    },
  };
}

function fakeFiles(): DraftFiles & { puts: string[]; bytes: Map<string, string> } {
  const bytes = new Map<string, string>();
  const puts: string[] = [];
  return {
    puts,
    bytes,
    put: async (name, mimeType, data) => {
      puts.push(name);
      const id = `${String(puts.length).padStart(64, "0")}.txt`;
      bytes.set(id, data);
      return { id, name, mimeType, size: atob(data).length };
    },
    get: async (id) => {
      const data = bytes.get(id);
      if (data === undefined) throw new Error("gone");
      return { mimeType: "text/plain", data };
    },
  };
}

const file = (key: string, text: string): PendingAttachment => ({ key, name: `${key}.md`, kind: "text", mimeType: "text/plain", size: text.length, file: new Blob([text], { type: "text/plain" }) });

beforeEach(() => void vi.useFakeTimers());
/** A save to finish (main's fake answer takes a timer's 5 ms). */
const settle = async (p: Promise<void>) => {
  await vi.advanceTimersByTimeAsync(50);
  await p;
};
afterEach(() => void vi.useRealTimers());

describe("DraftCache", () => {
  it("holds a change at once and saves the newest a moment after the last change", async () => {
    const main = fakeMain();
    const cache = new DraftCache(main.api, 400);
    cache.change(ID, { text: "h", items: [] }, undefined);
    cache.change(ID, { text: "hello", items: [] }, undefined);
    expect(cache.cached(ID)?.text).toBe("hello");
    await vi.advanceTimersByTimeAsync(300);
    expect(main.saved).toEqual([]);
    cache.change(ID, { text: "hello there", items: [] }, undefined);
    await vi.advanceTimersByTimeAsync(450);
    expect(main.saved).toEqual([{ text: "hello there", attachments: [] }]);
    // The same draft again saves nothing.
    cache.change(ID, { text: "hello there", items: [] }, undefined);
    await vi.advanceTimersByTimeAsync(1000);
    expect(main.saved).toHaveLength(1);
  });

  it("an emptied draft (a message sent) is saved at once; flush saves a pending one now", async () => {
    const main = fakeMain();
    const cache = new DraftCache(main.api, 400);
    cache.change(ID, { text: "draft", items: [] }, undefined);
    await settle(cache.flush(ID));
    expect(main.saved.at(-1)).toEqual({ text: "draft", attachments: [] });
    cache.change(ID, { text: "", items: [] }, undefined);
    await vi.advanceTimersByTimeAsync(10);
    expect(main.saved.at(-1)).toEqual({ text: "", attachments: [] });
  });

  it("stores each file in the chat once and names it by ref; loads a stored draft with its files' bytes", async () => {
    const main = fakeMain();
    const files = fakeFiles();
    const cache = new DraftCache(main.api, 400);
    const a = file("a", "alpha");
    cache.change(ID, { text: "with a file", items: [a] }, files);
    await settle(cache.flush(ID));
    cache.change(ID, { text: "with a file, still", items: [a] }, files);
    await settle(cache.flush(ID));
    expect(files.puts).toEqual(["a.md"]);
    expect(main.saved.at(-1)?.attachments).toEqual([{ id: `${"1".padStart(64, "0")}.txt`, name: "a.md", mimeType: "text/plain", size: 5 }]);

    // Another page (a reload): loads it from main, with the bytes, and does not store the file again.
    const again = new DraftCache(main.api, 400);
    expect(again.cached(ID)).toBeUndefined();
    const loaded = await again.load(ID);
    expect(loaded.text).toBe("with a file, still");
    // Before the chat is connected its files are not fetched, but a save keeps them.
    again.change(ID, { text: "typed before connecting", items: [] }, undefined);
    await settle(again.flush(ID));
    expect(main.saved.at(-1)?.attachments.map((f) => f.name)).toEqual(["a.md"]);
    const fetched = await again.fetchFiles(ID, files);
    expect(fetched.map((i) => i.name)).toEqual(["a.md"]);
    expect(await fetched[0].file.text()).toBe("alpha");
    expect(again.cached(ID)?.items).toEqual(fetched);
    expect(await again.fetchFiles(ID, files)).toEqual([]);
    again.change(ID, { text: "edited", items: fetched }, files);
    await settle(again.flush(ID));
    expect(files.puts).toEqual(["a.md"]);
    expect(main.saved.at(-1)?.attachments).toHaveLength(1);
  });

  it("text typed before the stored draft loaded, the chat then left, goes after the stored text", async () => {
    const main = fakeMain();
    main.set({ text: "stored", attachments: [] });
    const cache = new DraftCache(main.api, 400);
    await settle(cache.keepTyped(ID, "typed"));
    expect(main.saved.at(-1)).toEqual({ text: "stored\ntyped", attachments: [] });
    expect(cache.cached(ID)?.text).toBe("stored\ntyped");
  });

  it("one save at a time, each with the newest draft", async () => {
    const main = fakeMain();
    const cache = new DraftCache(main.api, 0);
    const running: Promise<void>[] = [];
    for (let i = 0; i < 5; i++) {
      cache.change(ID, { text: `v${i}`, items: [] }, undefined);
      running.push(cache.flush(ID));
    }
    await vi.advanceTimersByTimeAsync(100);
    await Promise.all(running);
    expect(main.saved.at(-1)).toEqual({ text: "v4", attachments: [] });
    expect(main.api.saveDraft.mock.calls.length).toBeLessThanOrEqual(5);
  });

  it("a refused save is reported in words and the draft stays held; the next good save clears the report", async () => {
    const main = fakeMain();
    const cache = new DraftCache(main.api, 400);
    const problems: (string | undefined)[] = [];
    cache.onProblem((id, p) => id === ID && problems.push(p));
    main.refuseWith("This draft is too long to keep");
    cache.change(ID, { text: "long", items: [] }, undefined);
    const done = cache.flush(ID);
    await vi.advanceTimersByTimeAsync(10);
    await done;
    expect(problems).toEqual(["This draft is too long to keep"]);
    expect(cache.cached(ID)?.text).toBe("long");
    main.refuseWith(undefined);
    cache.change(ID, { text: "short", items: [] }, undefined);
    const ok = cache.flush(ID);
    await vi.advanceTimersByTimeAsync(10);
    await ok;
    expect(problems).toEqual(["This draft is too long to keep", undefined]);
  });

  describe("two windows on one chat", () => {
    /** Main as it is: saves numbered as called, kept in that order, each told to every page (the writer too). */
    function sharedMain(delayMs = 5) {
      const pages: DraftCache[] = [];
      let revision = 0;
      let stored: ChatDraft = { text: "", attachments: [] };
      let queue = Promise.resolve();
      const api = {
        getDraft: vi.fn(async () => stored),
        saveDraft: vi.fn(async (sessionId: string, draft: ChatDraft, writer?: string) => {
          const mine = ++revision;
          const write = queue.then(() => new Promise<void>((r) => setTimeout(r, delayMs)));
          queue = write;
          await write;
          stored = draft;
          for (const page of pages) page.remote({ type: "draft", sessionId, draft, revision: mine, ...(writer ? { writer } : {}) });
          return mine;
        }),
      };
      const page = (name: string) => {
        const cache = new DraftCache(api, 400, name);
        const told: string[] = [];
        cache.onRemote((id) => told.push(cache.cached(id)!.text));
        pages.push(cache);
        return { cache, told };
      };
      return { api, page, stored: () => stored };
    }

    it("the other window follows each save; the window typed in is never told its own draft back", async () => {
      const main = sharedMain();
      const a = main.page("a");
      const b = main.page("b");
      a.cache.change(ID, { text: "typed in A", items: [] }, undefined);
      await settle(a.cache.flush(ID));
      expect(b.cache.cached(ID)?.text).toBe("typed in A");
      expect(b.told).toEqual(["typed in A"]);
      expect(a.told).toEqual([]);
      // B took it as saved: showing it saves nothing back (no echo).
      b.cache.change(ID, { text: "typed in A", items: [] }, undefined);
      await vi.advanceTimersByTimeAsync(1000);
      expect(main.api.saveDraft).toHaveBeenCalledTimes(1);

      // Then B is typed in: A follows.
      b.cache.change(ID, { text: "typed in A, then B", items: [] }, undefined);
      await settle(b.cache.flush(ID));
      expect(a.cache.cached(ID)?.text).toBe("typed in A, then B");
      expect(a.told).toEqual(["typed in A, then B"]);
      expect(b.told).toEqual(["typed in A"]);
    });

    it("a window with an edit of its own on the way keeps it, and the other then takes it: the last edit wins everywhere", async () => {
      const main = sharedMain();
      const a = main.page("a");
      const b = main.page("b");
      // B has typed (not saved yet) when A's save arrives: B keeps its edit.
      a.cache.change(ID, { text: "A's", items: [] }, undefined);
      b.cache.change(ID, { text: "B's, later", items: [] }, undefined);
      await settle(a.cache.flush(ID));
      expect(b.cache.cached(ID)?.text).toBe("B's, later");
      expect(b.told).toEqual([]);
      await vi.advanceTimersByTimeAsync(500); // B's own save goes out
      expect(main.stored().text).toBe("B's, later");
      expect(a.cache.cached(ID)?.text).toBe("B's, later");
      expect(b.cache.cached(ID)?.text).toBe("B's, later");
    });

    it("saves crossing each other end with both windows on the one main kept (the later)", async () => {
      const main = sharedMain();
      const a = main.page("a");
      const b = main.page("b");
      b.cache.change(ID, { text: "B first", items: [] }, undefined);
      const first = b.cache.flush(ID);
      a.cache.change(ID, { text: "A second", items: [] }, undefined);
      const second = a.cache.flush(ID);
      await vi.advanceTimersByTimeAsync(100);
      await Promise.all([first, second]);
      expect(main.stored().text).toBe("A second");
      expect(a.cache.cached(ID)?.text).toBe("A second");
      expect(b.cache.cached(ID)?.text).toBe("A second");
      expect(a.told).toEqual([]); // B's older save, come while A's was on the way, was dropped
    });

    it("another window's files come as refs to fetch; those this window has keep their bytes", async () => {
      const main = sharedMain();
      const files = fakeFiles();
      const a = main.page("a");
      const b = main.page("b");
      const one = file("one", "first file");
      a.cache.change(ID, { text: "see the files", items: [one] }, files);
      await settle(a.cache.flush(ID));
      expect(b.cache.cached(ID)?.items).toEqual([]);
      expect(b.cache.cached(ID)?.unfetched?.map((r) => r.name)).toEqual(["one.md"]);
      const fetched = await b.cache.fetchFiles(ID, files);
      expect(await fetched[0].file.text()).toBe("first file");
      // B adds one: A keeps its own bytes for "one" and fetches only the new one.
      b.cache.change(ID, { text: "see the files", items: [...fetched, file("two", "second")] }, files);
      await settle(b.cache.flush(ID));
      expect(a.cache.cached(ID)?.items).toEqual([one]);
      expect(a.cache.cached(ID)?.unfetched?.map((r) => r.name)).toEqual(["two.md"]);
      expect(files.puts).toEqual(["one.md", "two.md"]);
    });
  });
});
