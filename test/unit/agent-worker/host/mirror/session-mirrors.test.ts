/** A session's mirrors (mirror/session-mirrors.ts), in process: an Agent on a scripted model, pages on in-memory channels. */
import { fauxAssistantMessage } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { SessionMirror } from "../../../../../src/renderer/store/session-mirror";
import { SessionMirrors, type SnapshotDetails } from "../../../../../src/agent-worker/host/mirror/session-mirrors";
import { fromEventFrame, type EventFrame, type SessionApi } from "../../../../../src/shared/protocol/session-protocol";
import { NO_TOOL_RUNS } from "../../../../../src/shared/agent/tool-runs";
import type { Agent } from "../../../../../src/agent-worker/agent/index";
import { scriptedAgent, textOf, useScriptedModel } from "../../agent/harness";
import { transportPair } from "./memory-transport";

const faux = useScriptedModel();

const details = (agent: Agent): SnapshotDetails => ({
  steeringMode: agent.steeringMode,
  followUpMode: agent.followUpMode,
  toolExecution: agent.toolExecution,
  toolRuns: NO_TOOL_RUNS,
  approvals: [],
});

/** An Agent whose every state change goes to `mirrors`, as SessionHost wires them. */
function hosted(reply: string, viewers: number[] = []): { agent: Agent; mirrors: SessionMirrors } {
  let agent: Agent | undefined;
  const mirrors = new SessionMirrors({ sessionId: "s1", agent: () => agent!, viewers: (count) => viewers.push(count) });
  agent = scriptedAgent(faux, [fauxAssistantMessage(reply)], { onStateEvent: (event, state) => mirrors.stateEvent(event, state) });
  return { agent, mirrors };
}

/** A page's end: the event frames it receives, in order. */
function page(mirrors: SessionMirrors): { frames: EventFrame[]; end: () => void } {
  const [worker, pageEnd] = transportPair();
  const frames: EventFrame[] = [];
  pageEnd.onMessage((frame) => {
    if ((frame as { ch?: string }).ch === "ev") frames.push(frame as EventFrame);
  });
  mirrors.connect(worker, {} as SessionApi);
  return { frames, end: () => pageEnd.close() };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("session mirrors", () => {
  it("a mirror connecting mid-run gets a snapshot and then the deltas after it, and ends with the worker's state", async () => {
    const { agent, mirrors } = hosted("a reply long enough to stream over many batches of text");
    const started = new Promise<void>((resolve) => agent.subscribe((event) => void (event.type === "message_update" && resolve())));
    const run = agent.prompt("go");
    await started;
    const { frames } = page(mirrors);
    const snapshot = mirrors.snapshot(undefined, () => details(agent));
    expect(snapshot.state.streamingMessage).toBeDefined();
    await run;
    await settle();
    const mirror = new SessionMirror("s1", agent.data);
    mirror.loadSnapshot(snapshot);
    const outcomes = frames.map((frame) => mirror.applyBatch(fromEventFrame(frame)!));
    expect(outcomes).not.toContain("resync");
    expect(frames.find((f) => f.seq > snapshot.seq)?.seq).toBe(snapshot.seq + 1);
    const messages = mirror.getView().state.messages;
    expect(messages.map(textOf)).toEqual(agent.data.messages.map(textOf));
    expect(textOf(messages.at(-1)!)).toBe("a reply long enough to stream over many batches of text");
  });

  it("a snapshot may leave out the oldest messages; its seq counts every batch sent", async () => {
    const { agent, mirrors } = hosted("hello");
    page(mirrors);
    await agent.prompt("go");
    const snapshot = mirrors.snapshot(1, () => details(agent));
    expect(snapshot.historyStart).toBe(1);
    expect(snapshot.state.messages.map(textOf)).toEqual(["hello"]);
    expect(snapshot.seq).toBeGreaterThan(0);
  });

  it("a chat whose model could not be resolved says so from its snapshot alone: once, naming the model, not again on a resync", async () => {
    const { agent, mirrors } = hosted("hi");
    const problem = 'Anthropic no longer offers the model "claude-opus-4-1". Pick another in the model picker.';
    const model = { provider: "anthropic", id: "claude-opus-4-1" };
    const snapshot = { ...mirrors.snapshot(undefined, () => details(agent)), modelProblem: problem, unresolvedModel: model };
    const mirror = new SessionMirror("s1", agent.data);
    mirror.loadSnapshot(snapshot);
    mirror.loadSnapshot(snapshot);
    expect(mirror.getView().notices).toEqual([{ id: expect.any(Number), kind: "error", text: problem, model }]);
  });

  it("counts the pages connected, and a closed page stops counting", async () => {
    const viewers: number[] = [];
    const { mirrors } = hosted("hi", viewers);
    const first = page(mirrors);
    page(mirrors);
    first.end();
    await settle();
    expect(viewers).toEqual([1, 2, 1]);
    expect(mirrors.size).toBe(1);
    mirrors.disconnect();
    expect(mirrors.size).toBe(0);
  });

  it("a frame that is not an RPC call is refused with an error frame, never reaching the API", async () => {
    const { mirrors } = hosted("hi");
    const [worker, pageEnd] = transportPair();
    const received: unknown[] = [];
    pageEnd.onMessage((m) => received.push(m));
    mirrors.connect(worker, {} as SessionApi);
    pageEnd.send({ ch: "nope" });
    await settle();
    expect(received).toEqual([{ ch: "err", message: 'Unknown frame: expected {ch:"rpc"}, got nope' }]);
  });
});
