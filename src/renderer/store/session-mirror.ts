/**
 * The renderer's copy of one session's state, rebuilt from the worker's event batches with the same reducer the
 * worker's Agent uses. Readonly to callers: `getView()` returns a frozen-by-contract object that changes identity
 * exactly when something changed, so React can subscribe with `useSyncExternalStore`.
 *
 * Contract: batches must be applied in sequence. A batch that does not follow the last one (a gap) or that fails to
 * decode or verify is refused with "resync": the caller then loads a fresh snapshot. The mirror never throws on bad
 * batches.
 *
 * A snapshot may leave out the oldest messages (`historyStart`); `prependHistory` adds them back, newest page
 * first. Until the history is complete the mirror holds a suffix of the worker's transcript, so digests (which
 * cover the whole state) are not checked; they are again from the first batch after it is complete.
 */
import { reduceAgentState, type AgentStateData, type AgentStateEvent } from "../../shared/agent/state";
import type { AgentMessage } from "../../shared/agent/types";
import type { EventBatch, SessionSnapshot, SessionStreamItem } from "../../shared/protocol/session-protocol";
import { stateDigest } from "../../shared/protocol/state-digest";
import { StateEventDecoder } from "../../shared/protocol/wire-events";
import { NO_TOOL_RUNS, reduceToolRuns } from "../../shared/agent/tool-runs";
import type { ConnectionStatus, SessionNotice, SessionView } from "./session-view";

export type BatchOutcome = "applied" | "stale" | "resync";

export interface MirrorStats {
  batches: number;
  events: number;
  resyncs: number;
  digestChecks: number;
  digestMismatches: number;
  /** Digests not checked because older history was still loading. */
  digestSkips: number;
}

export class SessionMirror {
  private view: SessionView;
  private seq = -1;
  private decoder = new StateEventDecoder();
  private readonly listeners = new Set<() => void>();
  private nextNoticeId = 1;
  readonly stats: MirrorStats = { batches: 0, events: 0, resyncs: 0, digestChecks: 0, digestMismatches: 0, digestSkips: 0 };

  constructor(sessionId: string, initialState: AgentStateData) {
    this.view = {
      sessionId,
      state: initialState,
      historyStart: 0,
      steering: [],
      followUp: [],
      held: [],
      toolRuns: NO_TOOL_RUNS,
      approvals: [],
      connection: "connecting",
      notices: [],
    };
  }

  getView = (): SessionView => this.view;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Whether a snapshot has been loaded (batches before that are buffered by the client). */
  get synced(): boolean {
    return this.seq >= 0;
  }


  /**
   * Takes a snapshot as the whole state. A model problem it carries (the chat's model could not be resolved when it
   * opened) shows as a notice, once: a later snapshot (a resync) does not repeat it.
   */
  loadSnapshot(snapshot: SessionSnapshot): void {
    const { pendingToolCalls, ...rest } = snapshot.state;
    this.seq = snapshot.seq;
    this.decoder = new StateEventDecoder();
    const problem = snapshot.modelProblem;
    const notices =
      problem && !this.view.notices.some((n) => n.text === problem)
        ? [...this.view.notices, { id: this.nextNoticeId++, kind: "error" as const, text: problem, ...(snapshot.unresolvedModel ? { model: snapshot.unresolvedModel } : {}) }]
        : this.view.notices;
    this.commit({
      ...this.view,
      notices,
      state: { ...rest, pendingToolCalls: new Set(pendingToolCalls) },
      historyStart: snapshot.historyStart ?? 0,
      steering: snapshot.steering,
      followUp: snapshot.followUp,
      held: snapshot.held ?? [],
      toolRuns: snapshot.toolRuns,
      approvals: snapshot.approvals,
      workspace: snapshot.workspace,
      chatOptions: snapshot.chatOptions,
      retry: snapshot.retry,
      budget: snapshot.budget,
    });
  }

  /** Applies one batch; see the class contract for "stale" and "resync". */
  applyBatch(batch: EventBatch): BatchOutcome {
    if (!this.synced) return "resync";
    if (batch.seq <= this.seq) return "stale";
    if (batch.seq !== this.seq + 1) return this.refuse();
    let view = this.view;
    try {
      for (const item of batch.items) view = this.applyItem(view, item);
    } catch {
      return this.refuse();
    }
    this.seq = batch.seq;
    this.stats.batches += 1;
    this.stats.events += batch.items.length;
    if (batch.digest !== undefined && view.historyStart > 0) this.stats.digestSkips += 1;
    else if (batch.digest !== undefined) {
      this.stats.digestChecks += 1;
      if (stateDigest(view.state, view.steering, view.followUp) !== batch.digest) {
        this.stats.digestMismatches += 1;
        this.commit(view);
        return this.refuse();
      }
    }
    this.commit(view);
    return "applied";
  }

  /**
   * Adds older messages in front of the loaded ones: `messages` must be the session's messages that end at index
   * `end`, and `end` must be where the loaded ones start. Returns false (and changes nothing) otherwise, e.g. when a
   * reset or a new snapshot came in while the page was on its way.
   */
  prependHistory(end: number, messages: readonly AgentMessage[]): boolean {
    const view = this.view;
    if (!this.synced || end !== view.historyStart || messages.length === 0 || messages.length > end) return false;
    this.commit({
      ...view,
      historyStart: end - messages.length,
      state: { ...view.state, messages: [...messages, ...view.state.messages] },
    });
    return true;
  }

  setConnection(connection: ConnectionStatus, failure?: string): void {
    if (this.view.connection === connection && this.view.failure === failure) return;
    const { failure: _previous, ...rest } = this.view;
    this.commit({ ...rest, connection, ...(failure !== undefined ? { failure } : {}) });
  }

  addNotice(kind: SessionNotice["kind"], text: string): void {
    this.commit({ ...this.view, notices: [...this.view.notices, { id: this.nextNoticeId++, kind, text }] });
  }

  dismissNotice(id: number): void {
    this.commit({ ...this.view, notices: this.view.notices.filter((n) => n.id !== id) });
  }

  private refuse(): BatchOutcome {
    this.stats.resyncs += 1;
    this.seq = -1;
    return "resync";
  }

  private applyItem(view: SessionView, item: SessionStreamItem): SessionView {
    switch (item.k) {
      case "queues":
        return { ...view, steering: item.steering, followUp: item.followUp, held: item.held ?? [] };
      case "notice":
        return { ...view, notices: [...view.notices, { id: this.nextNoticeId++, kind: item.kind, text: item.text, ...(item.model ? { model: item.model } : {}) }] };
      case "approvals":
        return { ...view, approvals: item.pending };
      case "workspace":
        return { ...view, workspace: item.workspace };
      case "options":
        return { ...view, chatOptions: item.options };
      case "retry":
        return { ...view, retry: item.wait };
      case "budget":
        return { ...view, budget: item.meter };
      default: {
        const event = this.decoder.decode(item, view.state, view.historyStart);
        const state = reduceAgentState(view.state as AgentStateData, event);
        const toolRuns = reduceToolRuns(view.toolRuns, event);
        const historyStart = replacesTranscript(event) ? 0 : view.historyStart;
        if (state === view.state && toolRuns === view.toolRuns && historyStart === view.historyStart) return view;
        return { ...view, state, toolRuns, historyStart };
      }
    }
  }

  private commit(view: SessionView): void {
    if (view === this.view) return;
    this.view = view;
    for (const listener of [...this.listeners]) listener();
  }
}

/** Events after which the mirror holds the whole transcript, whatever it lacked before. */
function replacesTranscript(event: AgentStateEvent): boolean {
  return event.type === "reset" || (event.type === "state_patch" && event.patch.messages !== undefined);
}
