/**
 * The one reducer: the only place where an event changes the Agent's state. The worker's Agent runs it on every
 * loop event and runtime change; the renderer's mirror runs the same function on forwarded events, which is why
 * the mirror can be trusted to match the worker.
 */
import type { AssistantMessage, Model, Usage } from "@earendil-works/pi-ai";
import type { AgentEvent, AgentMessage, ThinkingLevel } from "./types";
import { branchPath, deleteFromPath, prunePath, switchPath, type BranchPoint } from "./branches";

/** Plain data: everything in AgentState except tools (tools hold functions and never leave the worker). */
export interface AgentStateData {
  systemPrompt: string;
  model: Model<any>;
  thinkingLevel: ThinkingLevel;
  messages: AgentMessage[];
  /** The other versions of the active path's messages (branches.ts); absent when there are none. */
  branches?: BranchPoint[];
  isStreaming: boolean;
  streamingMessage?: AgentMessage;
  pendingToolCalls: ReadonlySet<string>;
  errorMessage?: string;
}

/** What the caller-facing setters may change. Arrays are copied by the caller before they get here. */
export type AgentStatePatch = Partial<Pick<AgentStateData, "systemPrompt" | "model" | "thinkingLevel" | "messages" | "branches">>;

/** State changes that come from the Agent's run lifecycle and API rather than from the loop. */
export type AgentRuntimeEvent =
  /** A run begins: streaming on, the previous run's streaming message and error cleared. */
  | { type: "run_start" }
  /** Something in the run threw: the synthetic failure message joins the transcript and its error is recorded. */
  | { type: "run_failure"; message: AssistantMessage }
  /** The run and its `agent_end` listeners are done: streaming off, nothing streaming, no tool pending. */
  | { type: "run_settled" }
  /** A setter on `agent.state`. */
  | { type: "state_patch"; patch: AgentStatePatch }
  /**
   * `agent.dropLastMessages(count)` (our addition): the newest `count` messages leave the transcript. Counted from
   * the end, so a mirror holding only the newest part of a long transcript applies it as it is.
   */
  | { type: "drop_last_messages"; count: number }
  /**
   * `agent.appendMessage(message)` (our addition): a message the loop did not produce joins the transcript (a
   * compaction marker). Allowed between turns and between runs; nothing is streaming then.
   */
  | { type: "append_message"; message: AgentMessage }
  /**
   * Edit or Regenerate (branches.ts): the active messages from index `at` on are set aside as a version, and the
   * path ends before `at`; what is appended next is the new version. `offset` only on a mirror holding the newest
   * part of the path: the session-wide index of its `messages[0]` (set by its decoder, never sent).
   */
  | { type: "branch"; at: number; offset?: number }
  /** The versions at `at` switch: `version` becomes the active tail, the one active before is stored. */
  | { type: "switch_branch"; at: number; version: number; offset?: number }
  /** Delete: `count` messages from index `start` leave the active path (branches.ts `deleteFromPath`). */
  | { type: "delete_messages"; start: number; count: number; offset?: number }
  /** `agent.reset()`: empty transcript, runtime state cleared; system prompt, model and thinking level stay. */
  | { type: "reset" };

export type AgentStateEvent = AgentEvent | AgentRuntimeEvent;

/** A fresh zero usage, for assistant messages no model produced (the Agent's failure message). */
export function zeroUsage(): Usage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}

/** pi's placeholder model, used until the caller picks one. */
export const DEFAULT_MODEL: Model<any> = {
  id: "unknown",
  name: "unknown",
  api: "unknown",
  provider: "unknown",
  baseUrl: "",
  reasoning: false,
  input: [],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 0,
  maxTokens: 0,
};

/** Whether the state's model was picked by someone, rather than being pi's placeholder. */
export function isModelChosen(model: Pick<Model<any>, "id">): boolean {
  return model.id !== DEFAULT_MODEL.id;
}

/** Initial data: pi's defaults (empty prompt, the unknown model, thinking "off", no messages). Copies `messages`. */
export function createAgentStateData(initial?: AgentStatePatch): AgentStateData {
  return {
    systemPrompt: initial?.systemPrompt ?? "",
    model: initial?.model ?? DEFAULT_MODEL,
    thinkingLevel: initial?.thinkingLevel ?? "off",
    messages: initial?.messages?.slice() ?? [],
    ...(initial?.branches?.length ? { branches: initial.branches } : {}),
    isStreaming: false,
    streamingMessage: undefined,
    pendingToolCalls: new Set(),
    errorMessage: undefined,
  };
}

/**
 * Pure: never mutates `state` or the event; returns `state` itself when nothing changed; `pendingToolCalls` is a
 * new Set on every change. Events that change nothing (turn_start, tool updates...) return `state`.
 */
export function reduceAgentState(state: AgentStateData, event: AgentStateEvent): AgentStateData {
  switch (event.type) {
    case "message_start":
    case "message_update":
      return withChanges(state, { streamingMessage: event.message });
    case "message_end":
      return { ...state, streamingMessage: undefined, messages: [...state.messages, event.message] };
    case "tool_execution_start":
      if (state.pendingToolCalls.has(event.toolCallId)) return state;
      return { ...state, pendingToolCalls: new Set([...state.pendingToolCalls, event.toolCallId]) };
    case "tool_execution_end": {
      if (!state.pendingToolCalls.has(event.toolCallId)) return state;
      const pending = new Set(state.pendingToolCalls);
      pending.delete(event.toolCallId);
      return { ...state, pendingToolCalls: pending };
    }
    case "turn_end":
      // Only a failed or aborted assistant turn records an error; a later good turn does not clear it.
      if (event.message.role === "assistant" && event.message.errorMessage) {
        return withChanges(state, { errorMessage: event.message.errorMessage });
      }
      return state;
    case "agent_end":
      return withChanges(state, { streamingMessage: undefined });
    case "agent_start":
    case "turn_start":
    case "tool_execution_update":
      return state;
    case "run_start":
      return withChanges(state, { isStreaming: true, streamingMessage: undefined, errorMessage: undefined });
    case "run_failure":
      return { ...state, messages: [...state.messages, event.message], errorMessage: event.message.errorMessage };
    case "run_settled":
      return withChanges(state, { isStreaming: false, streamingMessage: undefined, pendingToolCalls: noPending(state) });
    case "state_patch": {
      // A new transcript comes without the old one's versions, unless the patch brings its own.
      const fields = definedFields(event.patch);
      if (event.patch.messages !== undefined && event.patch.branches === undefined) fields.branches = undefined;
      if (fields.branches?.length === 0) fields.branches = undefined;
      return withChanges(state, fields);
    }
    case "append_message":
      return { ...state, messages: [...state.messages, event.message] };
    case "drop_last_messages":
      if (event.count <= 0 || state.messages.length === 0) return state;
      return prunePath({ ...state, messages: state.messages.slice(0, Math.max(0, state.messages.length - event.count)) });
    case "branch":
      return branchPath(state, event.at, event.offset);
    case "switch_branch":
      return switchPath(state, event.at, event.version, event.offset);
    case "delete_messages":
      return deleteFromPath(state, event.start, event.count, event.offset);
    case "reset":
      return withChanges(state, {
        messages: [],
        branches: undefined,
        isStreaming: false,
        streamingMessage: undefined,
        pendingToolCalls: noPending(state),
        errorMessage: undefined,
      });
  }
}

/** Keeps the current Set when it is already empty, so "nothing changed" stays recognisable. */
function noPending(state: AgentStateData): ReadonlySet<string> {
  return state.pendingToolCalls.size === 0 ? state.pendingToolCalls : new Set();
}

function definedFields(patch: AgentStatePatch): Partial<AgentStateData> {
  const fields: Partial<AgentStateData> = {};
  for (const [key, value] of Object.entries(patch)) {
    if (value !== undefined) (fields as Record<string, unknown>)[key] = value;
  }
  return fields;
}

/** A copy with `changes` applied, or `state` itself when every change is already in place. */
function withChanges(state: AgentStateData, changes: Partial<AgentStateData>): AgentStateData {
  for (const key of Object.keys(changes) as (keyof AgentStateData)[]) {
    if (!Object.is(state[key], changes[key])) return { ...state, ...changes };
  }
  return state;
}
