/**
 * A session's mirrors (pages, and a subagent's parent page): each connects over a transport of its own and calls the
 * session's API through it (every inbound frame checked by the frame guard first); every state change the Agent
 * makes is encoded at O(delta) and sent to all of them in numbered batches (event-forwarder.ts). A mirror that
 * connects mid-run asks for a snapshot (its `seq` says which batches it already holds) and applies the batches after.
 */
import * as Comlink from "comlink";
import type { Agent } from "../../agent/agent";
import type { AgentMessage } from "../../../shared/agent/types";
import type { AgentStateData, AgentStateEvent } from "../../../shared/agent/state";
import { toEventFrame, type SessionApi, type SessionSnapshot, type SessionStreamItem, type WireAgentState } from "../../../shared/protocol/session-protocol";
import { StateEventEncoder } from "../../../shared/protocol/wire-events";
import { stateDigest } from "../../../shared/protocol/state-digest";
import { rpcEndpoint } from "../../../shared/transport/comlink-endpoint";
import type { Transport } from "../../../shared/transport/transport";
import { sessionCallFilter } from "../transport/frame-guard";
import { EventForwarder } from "./event-forwarder";

export interface SessionMirrorsOptions {
  sessionId: string;
  /** Created after the mirrors; asked for at the first use. */
  agent(): Agent;
  /** Sends a digest of the state after each batch (integrity checks). */
  integrityCheck?: boolean;
  /** How many mirrors are connected now (approvals wait for an answer only while one is). */
  viewers(count: number): void;
}

/** What a snapshot carries beside the Agent's state and queues: the session's own (held messages, approvals...). */
export type SnapshotDetails = Omit<SessionSnapshot, "sessionId" | "seq" | "historyStart" | "state" | "steering" | "followUp">;

function toWireState(data: Readonly<AgentStateData>, streamingMessage: AgentMessage | undefined, historyStart: number): WireAgentState {
  return { ...data, streamingMessage, messages: data.messages.slice(historyStart), pendingToolCalls: [...data.pendingToolCalls].sort() };
}

export class SessionMirrors {
  private readonly encoder = new StateEventEncoder();
  private readonly forwarder: EventForwarder;
  private readonly sinks = new Set<Transport>();

  constructor(private readonly options: SessionMirrorsOptions) {
    this.forwarder = new EventForwarder({
      send: (batch) => {
        const frame = toEventFrame(batch);
        for (const sink of this.sinks) sink.send(frame);
      },
      digest: options.integrityCheck ? () => this.digest() : undefined,
    });
  }

  /** The streaming reply as the mirrors hold it (stable, never mutated: see wire-events.ts). */
  get streamingMessage(): AgentMessage | undefined {
    return this.encoder.mirroredStreamingMessage;
  }

  /** How many mirrors are connected. */
  get size(): number {
    return this.sinks.size;
  }

  /** One of the Agent's state changes, encoded for the mirrors. */
  stateEvent(event: AgentStateEvent, state: Readonly<AgentStateData>): void {
    this.forwarder.push(this.encoder.encode(event, state));
  }

  /** Anything else the mirrors are told (queues, approvals, notices, the workspace...). */
  push(item: SessionStreamItem): void {
    this.forwarder.push(item);
  }

  /** Sends what is batched now. */
  flush(): void {
    this.forwarder.flush();
  }

  /** Serves one mirror on `transport` until it closes. */
  connect(transport: Transport, api: SessionApi): void {
    transport.onMessage((frame) => {
      const ch = typeof frame === "object" && frame !== null ? (frame as { ch?: unknown }).ch : undefined;
      if (ch !== "rpc") transport.send({ ch: "err", message: `Unknown frame: expected {ch:"rpc"}, got ${ch === undefined ? typeof frame : String(ch).slice(0, 40)}` });
    });
    const endpoint = rpcEndpoint(transport, { filter: sessionCallFilter(transport) });
    Comlink.expose(api, endpoint);
    this.sinks.add(transport);
    this.options.viewers(this.sinks.size);
    transport.onClose(() => {
      this.sinks.delete(transport);
      this.options.viewers(this.sinks.size);
    });
  }

  /** The state as of the last batch sent (with the newest `tailMessages` only, when given). */
  snapshot(tailMessages: number | undefined, details: () => SnapshotDetails): SessionSnapshot {
    this.forwarder.flush();
    const agent = this.options.agent();
    const queues = agent.queuedMessages();
    const historyStart = tailMessages === undefined ? 0 : Math.max(0, agent.data.messages.length - tailMessages);
    return {
      sessionId: this.options.sessionId,
      seq: this.forwarder.lastSeq,
      ...(historyStart > 0 ? { historyStart } : {}),
      state: toWireState(agent.data, this.encoder.mirroredStreamingMessage, historyStart),
      steering: queues.steering,
      followUp: queues.followUp,
      ...details(),
    };
  }

  private digest(): string {
    const agent = this.options.agent();
    const queues = agent.queuedMessages();
    const state = { ...agent.data, streamingMessage: this.encoder.mirroredStreamingMessage };
    return stateDigest(state, queues.steering, queues.followUp);
  }

  /** Sends what is batched; nothing is sent after. */
  stop(): void {
    this.forwarder.flush();
    this.forwarder.dispose();
  }

  /** Closes every connection (once the session is closed). */
  disconnect(): void {
    for (const sink of this.sinks) sink.close();
    this.sinks.clear();
  }
}
