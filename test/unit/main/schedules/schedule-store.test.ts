import { afterEach, describe, expect, it } from "vitest";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ScheduleStore, type StoredSchedule } from "../../../../src/main/schedules/schedule-store";
import { TempFolders } from "../../../../testkit/temp-folders";

const temp = new TempFolders("paddock-schedule-store-");
afterEach(() => temp.removeAll());

const entry = (id: string): StoredSchedule => ({
  schedule: {
    id,
    name: id,
    prompt: "Go",
    workspace: "",
    profile: "ask",
    budget: {},
    when: { kind: "daily", time: "09:00" },
    target: "new-chat",
    missed: "skip",
    enabled: true,
  },
  runs: [{ occurrence: 1, at: 2, outcome: "finished", chatId: "c1" }],
  checkedUntil: 3,
});

describe("ScheduleStore", () => {
  it("keeps schedules in one file across restarts", async () => {
    const dir = temp.make();
    const store = new ScheduleStore(join(dir, "schedules.json"));
    await store.put(entry("a"));
    await store.put(entry("b"));
    expect(await store.delete("a")).toBe(true);
    expect(await store.delete("a")).toBe(false);
    const again = new ScheduleStore(join(dir, "schedules.json"));
    expect(again.list()).toEqual([entry("b")]);
    expect(again.notices).toEqual([]);
  });

  it("refuses an invalid entry, writing nothing", async () => {
    const dir = temp.make();
    const store = new ScheduleStore(join(dir, "schedules.json"));
    const bad = entry("a");
    bad.schedule.when = { kind: "daily", time: "9am" };
    expect(() => store.put(bad)).toThrow(/HH:MM/);
    expect(store.list()).toEqual([]);
  });

  it("a run's changes are two checkpoints and counts, else the entry is refused", () => {
    const store = new ScheduleStore(join(temp.make(), "schedules.json"));
    const good = entry("a");
    good.runs[0].changes = { from: "cp:1", to: "cp:2", files: 3, added: 4, removed: 0 };
    store.put(good);
    expect(store.get("a")?.runs[0].changes).toEqual({ from: "cp:1", to: "cp:2", files: 3, added: 4, removed: 0 });
    for (const changes of [{ from: "cp 1", to: "cp:2", files: 3, added: 4, removed: 0 }, { from: "cp:1", to: "cp:2", files: -1, added: 4, removed: 0 }, { from: "cp:1", files: 3, added: 4, removed: 0 }]) {
      const bad = entry("b");
      bad.runs[0].changes = changes as never;
      expect(() => store.put(bad)).toThrow(/a run's changes are not two checkpoints and counts/);
    }
  });

  it("a file with a bad entry is set aside whole, the good entries kept, the user told", () => {
    const dir = temp.make();
    const bad = { ...entry("bad"), schedule: { ...entry("bad").schedule, profile: "root" } };
    const text = JSON.stringify({ version: 1, schedules: [entry("good"), bad] });
    writeFileSync(join(dir, "schedules.json"), text);
    const store = new ScheduleStore(join(dir, "schedules.json"));
    expect(store.list()).toEqual([entry("good")]);
    expect(store.notices[0].text).toMatch(/The schedules file had problems \(unknown permission profile "root"\); it was saved as .*schedules\.corrupt-.*\.json and the 1 schedules that were fine are kept \(1 could not be read\)/);
    const aside = readdirSync(dir).find((f) => f.startsWith("schedules.corrupt-"));
    expect(readFileSync(join(dir, aside!), "utf8")).toBe(text);
  });

  it("a file that is not JSON is set aside and no schedules run", () => {
    const dir = temp.make();
    writeFileSync(join(dir, "schedules.json"), "{ nope");
    const store = new ScheduleStore(join(dir, "schedules.json"));
    expect(store.list()).toEqual([]);
    expect(store.notices[0].text).toMatch(/unreadable.*no schedules run until you add them again/);
  });
});
