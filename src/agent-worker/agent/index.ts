/**
 * The Agent runtime, with the public names of `@mariozechner/pi-agent-core` 0.73 (pi's streamProxy excepted):
 * code written against pi moves here by changing its import.
 */
export { Agent } from "./agent";
export type { AgentOptions, QueueChange } from "./agent";
export { agentLoop, agentLoopContinue, runAgentLoop, runAgentLoopContinue } from "./agent-loop";
export type { AgentEventSink } from "./agent-loop";
export type { QueueMode } from "./pending-queue";
export * from "../../shared/agent/types";
export * from "../../shared/agent/state";
