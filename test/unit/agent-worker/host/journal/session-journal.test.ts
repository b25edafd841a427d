/** A session's journal (journal/session-journal.ts), in process: an Agent on a scripted model, a recording writer. */
import { fauxAssistantMessage } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { SessionJournal } from "../../../../../src/agent-worker/host/journal/session-journal";
import type { Agent } from "../../../../../src/agent-worker/agent/index";
import type { TranscriptRecord } from "../../../../../src/shared-node/session-files/transcript-store";
import { scriptedAgent, textOf, useScriptedModel, userMessage } from "../../agent/harness";

const faux = useScriptedModel();

/** What the journal wrote, in order, as `kind:text` lines (a message's text, a queue's texts). */
function line(record: TranscriptRecord): string {
  if (record.t === "message") return `message:${textOf(record.message)}`;
  if (record.t === "queues") return `queues:${[...record.steering, ...record.followUp].map(textOf).join(",")}`;
  if (record.t === "meta") return `meta:${record.title ?? ""}`;
  return record.t;
}

function journaled(replies: string[], options: { failWrites?: boolean; title?: string } = {}) {
  const written: string[] = [];
  const said: string[] = [];
  let recorded = 0;
  let agent: Agent | undefined;
  const journal = new SessionJournal(
    {
      writer: {
        append: async (...records) => {
          if (options.failWrites) throw new Error("disk full");
          written.push(...records.map(line));
        },
        appendCheckpoint: async () => undefined,
        close: async () => undefined,
      },
      agent: () => agent!,
      held: () => [],
      streaming: () => undefined,
      queuesShown: () => undefined,
      notify: (text) => said.push(text),
      recorded: () => void recorded++,
    },
    options.title,
  );
  agent = scriptedAgent(faux, replies.map((r) => fauxAssistantMessage(r)), { onQueueChange: (change) => journal.agentQueueChanged(change) });
  journal.follow(agent);
  return { agent, journal, written, said, recorded: () => recorded };
}

describe("session journal", () => {
  it("records a queued message before the run takes it, and the drained queue with the message it became", async () => {
    const { agent, journal, written } = journaled(["first", "second"]);
    agent.followUp(userMessage("later"));
    await journal.queuesWritten;
    expect(written).toEqual(["queues:later"]);
    await agent.prompt("go");
    await agent.waitForIdle();
    expect(written).toEqual(["queues:later", "message:go", "meta:go", "message:first", "message:later", "queues:", "message:second"]);
  });

  it("names the chat once, from its first message, and again after a reset", async () => {
    const { agent, journal, written } = journaled(["one", "two"], { title: "Saved" });
    expect(journal.title).toBe("Saved");
    await agent.prompt("hello there");
    expect(written.filter((w) => w.startsWith("meta"))).toEqual([]);
    journal.forgetTitle();
    await agent.prompt("again");
    expect(journal.title).toBe("hello there");
    expect(written.filter((w) => w.startsWith("meta"))).toEqual(["meta:hello there"]);
  });

  it("puts journaled queues back without journaling them again", async () => {
    const { agent, journal, written } = journaled([]);
    journal.restoreQueues([userMessage("s")], [userMessage("f")]);
    await journal.queuesWritten;
    expect(agent.queuedMessages().steering.map(textOf)).toEqual(["s"]);
    expect(agent.queuedMessages().followUp.map(textOf)).toEqual(["f"]);
    expect(written).toEqual([]);
  });

  it("says a failed write in the chat instead of failing the run, and tells main after each message", async () => {
    const { agent, said, recorded } = journaled(["reply"], { failWrites: true });
    await agent.prompt("go");
    expect(agent.state.messages.map(textOf)).toEqual(["go", "reply"]);
    expect(said).toEqual(["Could not save the transcript: disk full", "Could not save the transcript: disk full"]);
    expect(recorded()).toBe(2);
  });
});
