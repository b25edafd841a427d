/**
 * The event stream from a session's worker to its mirrors, at O(delta).
 *
 * The worker's `StateEventEncoder` turns each `AgentStateEvent` (after the worker reduced it) into a compact,
 * JSON-compatible `WireEvent`: message updates become patches against the message the mirror already holds,
 * messages the mirror already has become references. The mirror's `StateEventDecoder` rebuilds the exact
 * `AgentStateEvent`, which it then feeds to the same reducer. Encoder and decoder keep the same small memory (the
 * streaming message and the transcript), so both must see every event in order; a gap means resync.
 */
import type { AssistantMessage } from "@earendil-works/pi-ai";
import type { AgentEvent, AgentMessage } from "../agent/types";
import type { AgentStateData, AgentStateEvent } from "../agent/state";
import {
  applyPatches,
  diffMessage,
  diffStreamingUpdate,
  type HotField,
  type Patch,
  snapshotMessage,
  STREAMED_BLOCK_FIELDS,
  type StreamedBlockField,
  streamingStart,
} from "./message-patch";

/** A message the mirror already holds, by position in `state.messages`, or the one it is streaming. */
export type MessageRef = { $i: number } | { $s: 1 };
export type WireMessage = AgentMessage | MessageRef;

/** The parts of pi-ai's AssistantMessageEvent that cannot be rebuilt from the message itself. */
export interface WireAssistantEvent {
  type: string;
  contentIndex?: number;
  delta?: string;
  reason?: string;
}

export type WireEvent =
  /**
   * The common case of message_update, kept tiny: the streamed string of block `i` grew by `a`. Which string and
   * which provider event follow from the block's type (text -> text_delta, thinking -> thinking_delta,
   * toolCall -> toolcall_delta).
   */
  | { k: "a"; i: number; a: string }
  /** message_update: patches to the streaming message plus the provider event that caused them. */
  | { k: "u"; e: WireAssistantEvent; p: Patch[] }
  /** message_end of the streaming message: patches (usually none) that turn it into the final message. */
  | { k: "me"; p: Patch[] }
  /** Any other state event, with its messages replaced by references where the mirror has them. */
  | { k: "s"; e: Record<string, unknown> };

const STREAMED_BY_EVENT = new Map<string, StreamedBlockField>(STREAMED_BLOCK_FIELDS.map((s) => [s.event, s]));
/** For the compact append item: a block's type names its streamed field and the delta event. */
const STREAMED_BY_BLOCK = new Map<string, StreamedBlockField>(STREAMED_BLOCK_FIELDS.map((s) => [s.block, s]));

/** How far back from the end of the transcript a message is looked up by identity (covers any one turn). */
const REF_WINDOW = 256;

function isRef(value: unknown): value is MessageRef {
  return typeof value === "object" && value !== null && ("$i" in value || "$s" in value);
}

/**
 * Worker side. Call `encode` with every state event right after the reducer applied it, and `state` being the
 * reduced state. Promises: the stream of encoded events, decoded in order from the same starting snapshot, yields
 * events that reduce to the same state. Never mutates the event or the state.
 */
export class StateEventEncoder {
  /** The streaming message as the mirror holds it (a stable copy), and the live object it came from. */
  private shadow?: AgentMessage;
  private shadowSource?: AgentMessage;

  /** The streaming message exactly as mirrors hold it; snapshots must carry this one, not the live object. */
  get mirroredStreamingMessage(): AgentMessage | undefined {
    return this.shadow;
  }

  encode(event: AgentStateEvent, state: Readonly<AgentStateData>): WireEvent {
    switch (event.type) {
      case "message_update": {
        const ame = event.assistantMessageEvent;
        const e: WireAssistantEvent = { type: ame.type };
        if ("contentIndex" in ame) e.contentIndex = ame.contentIndex;
        if ("delta" in ame) e.delta = ame.delta;
        if ("reason" in ame) e.reason = ame.reason;
        const field = STREAMED_BY_EVENT.get(ame.type)?.field;
        const hot: HotField | undefined =
          field && "delta" in ame && "contentIndex" in ame ? { contentIndex: ame.contentIndex, field, delta: ame.delta } : undefined;
        const before = this.shadow ?? ({} as AgentMessage);
        const patches = diffStreamingUpdate(before, event.message, hot);
        // The shadow moves exactly as the mirror's copy will: by applying the same patches.
        this.shadow = patches.length > 0 ? applyPatches(before, patches) : before;
        this.shadowSource = event.message;
        const only = patches.length === 1 ? patches[0] : undefined;
        // The compact form only when the one change is the event's own delta: an update may also change another
        // field of the block alone (a tool name arriving after the call started, with an empty delta).
        if (hot && only && "a" in only && only.p.length === 3 && only.p[1] === hot.contentIndex && only.p[2] === hot.field) {
          const block = (this.shadow as AssistantMessage).content[hot.contentIndex];
          if (block && STREAMED_BY_BLOCK.get(block.type)?.event === ame.type) return { k: "a", i: hot.contentIndex, a: only.a };
        }
        delete e.delta; // carried by the patch; the decoder takes it from there
        return { k: "u", e, p: patches };
      }
      case "message_start": {
        // A copy, not the live object: the batch may be serialized after the provider has mutated it further.
        this.shadow = event.message.role === "assistant" ? streamingStart(event.message) : snapshotMessage(event.message);
        this.shadowSource = event.message;
        return { k: "s", e: { type: "message_start", message: this.shadow } };
      }
      case "message_end": {
        const shadow = this.shadow;
        const same = event.message === this.shadowSource;
        this.shadow = undefined;
        this.shadowSource = undefined;
        if (shadow && (same || shadow.role === event.message.role)) {
          return { k: "me", p: same && shadow.role !== "assistant" ? [] : diffMessage(shadow, event.message) };
        }
        return { k: "s", e: { type: "message_end", message: event.message } };
      }
      case "turn_end":
        return { k: "s", e: { ...event, message: this.ref(event.message, state), toolResults: event.toolResults.map((m) => this.ref(m, state)) } };
      case "agent_end":
        this.shadow = undefined;
        this.shadowSource = undefined;
        return { k: "s", e: { ...event, messages: event.messages.map((m) => this.ref(m, state)) } };
      case "run_start":
      case "run_settled":
      case "reset":
        this.shadow = undefined;
        this.shadowSource = undefined;
        return { k: "s", e: { ...event } };
      default:
        return { k: "s", e: { ...event } as Record<string, unknown> };
    }
  }

  private ref(message: AgentMessage, state: Readonly<AgentStateData>): WireMessage {
    const messages = state.messages;
    for (let i = messages.length - 1; i >= Math.max(0, messages.length - REF_WINDOW); i--) {
      if (messages[i] === message) return { $i: i };
    }
    return message;
  }
}

/**
 * Mirror side. Turns wire events back into the `AgentStateEvent`s the worker reduced. `state` is the mirror's state
 * before the event; `historyStart` is how many of the oldest messages it has not loaded (its `messages[0]` is the
 * worker's `messages[historyStart]`). Throws on an event it cannot rebuild (a reference it does not have): the
 * caller resyncs.
 */
export class StateEventDecoder {
  decode(wire: WireEvent, state: Readonly<AgentStateData>, historyStart = 0): AgentStateEvent {
    switch (wire.k) {
      case "a": {
        const base = state.streamingMessage as AssistantMessage | undefined;
        const block = base?.content[wire.i];
        const streamed = block ? STREAMED_BY_BLOCK.get(block.type) : undefined;
        if (!base || !streamed) throw new Error("append to a block the mirror does not have");
        const message = applyPatches(base, [{ p: ["content", wire.i, streamed.field], a: wire.a }]);
        const ame = rebuildAssistantEvent({ type: streamed.event, contentIndex: wire.i, delta: wire.a }, message);
        return { type: "message_update", message, assistantMessageEvent: ame } as AgentEvent;
      }
      case "u": {
        const base = (state.streamingMessage ?? {}) as AssistantMessage;
        const message = applyPatches(base, wire.p);
        const field = STREAMED_BY_EVENT.get(wire.e.type)?.field;
        const append = field ? wire.p.find((p) => "a" in p && p.p[0] === "content" && p.p[1] === wire.e.contentIndex && p.p[2] === field) : undefined;
        const e = field ? { ...wire.e, delta: append && "a" in append ? append.a : "" } : wire.e;
        const ame = rebuildAssistantEvent(e, message);
        return { type: "message_update", message, assistantMessageEvent: ame } as AgentEvent;
      }
      case "me": {
        if (!state.streamingMessage) throw new Error("message_end for a message the mirror is not streaming");
        return { type: "message_end", message: applyPatches(state.streamingMessage, wire.p) };
      }
      case "s":
        return this.resolveRefs(wire.e, state, historyStart);
    }
  }

  private resolveRefs(e: Record<string, unknown>, state: Readonly<AgentStateData>, historyStart: number): AgentStateEvent {
    const resolve = (m: unknown): AgentMessage => {
      if (!isRef(m)) return m as AgentMessage;
      const found = "$i" in m ? state.messages[m.$i - historyStart] : state.streamingMessage;
      if (!found) throw new Error("The mirror lacks a message the worker referenced");
      return found;
    };
    if (e.type === "turn_end") {
      return { ...e, message: resolve(e.message), toolResults: (e.toolResults as unknown[]).map(resolve) } as AgentStateEvent;
    }
    if (e.type === "agent_end") return { ...e, messages: (e.messages as unknown[]).map(resolve) } as AgentStateEvent;
    if (e.type === "branch" || e.type === "switch_branch" || e.type === "delete_messages") return pathEvent(e, historyStart);
    return e as unknown as AgentStateEvent;
  }
}

/**
 * A branch, switch or delete, for a mirror whose `messages[0]` is the session's message `historyStart`: carries that
 * offset. One that reaches before it (into messages the mirror has not loaded) cannot be applied: throws, so the
 * mirror resyncs.
 */
function pathEvent(e: Record<string, unknown>, historyStart: number): AgentStateEvent {
  const from = e.type === "delete_messages" ? e.start : e.at;
  if (typeof from !== "number") throw new Error(`${String(e.type)} event without its index`);
  if (historyStart === 0) return e as unknown as AgentStateEvent;
  if (from < historyStart) throw new Error("A branch before the messages this mirror has loaded");
  return { ...e, offset: historyStart } as unknown as AgentStateEvent;
}

function rebuildAssistantEvent(e: WireAssistantEvent, partial: AssistantMessage): unknown {
  const out: Record<string, unknown> = { ...e, partial };
  const block = e.contentIndex !== undefined ? (partial.content[e.contentIndex] as unknown as Record<string, unknown>) : undefined;
  if (e.type === "text_end" && block) out.content = block.text;
  if (e.type === "thinking_end" && block) out.content = block.thinking;
  if (e.type === "toolcall_end" && block) out.toolCall = block;
  if (e.type === "done") out.message = partial;
  if (e.type === "error") out.error = partial;
  return out;
}

/** Two wire events as one, when they are consecutive appends to the same streamed string; else undefined. */
export function mergeWireEvents(previous: WireEvent, next: WireEvent): WireEvent | undefined {
  if (previous.k === "a" && next.k === "a" && previous.i === next.i) return { k: "a", i: previous.i, a: previous.a + next.a };
  return undefined;
}
