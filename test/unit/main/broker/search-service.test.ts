import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MessageSearch } from "../../../../src/main/broker/search-service";
import { SessionIndex } from "../../../../src/main/broker/session-index";
import type { BrokerEvent } from "../../../../src/main/broker/session-broker";
import { Listeners } from "../../../../src/shared/transport/transport";
import { toolCallLines, transcriptLine } from "../../../../testkit/transcripts";
import { TempFolders } from "../../../../testkit/temp-folders";

const temp = new TempFolders("paddock-search-service-");
const running: MessageSearch[] = [];
afterEach(async () => {
  for (const search of running.splice(0)) await search.dispose();
  temp.removeAll();
});

/** A data folder with chats (id -> message texts) listed in a session index, as main finds it at start. */
async function dataFolder(chats: Record<string, string[]>, dir = temp.make()) {
  const sessionsDir = join(dir, "sessions");
  mkdirSync(sessionsDir, { recursive: true });
  const index = await SessionIndex.open(join(sessionsDir, "index.json"), { debounceMs: 1 });
  for (const [id, texts] of Object.entries(chats)) {
    writeFileSync(join(sessionsDir, `${id}.jsonl`), texts.map((t, i) => `${transcriptLine(i, t)}\n`).join(""));
    index.upsert({ id, title: `Chat ${id}`, created: 1, updated: 1, messageCount: texts.length });
  }
  return { dir, sessionsDir, index };
}

function start(data: Awaited<ReturnType<typeof dataFolder>>, saveDelayMs = 10) {
  const events = new Listeners<[BrokerEvent]>();
  const search = new MessageSearch({
    file: join(data.sessionsDir, "search-index.bin"),
    sessions: data.index,
    transcriptFile: (id) => join(data.sessionsDir, `${id}.jsonl`),
    onBrokerEvent: (listener) => events.add(listener),
    saveDelayMs,
  });
  running.push(search);
  const status = (sessionId: string, messageCount: number) =>
    events.emit({ type: "status", status: { sessionId, running: false, messageCount, updated: Date.now() } });
  return { search, status };
}

const where = (result: { hits: { sessionId: string; messageIndex: number }[] }) => result.hits.map((h) => `${h.sessionId}#${h.messageIndex}`);

describe("the search across chats, in main", () => {
  it("reads every chat at start and answers with titles, roles and marked snippets", async () => {
    const data = await dataFolder({ a: ["How do I parse YAML in Go?", "Use gopkg.in/yaml.v3 to parse it."], b: ["Tell me about lighthouses"] });
    const { search } = start(data);
    await search.ready();
    const result = await search.search("parse", 10);
    expect(result.indexing).toBe(false);
    expect(where(result).sort()).toEqual(["a#0", "a#1"]);
    const first = result.hits.find((h) => h.messageIndex === 0)!;
    expect(first).toMatchObject({ title: "Chat a", role: "user", snippet: "How do I parse YAML in Go?" });
    expect(first.ranges.map(([s, e]) => first.snippet.slice(s, e))).toEqual(["parse"]);
    expect(where(await search.search("lighthouse", 10))).toEqual(["b#0"]);
  });

  it("follows a chat as messages land (a worker's status report), and leaves deleted chats out", async () => {
    const data = await dataFolder({ a: ["first message"] });
    const { search, status } = start(data);
    await search.ready();
    appendFileSync(join(data.sessionsDir, "a.jsonl"), `${transcriptLine(1, "a reply about submarines")}\n`);
    status("a", 2);
    await search.ready();
    expect(where(await search.search("submarines", 10))).toEqual(["a#1"]);
    data.index.markDeleted("a");
    expect((await search.search("submarines", 10)).hits).toEqual([]);
    data.index.restore("a");
    expect(where(await search.search("submarines", 10))).toEqual(["a#1"]);
    data.index.markDeleted("a", 0);
    data.index.purgeDeleted(1);
    expect((await search.search("submarines", 10)).hits).toEqual([]);
  });

  it("tells the pages once when a burst of changes lands, and when a chat is deleted or restored; never for a rename", async () => {
    const data = await dataFolder({ a: ["first message"], b: ["other chat"] });
    const events = new Listeners<[BrokerEvent]>();
    const search = new MessageSearch({
      file: join(data.sessionsDir, "search-index.bin"), sessions: data.index,
      transcriptFile: (id) => join(data.sessionsDir, `${id}.jsonl`), onBrokerEvent: (listener) => events.add(listener), announceDelayMs: 40,
    });
    running.push(search);
    await search.ready();
    let told = 0;
    search.onIndexChange(() => told++);
    const settled = async () => {
      await search.ready();
      await new Promise((r) => setTimeout(r, 120));
    };
    // A streaming reply: many status reports, messages landing between them.
    for (let i = 1; i <= 6; i++) {
      appendFileSync(join(data.sessionsDir, "a.jsonl"), `${transcriptLine(i, `albatross part ${i}`)}\n`);
      events.emit({ type: "status", status: { sessionId: "a", running: i < 6, messageCount: i + 1, updated: Date.now() } });
    }
    await settled();
    expect(told).toBe(1);
    expect((await search.search("albatross", 10)).hits.length).toBeGreaterThan(0);
    // Status reports with nothing new, a rename: what a search answers is the same.
    events.emit({ type: "status", status: { sessionId: "a", running: false, messageCount: 7, updated: Date.now() } });
    data.index.update("a", { title: "Seabirds" });
    await settled();
    expect(told).toBe(1);
    data.index.markDeleted("a");
    await settled();
    expect(told).toBe(2);
    data.index.restore("a");
    await settled();
    expect(told).toBe(3);
    // A chat with nothing indexed deleted: nothing a search finds changes.
    data.index.upsert({ id: "empty", title: "Empty", created: 3, updated: 3, messageCount: 0 });
    await settled();
    const before = told;
    data.index.markDeleted("empty");
    await settled();
    expect(told).toBe(before);
  });

  it("a search answered while chats are still read hears when the reading is done", async () => {
    const data = await dataFolder({ a: ["puffins nest in burrows"] });
    const events = new Listeners<[BrokerEvent]>();
    const search = new MessageSearch({
      file: join(data.sessionsDir, "search-index.bin"), sessions: data.index,
      transcriptFile: (id) => join(data.sessionsDir, `${id}.jsonl`), onBrokerEvent: (listener) => events.add(listener), announceDelayMs: 1,
    });
    running.push(search);
    let told = 0;
    search.onIndexChange(() => told++);
    expect((await search.search("puffins", 10)).indexing).toBe(true);
    await search.ready();
    await expect.poll(() => told).toBeGreaterThan(0);
    expect(await search.search("puffins", 10)).toMatchObject({ indexing: false, hits: [{ sessionId: "a" }] });
  });

  it("indexes a chat created after start once the session index lists it (an import)", async () => {
    const data = await dataFolder({});
    const { search } = start(data);
    await search.ready();
    writeFileSync(join(data.sessionsDir, "new.jsonl"), `${transcriptLine(0, "imported words")}\n`);
    data.index.upsert({ id: "new", title: "Imported", created: 2, updated: 2, messageCount: 1 });
    await search.ready();
    expect(where(await search.search("imported", 10))).toEqual(["new#0"]);
  });

  it("drops a hit whose message changed on disk since it was indexed, and reads the chat again", async () => {
    const data = await dataFolder({ a: ["the old text"] });
    const { search } = start(data);
    await search.ready();
    writeFileSync(join(data.sessionsDir, "a.jsonl"), `${transcriptLine(0, "the new words")}\n`);
    expect((await search.search("old", 10)).hits).toEqual([]);
    await search.ready();
    expect(where(await search.search("new", 10))).toEqual(["a#0"]);
  });

  it("saves the index, loads it at the next start and catches up with what was written meanwhile", async () => {
    const data = await dataFolder({ a: ["alpha words"], b: ["beta words"] });
    const first = start(data);
    await first.search.ready();
    await first.search.dispose();
    running.length = 0;
    const file = join(data.sessionsDir, "search-index.bin");
    expect(existsSync(file)).toBe(true);
    appendFileSync(join(data.sessionsDir, "b.jsonl"), `${transcriptLine(1, "gamma words, written while closed")}\n`);
    const second = start(data);
    await second.search.ready();
    expect(where(await second.search.search("words", 10)).sort()).toEqual(["a#0", "b#0", "b#1"]);
    expect(where(await second.search.search("gamma", 10))).toEqual(["b#1"]);
  });

  it("resolves a flush only once the index is on disk, a save already under way included", async () => {
    const data = await dataFolder({ a: ["alpha words"] });
    const { search } = start(data, 60_000);
    await search.ready();
    const file = join(data.sessionsDir, "search-index.bin");
    expect(existsSync(file)).toBe(false);
    const first = search.flush(); // as the timer's save would: under way when Paddock quits
    await search.flush();
    expect(existsSync(file)).toBe(true);
    await first;
  });

  it("rebuilds from the transcripts when the saved index is damaged", async () => {
    const data = await dataFolder({ a: ["alpha words"] });
    writeFileSync(join(data.sessionsDir, "search-index.bin"), "PDKSRCH1 garbage");
    const { search } = start(data);
    await search.ready();
    expect(where(await search.search("alpha", 10))).toEqual(["a#0"]);
    await search.flush();
  });

  it("reads an index saved in the older format 2 without rebuilding it, and saves it again in the current one", async () => {
    const dir = temp.make();
    cpSync(resolve("test/fixtures/search-index-format-2"), dir, { recursive: true });
    const sessionsDir = join(dir, "sessions");
    const file = join(sessionsDir, "search-index.bin");
    const version = () => JSON.parse(readFileSync(file).toString("utf8", 12, 12 + readFileSync(file).readUInt32LE(8))).v;
    expect(version()).toBe(2);
    const warn = vi.spyOn(console, "warn");
    const info = vi.spyOn(console, "info").mockImplementation(() => undefined);
    try {
      const data = { dir, sessionsDir, index: await SessionIndex.open(join(sessionsDir, "index.json"), { debounceMs: 1 }) };
      const first = start(data);
      await first.search.ready();
      expect(warn).not.toHaveBeenCalled();
      expect(info).toHaveBeenCalledWith(expect.stringMatching(/older format; converted/));
      const result = await first.search.search("eresolve", 10);
      expect(where(result)).toEqual(["a#2"]);
      expect(result.hits[0]).toMatchObject({ role: "toolResult", toolName: "bash" });
      expect(where(await first.search.search("café", 10)).sort()).toEqual(["b#0", "b#1", "b#2"]);
      await first.search.dispose();
      running.length = 0;
      expect(version()).toBe(3);

      info.mockClear();
      const second = start(data);
      await second.search.ready();
      expect(info).not.toHaveBeenCalled();
      expect(warn).not.toHaveBeenCalled();
      expect(where(await second.search.search("eresolve", 10))).toEqual(["a#2"]);
      expect(where(await second.search.search("question 75", 10))).toEqual(["c#148"]);
    } finally {
      warn.mockRestore();
      info.mockRestore();
    }
  });

  it("finds a tool's output (an npm error in a command's result) and says which tool said it", async () => {
    const data = await dataFolder({ a: ["Install the dependencies"] });
    const npm = "npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/left-padd - Not found";
    appendFileSync(join(data.sessionsDir, "a.jsonl"), `${toolCallLines(1, "npm install left-padd", npm, true).join("\n")}\n`);
    const { search } = start(data);
    await search.ready();
    const result = await search.search("E404", 10);
    expect(where(result)).toEqual(["a#2"]);
    expect(result.hits[0]).toMatchObject({ role: "toolResult", toolName: "bash" });
    expect(result.hits[0].snippet).toContain("npm ERR! code E404");
    expect(where(await search.search("left padd not found", 10))).toEqual(["a#2"]);
  });
});
