/**
 * Branches in the one reducer: Edit and Regenerate set the active tail aside as a version, a switch swaps versions
 * (nested ones kept), Delete removes an exchange; all travel as small events that a mirror, even one holding only
 * the newest messages, reduces to the worker's state (equal digests).
 */
import { describe, expect, it } from "vitest";
import { createAgentStateData, reduceAgentState, type AgentStateData, type AgentStateEvent } from "../../../../src/shared/agent/state";
import { branchAt, deletionRange, lastReplyStart } from "../../../../src/shared/agent/branches";
import { StateEventDecoder, StateEventEncoder } from "../../../../src/shared/protocol/wire-events";
import { stateDigest } from "../../../../src/shared/protocol/state-digest";
import type { AgentMessage } from "../../../../src/shared/agent/types";
import { reply, user } from "./compaction-fixtures";

const texts = (state: AgentStateData) => state.messages.map((m) => (m.role === "user" || m.role === "assistant" ? (m.content[0] as { text: string }).text : m.role));
const reduce = (state: AgentStateData, ...events: AgentStateEvent[]) => events.reduce(reduceAgentState, state);
const end = (message: AgentMessage): AgentStateEvent => ({ type: "message_end", message });

/** u1 a1 u2 a2 */
function chat(): AgentStateData {
  return createAgentStateData({ messages: [user("u1"), reply("a1"), user("u2"), reply("a2")] });
}

describe("branches in the reducer", () => {
  it("Edit: the tail from the edited message becomes version 1, the new message starts version 2", () => {
    const before = chat();
    const after = reduce(before, { type: "branch", at: 2 }, end(user("u2 edited")), end(reply("a2'")));
    expect(texts(after)).toEqual(["u1", "a1", "u2 edited", "a2'"]);
    expect(branchAt(after.branches, 2)).toEqual({ active: 1, count: 2 });
    expect(texts(before)).toEqual(["u1", "a1", "u2", "a2"]); // never mutated
  });

  it("switches back and forth between versions", () => {
    const edited = reduce(chat(), { type: "branch", at: 2 }, end(user("u2 edited")), end(reply("a2'")));
    const back = reduce(edited, { type: "switch_branch", at: 2, version: 0 });
    expect(texts(back)).toEqual(["u1", "a1", "u2", "a2"]);
    expect(branchAt(back.branches, 2)).toEqual({ active: 0, count: 2 });
    const again = reduce(back, { type: "switch_branch", at: 2, version: 1 });
    expect(texts(again)).toEqual(texts(edited));
    expect(again.branches).toEqual(edited.branches);
  });

  it("Regenerate twice: three versions of the reply, the newest active", () => {
    const state = reduce(chat(), { type: "branch", at: 3 }, end(reply("a2 second")), { type: "branch", at: 3 }, end(reply("a2 third")));
    expect(texts(state)).toEqual(["u1", "a1", "u2", "a2 third"]);
    expect(branchAt(state.branches, 3)).toEqual({ active: 2, count: 3 });
    expect(texts(reduce(state, { type: "switch_branch", at: 3, version: 1 }))).toEqual(["u1", "a1", "u2", "a2 second"]);
  });

  it("a version made while an older one is shown goes last; the one shown keeps its place", () => {
    const state = reduce(chat(), { type: "branch", at: 3 }, end(reply("second")), { type: "switch_branch", at: 3, version: 0 }, { type: "branch", at: 3 }, end(reply("third")));
    expect(branchAt(state.branches, 3)).toEqual({ active: 2, count: 3 });
    expect(texts(reduce(state, { type: "switch_branch", at: 3, version: 0 })).at(-1)).toBe("a2");
    expect(texts(reduce(state, { type: "switch_branch", at: 3, version: 1 })).at(-1)).toBe("second");
  });

  it("nested versions inside a version survive switching away and back", () => {
    // Edit u1 (version 2 of index 0), then regenerate the reply in that version (versions at index 1).
    const nested = reduce(chat(), { type: "branch", at: 0 }, end(user("v2")), end(reply("r1")), { type: "branch", at: 1 }, end(reply("r2")));
    expect(texts(nested)).toEqual(["v2", "r2"]);
    expect(branchAt(nested.branches, 1)).toEqual({ active: 1, count: 2 });
    const away = reduce(nested, { type: "switch_branch", at: 0, version: 0 });
    expect(texts(away)).toEqual(["u1", "a1", "u2", "a2"]);
    expect(branchAt(away.branches, 1)).toBeUndefined(); // the nested point went with its version
    const back = reduce(away, { type: "switch_branch", at: 0, version: 1 });
    expect(texts(back)).toEqual(["v2", "r2"]);
    expect(back.branches).toEqual(nested.branches);
    expect(texts(reduce(back, { type: "switch_branch", at: 1, version: 0 }))).toEqual(["v2", "r1"]);
  });

  it("Delete removes the exchange and moves later versions back", () => {
    const messages = [user("u1"), reply("a1"), user("u2"), reply("a2"), user("u3"), reply("a3")];
    expect(deletionRange(messages, 2)).toEqual({ start: 2, count: 2 });
    expect(deletionRange(messages, 1)).toEqual({ start: 1, count: 1 });
    expect(deletionRange(messages, 5)).toEqual({ start: 5, count: 1 });
    const branched = reduce(createAgentStateData({ messages }), { type: "branch", at: 5 }, end(reply("a3'")));
    const after = reduce(branched, { type: "delete_messages", start: 2, count: 2 });
    expect(texts(after)).toEqual(["u1", "a1", "u3", "a3'"]);
    expect(branchAt(after.branches, 3)).toEqual({ active: 1, count: 2 });
    expect(texts(reduce(after, { type: "switch_branch", at: 3, version: 0 }))).toEqual(["u1", "a1", "u3", "a3"]);
    // Deleting the message a branch point sits on takes its versions with it.
    expect(reduce(after, { type: "delete_messages", start: 3, count: 1 }).branches).toBeUndefined();
  });

  it("ignores a switch to a version that does not exist, and reset and a whole new transcript drop the versions", () => {
    const state = reduce(chat(), { type: "branch", at: 3 }, end(reply("b")));
    expect(reduce(state, { type: "switch_branch", at: 3, version: 5 })).toBe(state);
    expect(reduce(state, { type: "switch_branch", at: 2, version: 0 })).toBe(state);
    expect(reduce(state, { type: "reset" }).branches).toBeUndefined();
    expect(reduce(state, { type: "state_patch", patch: { messages: [user("x")] } }).branches).toBeUndefined();
  });

  it("Retry's drop forgets a version point past the path's end", () => {
    const state = reduce(chat(), { type: "branch", at: 4 }, end(reply("extra")));
    expect(branchAt(state.branches, 4)).toBeDefined();
    expect(reduce(state, { type: "drop_last_messages", count: 2 }).branches).toBeUndefined();
  });

  it("finds where the last reply starts", () => {
    expect(lastReplyStart(chat().messages)).toBe(3);
    expect(lastReplyStart([user("a")])).toBeUndefined();
    expect(lastReplyStart([])).toBeUndefined();
    const marker = { role: "compaction", summary: "s", firstKeptIndex: 0, summarisedMessages: 0, summarisedTokens: 0, tokensBefore: 0, tokensAfter: 0, reason: "threshold", timestamp: 0 } as AgentMessage;
    expect(lastReplyStart([user("a"), marker, reply("b")])).toBe(2);
    expect(lastReplyStart([user("a"), marker])).toBeUndefined();
  });
});

describe("branches on the wire", () => {
  const events: AgentStateEvent[] = [
    { type: "branch", at: 2 },
    end(user("u2 edited")),
    end(reply("a2'")),
    { type: "branch", at: 3 },
    end(reply("a2''")),
    { type: "switch_branch", at: 2, version: 0 },
    { type: "switch_branch", at: 2, version: 1 },
    { type: "delete_messages", start: 0, count: 2 },
  ];

  it("each is a few bytes, and the mirror's digest equals the worker's after every event", () => {
    const big = "x".repeat(10_000);
    let worker = createAgentStateData({ messages: [user(big), reply(big), user(big), reply(big)] });
    let mirror = worker;
    const encoder = new StateEventEncoder();
    const decoder = new StateEventDecoder();
    for (const event of events) {
      worker = reduceAgentState(worker, event);
      const wire = JSON.parse(JSON.stringify(encoder.encode(event, worker)));
      if (event.type !== "message_end") expect(JSON.stringify(wire).length).toBeLessThan(80);
      mirror = reduceAgentState(mirror, decoder.decode(wire, mirror));
      expect(stateDigest(mirror, [], [])).toBe(stateDigest(worker, [], []));
    }
  });

  it("the digest covers the versions: same messages, different versions, different digests", () => {
    const plain = chat();
    const branched = reduce(chat(), { type: "branch", at: 3 }, end(reply("a2")));
    expect(texts(branched)).toEqual(texts(plain));
    expect(stateDigest(branched, [], [])).not.toBe(stateDigest(plain, [], []));
  });

  it("a mirror holding only the newest messages applies events past its start, and refuses one before it", () => {
    let worker = chat();
    // The mirror holds messages from index 2 on, branches as the worker has them.
    let mirror: AgentStateData = { ...worker, messages: worker.messages.slice(2) };
    const encoder = new StateEventEncoder();
    const decoder = new StateEventDecoder();
    for (const event of [{ type: "branch", at: 3 } as AgentStateEvent, end(reply("new")), { type: "switch_branch", at: 3, version: 0 } as AgentStateEvent]) {
      worker = reduceAgentState(worker, event);
      mirror = reduceAgentState(mirror, decoder.decode(JSON.parse(JSON.stringify(encoder.encode(event, worker))), mirror, 2));
      expect(mirror.messages).toEqual(worker.messages.slice(2));
      expect(mirror.branches).toEqual(worker.branches);
    }
    expect(() => decoder.decode({ k: "s", e: { type: "branch", at: 1 } }, mirror, 2)).toThrow(/loaded/);
    expect(() => decoder.decode({ k: "s", e: { type: "delete_messages", start: 0, count: 1 } }, mirror, 2)).toThrow(/loaded/);
  });
});
