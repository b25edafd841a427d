/**
 * Schedules run by the core both hosts assemble, with real workers and the loopback model, on a clock the test
 * moves: a due occurrence makes a chat with the reply under the schedule's contract, an overlapping one is skipped,
 * and one missed while Paddock was closed runs once at the next start.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import type { Core } from "../../src/main/broker/core";
import type { Schedule, ScheduleView } from "../../src/shared/schedules/schedule";
import { loadTranscript, TranscriptWriter } from "../../src/shared-node/session-files/transcript-store";
import { startOpenAIServer, turnDirective, type OpenAITestServer } from "../../src/web-host/openai-test-server";
import { FakeClock, HOUR, SCHEDULE_START as START, scheduleClock, testSchedule } from "../../testkit/fake-clock";
import { dispatchAppCall } from "../../src/main/broker/app-call";
import type { AppEvent } from "../../src/shared/protocol/app-api";
import { createLoopbackCore } from "../../testkit/loopback-core";


let dir: string;
let server: OpenAITestServer;
let core: Core<never> | undefined;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "paddock-schedules-"));
  server = await startOpenAIServer({ models: ["test-model"] });
});
afterEach(async () => {
  await core?.shutdown();
  core = undefined;
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(clock: FakeClock): Promise<Core<never>> {
  core = await createLoopbackCore(dir, server, { schedules: { clock, timeZone: () => "UTC" } });
  return core;
}

const schedule = (overrides: Partial<Schedule> = {}): Schedule =>
  testSchedule({ id: "morning", name: "Morning summary", prompt: "Say good morning", budget: { toolCalls: 5 }, ...overrides });

const until = async (check: () => boolean, timeoutMs = 20_000) => {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > timeoutMs) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
};

const only = (c: Core<never>): ScheduleView => c.schedules.list()[0];

async function transcriptOf(c: Core<never>, chatId: string) {
  return loadTranscript(c.broker.transcriptFile(chatId));
}

describe("schedules (integration)", () => {
  it("a due occurrence makes a new chat with the reply, under the schedule's profile and budget, and records it", async () => {
    const clock = scheduleClock();
    const c = await start(clock);
    await c.schedules.save(schedule());
    clock.advance(HOUR);
    await until(() => only(c).runs[0]?.outcome === "finished");
    const run = only(c).runs[0];
    expect(run).toMatchObject({ outcome: "finished", occurrence: START + HOUR, spend: { costUnknown: true } });
    expect(run.spend!.tokens).toBeGreaterThan(0);
    const chat = c.index.get(run.chatId!);
    expect(chat?.title).toBe("Morning summary");
    const transcript = await transcriptOf(c, run.chatId!);
    const texts = transcript.messages.map((m) => (m.role === "assistant" ? m.content.map((p) => (p.type === "text" ? p.text : "")).join("") : m.role));
    expect(texts).toContain("Say good morning");
    // The contract bound the run, not the chat: the chat's options are its own (none), the run's marker records it.
    expect(transcript.chatOptions).toBeUndefined();
    expect(transcript.messages.filter((m) => m.role === "permissionProfile")).toEqual([
      { role: "permissionProfile", profile: "read-only", run: { unattended: true, profile: "read-only", budget: { toolCalls: 5 } }, timestamp: expect.any(Number) },
    ]);
  });

  it("a run continuing a chat goes under the schedule's profile and caps, not the chat's, which stay the user's", async () => {
    const clock = new FakeClock(START);
    const c = await start(clock);
    const chat = await c.service.createSession();
    const set = await c.service.setWorkspace(chat.id, dir, true);
    expect("refused" in set).toBe(false);
    // The user's own choice for the chat: Edits allowed (a write would run), 50 tool calls a run.
    const own = { profile: "edits" as const, budget: { run: { toolCalls: 50 } } };
    const writer = await TranscriptWriter.open(c.broker.transcriptFile(chat.id));
    await writer.append({ t: "meta", chatOptions: own });
    await writer.close();
    const calls = [
      { id: "w1", name: "write", arguments: { path: "scheduled.txt", content: "written" } },
      { id: "c1", name: "calculate", arguments: { expression: "1+1" } },
      { id: "c2", name: "calculate", arguments: { expression: "2+2" } },
    ];
    await c.schedules.save(schedule({ target: { continue: chat.id }, budget: { toolCalls: 2 }, prompt: `Work ${turnDirective({ toolCalls: calls })}` }));
    clock.advance(HOUR);
    await until(() => only(c).runs[0]?.outcome !== undefined && only(c).runs[0].outcome !== "running");
    // The schedule's cap of 2 tool calls stopped it (the chat's own is 50); Read-only refused the write.
    expect(only(c).runs[0]).toMatchObject({ outcome: "stopped-by-budget", reason: expect.stringMatching(/^Stopped at the 2-tool-call budget/) });
    expect(existsSync(join(dir, "scheduled.txt"))).toBe(false);
    const transcript = await transcriptOf(c, chat.id);
    const write = transcript.messages.find((m) => m.role === "toolResult" && m.toolCallId === "w1");
    expect(JSON.stringify(write)).toMatch(/Read-only/);
    expect(transcript.chatOptions).toEqual(own);
    expect(transcript.messages.filter((m) => m.role === "permissionProfile")).toEqual([
      { role: "permissionProfile", profile: "read-only", run: { unattended: true, profile: "read-only", budget: { toolCalls: 2 } }, timestamp: expect.any(Number) },
    ]);
    // The worker checks a contract main sends with runTask: a malformed one is refused in words, and nothing runs.
    const attachment = await c.broker.attach(chat.id, "test");
    try {
      const before = (await transcriptOf(c, chat.id)).messages.length;
      await expect(attachment.worker.call((control) => control.runTask("Again", { profile: "root" } as never))).rejects.toThrow(/runTask: Not a valid run contract: profile: must be one of/);
      await expect(attachment.worker.call((control) => control.runTask("Again", { unattended: true, budget: { toolCalls: -1 } }))).rejects.toThrow(/budget\.toolCalls/);
      expect((await transcriptOf(c, chat.id)).messages).toHaveLength(before);
    } finally {
      c.broker.detach(chat.id, "test");
    }
  });

  it("an occurrence due while the previous run goes on is skipped, still running; a continued chat gets each run", async () => {
    const clock = scheduleClock();
    const c = await start(clock);
    const chat = await c.service.createSession();
    // A slow reply: the next hour's occurrence comes while it streams.
    await c.schedules.save(schedule({ target: { continue: chat.id }, when: { kind: "every", hours: 1, from: START + HOUR }, prompt: `Slowly ${turnDirective({ text: "x".repeat(400), tokensPerSecond: 100 })}` }));
    clock.advance(HOUR);
    await until(() => only(c).runs[0]?.chatId === chat.id);
    clock.advance(HOUR);
    expect(only(c).runs[0]).toMatchObject({ outcome: "skipped", reason: "still running" });
    await until(() => only(c).runs[1]?.outcome === "finished");
    expect(only(c).runs.map((r) => r.outcome)).toEqual(["skipped", "finished"]);
    clock.advance(HOUR);
    await until(() => only(c).runs[0]?.outcome === "finished");
    expect((await transcriptOf(c, chat.id)).messages.filter((m) => m.role === "user")).toHaveLength(2);
  });

  it("a run that changed its workspace records what it changed (the list's Changes link); one that changed nothing records none", async () => {
    const clock = new FakeClock(START);
    const c = await start(clock);
    // Not in the data folder (`dir`): the tools never touch that.
    const workspace = mkdtempSync(join(tmpdir(), "paddock-schedules-work-"));
    onTestFinished(() => rmSync(workspace, { recursive: true, force: true }));
    writeFileSync(join(workspace, "old.md"), "kept\n");
    const write = turnDirective({ toolCalls: [{ id: "w1", name: "write", arguments: { path: "notes.md", content: "one\ntwo\nthree\n" } }] });
    await c.schedules.save(schedule({ workspace, profile: "edits", prompt: `Write the notes ${write}` }));
    c.schedules.runNow("morning");
    await until(() => only(c).runs[0]?.outcome === "finished");
    expect(readFileSync(join(workspace, "notes.md"), "utf8")).toBe("one\ntwo\nthree\n");
    const changes = only(c).runs[0].changes;
    expect(changes).toMatchObject({ files: 1, added: 3, removed: 0 });
    expect(changes!.from).not.toBe(changes!.to);

    await c.schedules.save(schedule({ workspace, profile: "edits", prompt: "Just say hello" }));
    c.schedules.runNow("morning");
    await until(() => only(c).runs[0]?.outcome === "finished" && only(c).runs.length === 2);
    expect(only(c).runs[0].changes).toBeUndefined();
    expect(only(c).runs[1].changes).toEqual(changes);
  });

  it("an occurrence missed while Paddock was closed runs once at the next start", async () => {
    const first = await start(scheduleClock());
    await first.schedules.save(schedule());
    await first.shutdown();
    core = undefined;
    const c = await start(scheduleClock(2 * 24 * HOUR + 2 * HOUR));
    await until(() => only(c).runs[0]?.outcome === "finished");
    expect(only(c).runs).toHaveLength(1);
    expect(only(c).runs[0].reason).toBe("missed while Paddock was closed or the computer asleep (3 times): ran once");
    expect(c.index.get(only(c).runs[0].chatId!)).toBeDefined();
  });

  it("a run that reaches the schedule's budget is recorded as stopped by it, with the reason", async () => {
    const clock = scheduleClock();
    const c = await start(clock);
    const calls = [1, 2, 3].map((n) => ({ id: `c${n}`, name: "calculate", arguments: { expression: `${n}+1` } }));
    await c.schedules.save(schedule({ budget: { toolCalls: 1 }, prompt: `Count ${turnDirective({ toolCalls: calls })}` }));
    clock.advance(HOUR);
    await until(() => only(c).runs[0]?.outcome !== undefined && only(c).runs[0].outcome !== "running");
    expect(only(c).runs[0]).toMatchObject({ outcome: "stopped-by-budget", reason: expect.stringMatching(/^Stopped at the 1-tool-call budget/) });
  });

  it("the AppApi's schedule calls: checked, saved, pushed to pages, run by hand, deleted", async () => {
    const c = await start(scheduleClock());
    const events: AppEvent[] = [];
    c.service.onEvent((e) => events.push(e));
    await expect(dispatchAppCall(c.service, "saveSchedule", [{ ...schedule(), extra: true }])).rejects.toThrow(/saveSchedule: invalid arguments/);
    await expect(dispatchAppCall(c.service, "saveSchedule", [schedule({ when: { kind: "cron", expression: "0 25 * * *" } })])).rejects.toThrow(/hour field's "25"/);
    await expect(dispatchAppCall(c.service, "saveSchedule", [schedule({ workspace: join(dir, "no-such-folder") })])).rejects.toThrow();
    expect(await dispatchAppCall(c.service, "listSchedules", [])).toEqual([]);
    const saved = (await dispatchAppCall(c.service, "saveSchedule", [schedule({ workspace: dir })])) as ScheduleView;
    expect(saved.next).toBe(START + HOUR);
    expect(events.filter((e) => e.type === "schedules").at(-1)).toMatchObject({ schedules: [{ schedule: { id: "morning" } }] });
    expect(await dispatchAppCall(c.service, "runScheduleNow", ["morning"])).toMatchObject({ outcome: "running", byHand: true });
    await until(() => only(c).runs[0]?.outcome === "finished");
    expect(c.index.get(only(c).runs[0].chatId!)?.workspace).toBeDefined();
    // The list's switch: checked, off at once (no next run), on again; nothing else of the schedule changes.
    await expect(dispatchAppCall(c.service, "setScheduleEnabled", ["morning", "no"])).rejects.toThrow(/setScheduleEnabled: invalid arguments/);
    await expect(dispatchAppCall(c.service, "setScheduleEnabled", ["nope", false])).rejects.toThrow("No such schedule");
    const off = (await dispatchAppCall(c.service, "setScheduleEnabled", ["morning", false])) as ScheduleView;
    expect(off).toMatchObject({ schedule: { ...schedule({ workspace: off.schedule.workspace }), enabled: false } });
    expect(off.next).toBeUndefined();
    expect(events.filter((e) => e.type === "schedules").at(-1)).toMatchObject({ schedules: [{ schedule: { enabled: false } }] });
    expect(((await dispatchAppCall(c.service, "setScheduleEnabled", ["morning", true])) as ScheduleView).next).toBeDefined();
    expect(await dispatchAppCall(c.service, "deleteSchedule", ["morning"])).toBe(true);
    expect(await dispatchAppCall(c.service, "listSchedules", [])).toEqual([]);
  });
});
