/** A marker reaches the mirrors as one small state event (`append_message`), never as the whole transcript. */
import { describe, expect, it } from "vitest";
import { createAgentStateData, reduceAgentState, type AgentStateEvent } from "../../../../src/shared/agent/state";
import { StateEventDecoder, StateEventEncoder } from "../../../../src/shared/protocol/wire-events";
import { stateDigest } from "../../../../src/shared/protocol/state-digest";
import { Agent } from "../../../../src/agent-worker/agent/agent";
import { marker, reply, user, words } from "./compaction-fixtures";

describe("the marker on the wire", () => {
  it("is appended by the one reducer, in the worker and in the mirror alike", () => {
    const history = Array.from({ length: 200 }, (_, i) => (i % 2 ? reply(words(100)) : user(words(100))));
    const m = marker({ firstKeptIndex: 190 });
    const worker = createAgentStateData({ messages: history });
    let mirror = createAgentStateData({ messages: history });
    const event: AgentStateEvent = { type: "append_message", message: m };
    const after = reduceAgentState(worker, event);
    expect(after.messages.at(-1)).toBe(m);
    expect(worker.messages).toHaveLength(200); // never mutated

    const wire = new StateEventEncoder().encode(event, after);
    // The event carries the marker alone: a few hundred bytes, whatever the transcript's size.
    expect(JSON.stringify(wire).length).toBeLessThan(JSON.stringify(m).length + 100);
    mirror = reduceAgentState(mirror, new StateEventDecoder().decode(JSON.parse(JSON.stringify(wire)), mirror));
    expect(stateDigest(mirror, [], [])).toBe(stateDigest(after, [], []));
  });

  it("Agent.appendMessage tells onStateEvent and no listener (it is no loop event)", () => {
    const seen: string[] = [];
    const agent = new Agent({ initialState: { messages: [user("a")] }, onStateEvent: (e) => void seen.push(e.type) });
    let heard = 0;
    agent.subscribe(() => void heard++);
    const m = marker({ firstKeptIndex: 0 });
    agent.appendMessage(m);
    expect(agent.state.messages).toEqual([user("a"), m]);
    expect(seen).toEqual(["append_message"]);
    expect(heard).toBe(0);
  });
});
