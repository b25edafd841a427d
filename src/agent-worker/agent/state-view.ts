import type { AgentStateData, AgentStatePatch } from "../../shared/agent/state";
import type { AgentState, AgentTool } from "../../shared/agent/types";

/** What the view needs from its owner: read the data, route a patch through the reducer, hold the tools. */
export interface StateViewHost {
  readonly data: AgentStateData;
  patch(patch: AgentStatePatch): void;
  tools: AgentTool<any>[];
}

/**
 * `agent.state`: a live view whose getters read the owner's current data, so one object stays valid for the
 * Agent's life. Setters never write directly: they hand a patch to the owner, which reduces it. Assigned arrays
 * are copied; the runtime fields have getters only.
 */
export function createStateView(host: StateViewHost): AgentState {
  return {
    get systemPrompt() {
      return host.data.systemPrompt;
    },
    set systemPrompt(systemPrompt) {
      host.patch({ systemPrompt });
    },
    get model() {
      return host.data.model;
    },
    set model(model) {
      host.patch({ model });
    },
    get thinkingLevel() {
      return host.data.thinkingLevel;
    },
    set thinkingLevel(thinkingLevel) {
      host.patch({ thinkingLevel });
    },
    get tools() {
      return host.tools;
    },
    set tools(tools) {
      host.tools = tools.slice();
    },
    get messages() {
      return host.data.messages;
    },
    set messages(messages) {
      host.patch({ messages: messages.slice() });
    },
    get isStreaming() {
      return host.data.isStreaming;
    },
    get streamingMessage() {
      return host.data.streamingMessage;
    },
    get pendingToolCalls() {
      return host.data.pendingToolCalls;
    },
    get errorMessage() {
      return host.data.errorMessage;
    },
  };
}
