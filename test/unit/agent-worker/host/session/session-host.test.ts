/**
 * A session host (session/session-host.ts), in process: its transcript in a temporary folder, a scripted model whose
 * reply waits until the test lets it go, and a page's SessionClient on in-memory channels. A command that starts a run
 * with a message (prompt, sendHeld, editMessage) resolves once the message is accepted: in the chat and journaled.
 */
import { fauxAssistantMessage, fauxToolCall, type FauxResponseStep } from "@earendil-works/pi-ai";
import { afterEach, describe, expect, it } from "vitest";
import { SessionHost } from "../../../../../src/agent-worker/host/session/session-host";
import type { SessionMain } from "../../../../../src/agent-worker/host/session/session-role";
import type { WorkerSettings } from "../../../../../src/shared/protocol/control-protocol";
import { loadTranscript } from "../../../../../src/shared-node/session-files/transcript-store";
import { SessionClient } from "../../../../../src/renderer/store/session-client";
import type { BaseTransport } from "../../../../../src/shared/transport/transport";
import { useTempTranscript } from "../../../../../testkit/temp-transcript";
import { waitForIdle, waitForView } from "../../../../../testkit/worker-harness";
import { textOf, useScriptedModel } from "../../agent/harness";
import { transportPair } from "../mirror/memory-transport";

const faux = useScriptedModel();
const temp = useTempTranscript("paddock-session-host-");

const settings = (): WorkerSettings => ({
  defaultModel: { provider: "scripted", id: "scripted-1" },
  thinkingLevel: "off",
  steeringMode: "one-at-a-time",
  followUpMode: "one-at-a-time",
  toolExecution: "parallel",
  requestTimeoutMs: 60_000,
  clearQueuesOnAbort: false,
  toolApproval: {},
  approvalTimeoutMs: 60_000,
  allowedDomains: [],
});

/** Main as a session sees it: the scripted model, no key needed, nothing else on offer. */
const main = (): SessionMain =>
  ({
    getApiKey: async () => "key",
    report: async () => undefined,
    resolveModel: async () => faux.getModel(),
    mcpTools: async () => [],
    listSkills: async () => ({ skills: [], problems: [] }),
  }) as unknown as SessionMain;

/** A reply the model holds back until `release()`: the run is active, streaming nothing yet. */
function pausedReply(text: string): { release: () => void } {
  let release = (): void => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  faux.appendResponses([
    async () => {
      await gate;
      return fauxAssistantMessage(text);
    },
  ]);
  return { release };
}

const hosts: SessionHost[] = [];
const clients: SessionClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(hosts.splice(0).map((host) => host.shutdown()));
  faux.setResponses([]);
});

/** Opens the session and a page on it; `drop()` cuts the page's current connection (the page reconnects). */
async function openSession(own: Partial<WorkerSettings> = {}): Promise<{ host: SessionHost; client: SessionClient; drop: () => void }> {
  const { host } = await SessionHost.open(
    { sessionId: "s1", transcriptFile: temp.file, sessionDir: temp.dir, settings: { ...settings(), ...own }, sessionTransport: "port" },
    main(),
  );
  hosts.push(host);
  let workerEnd: BaseTransport | undefined;
  const client = new SessionClient("s1", async () => {
    const [worker, page] = transportPair();
    workerEnd = worker;
    host.connect(worker);
    return { transport: page };
  });
  clients.push(client);
  await client.start();
  return { host, client, drop: () => workerEnd?.close() };
}

const texts = (client: SessionClient) => client.mirror.getView().state.messages.map(textOf);
const journaledTexts = async () => (await loadTranscript(temp.file)).messages.map(textOf);

describe("a session host's commands that start a run", () => {
  it("prompt resolves once the message is journaled, while the model is still answering; the mirror reports the run's end", async () => {
    const { client } = await openSession();
    const reply = pausedReply("the reply");
    await client.prompt("hello");
    // Accepted: on disk, and in the mirror with its run, before any reply.
    expect(await journaledTexts()).toEqual(["hello"]);
    expect(client.mirror.getView().state.isStreaming).toBe(true);
    expect(texts(client)).toEqual(["hello"]);
    reply.release();
    await waitForIdle(client);
    expect(texts(client)).toEqual(["hello", "the reply"]);
    expect(await journaledTexts()).toEqual(["hello", "the reply"]);
  });

  it("rejects what is not accepted, with the reason, and changes nothing", async () => {
    const { client } = await openSession();
    const reply = pausedReply("first reply");
    await client.prompt("first");
    await expect(client.prompt("second")).rejects.toThrow(/already processing/);
    await expect(client.editMessage(0, "edited")).rejects.toThrow(/agent is working/);
    reply.release();
    await waitForIdle(client);
    const forged = { id: `${"0".repeat(64)}.txt`, name: "notes.md", mimeType: "text/plain", size: 1 };
    await expect(client.prompt("again", [forged])).rejects.toThrow("notes.md is not stored in this chat: attach it again.");
    expect(texts(client)).toEqual(["first", "first reply"]);
    expect(await journaledTexts()).toEqual(["first", "first reply"]);
  });

  it("editMessage resolves once the new version is journaled, while the model answers it", async () => {
    const { client } = await openSession();
    faux.appendResponses([fauxAssistantMessage("one")]);
    await client.prompt("question");
    await waitForIdle(client);
    const reply = pausedReply("two");
    await client.editMessage(0, "question, edited");
    expect(await journaledTexts()).toEqual(["question, edited"]);
    expect(client.mirror.getView().state.isStreaming).toBe(true);
    reply.release();
    await waitForIdle(client);
    expect(texts(client)).toEqual(["question, edited", "two"]);
  });

  it("sendHeld resolves once the held message is journaled, while the model answers it", async () => {
    const { client } = await openSession();
    const stopped = pausedReply("never said");
    await client.prompt("go");
    await client.followUp("held one");
    await client.abort();
    stopped.release();
    await waitForView(client, (v) => !v.state.isStreaming && v.held.length === 1);
    const reply = pausedReply("answer to the held one");
    await client.sendHeld(0);
    expect((await journaledTexts()).at(-1)).toBe("held one");
    expect(client.mirror.getView().state.isStreaming).toBe(true);
    expect(client.mirror.getView().held).toEqual([]);
    reply.release();
    await waitForIdle(client);
    expect(texts(client).slice(-2)).toEqual(["held one", "answer to the held one"]);
  });

  it("a connection lost after acceptance fails no call: the message stays sent, once, and the reply arrives", async () => {
    const { client, drop } = await openSession();
    const reply = pausedReply("after the reconnect");
    let outcome = "pending";
    // What the composer does: it keeps the text only when the call rejects.
    await client.prompt("are you there?").then(() => (outcome = "sent"), () => (outcome = "kept in the composer"));
    drop();
    await waitForView(client, (v) => v.connection === "reconnecting");
    await waitForView(client, (v) => v.connection === "ready");
    reply.release();
    await waitForIdle(client);
    expect(outcome).toBe("sent");
    expect(texts(client)).toEqual(["are you there?", "after the reconnect"]);
    expect(await journaledTexts()).toEqual(["are you there?", "after the reconnect"]);
  });
});

describe("a run's contract (run-contract.ts)", () => {
  /** A reply asking for two `calculate` calls, noting the request it answers (its system prompt a leading message). */
  const twoCalls = (prompts: string[]): FauxResponseStep => (context) => {
    prompts.push(JSON.stringify(context));
    return fauxAssistantMessage([fauxToolCall("calculate", { expression: "1+1" }), fauxToolCall("calculate", { expression: "2+2" })], { stopReason: "toolUse" });
  };
  const markers = async () => (await loadTranscript(temp.file)).messages.filter((m) => m.role === "permissionProfile");

  it("binds its run only: its plan, profile and caps hold for that run, the chat's options stay as they were, and the marker records it", async () => {
    const { client } = await openSession({ toolApproval: { calculate: "allow" } });
    const prompts: string[] = [];
    // The reply after the calls is never asked for: the stop comes first (queued, the scripted model says "aborted").
    faux.appendResponses([twoCalls(prompts), fauxAssistantMessage("not asked")]);
    await client.prompt("plan it", [], { plan: true, profile: "edits", budget: { toolCalls: 1 } });
    await waitForIdle(client);
    // Planning: the prompt's plan part; the run's own cap of one tool call stopped it.
    expect(prompts[0]).toContain("<plan_mode>");
    const stopped = client.mirror.getView().state.messages.at(-1);
    expect(stopped).toMatchObject({ role: "assistant", stopReason: "aborted", errorMessage: expect.stringMatching(/^Stopped at the 1-tool-call budget/) });
    expect(client.mirror.getView().chatOptions).toBeUndefined();
    // Settled, the run's caps are gone from the meter with it (the chat has none of its own).
    await waitForView(client, (v) => v.budget === undefined);
    expect(await markers()).toEqual([
      { role: "permissionProfile", profile: "read-only", plan: true, run: { plan: true, profile: "edits", budget: { toolCalls: 1 } }, timestamp: expect.any(Number) },
    ]);

    // The next run goes under the chat's own terms again: no plan part, no cap, Ask; a marker says so.
    faux.appendResponses([twoCalls(prompts), fauxAssistantMessage("both done")]);
    await client.prompt("now act");
    await waitForIdle(client);
    expect(prompts[1]).not.toContain("<plan_mode>");
    expect(texts(client).at(-1)).toBe("both done");
    const transcript = await loadTranscript(temp.file);
    expect(transcript.chatOptions).toBeUndefined();
    expect((await markers()).at(-1)).toEqual({ role: "permissionProfile", profile: "ask", timestamp: expect.any(Number) });
  });

  it("Retry answers a message sent in Plan in Plan again (its run's terms), not under the chat's act profile", async () => {
    const { client } = await openSession();
    const prompts: string[] = [];
    const noting = (text: string): FauxResponseStep => (context) => {
      prompts.push(JSON.stringify(context));
      return fauxAssistantMessage(text);
    };
    faux.appendResponses([fauxAssistantMessage("", { stopReason: "error", errorMessage: "503 Service Unavailable" })]);
    await client.prompt("plan it", [], { plan: true });
    await waitForIdle(client);
    expect(client.mirror.getView().state.messages.at(-1)).toMatchObject({ stopReason: "error" });
    faux.appendResponses([noting("1. the plan")]);
    await client.continue();
    await waitForIdle(client);
    expect(prompts[0]).toContain("<plan_mode>");
    expect(texts(client).at(-1)).toBe("1. the plan");
    // Still the one marker: the retry went under the same terms.
    expect((await markers()).map((m) => ("run" in m ? m.run : undefined))).toEqual([{ plan: true }]);
    // The chat's next message acts again.
    faux.appendResponses([noting("acting")]);
    await client.prompt("go");
    await waitForIdle(client);
    expect(prompts[1]).not.toContain("<plan_mode>");
  });

  it("a new version of a message sent in Plan, or of its reply (Edit, Regenerate), plans again", async () => {
    const { client } = await openSession();
    const prompts: string[] = [];
    const noting = (text: string): FauxResponseStep => (context) => {
      prompts.push(JSON.stringify(context));
      return fauxAssistantMessage(text);
    };
    faux.appendResponses([noting("plan one"), noting("plan two"), noting("plan three")]);
    await client.prompt("plan it", [], { plan: true });
    await waitForIdle(client);
    await client.regenerate();
    await waitForIdle(client);
    const index = client.mirror.getView().state.messages.findIndex((m) => m.role === "user");
    await client.editMessage(index, "plan it better");
    await waitForIdle(client);
    expect(prompts).toHaveLength(3);
    for (const prompt of prompts) expect(prompt).toContain("<plan_mode>");
    expect(texts(client).at(-1)).toBe("plan three");
  });

  it("a run with no contract after one with the same profile still gets its own marker; a malformed contract is refused with the reason", async () => {
    const { client } = await openSession();
    faux.appendResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
    await client.prompt("first", [], { unattended: true });
    await waitForIdle(client);
    await client.prompt("second");
    await waitForIdle(client);
    expect((await markers()).map((m) => ("run" in m ? m.run : undefined))).toEqual([{ unattended: true }, undefined]);
    await expect(client.prompt("third", [], { profile: "root" } as never)).rejects.toThrow(/prompt: invalid arguments/);
    await expect(client.prompt("third", [], { plan: true, budget: { toolCalls: 0 } })).rejects.toThrow(/prompt: invalid arguments/);
    expect(texts(client).filter((t) => t !== "undefined")).toEqual(["first", "one", "second", "two"]);
  });
});
