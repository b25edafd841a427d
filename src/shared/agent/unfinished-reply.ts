/**
 * Replies that did not finish: *interrupted* ones (Paddock stopped mid-reply: the worker was killed, the app or the
 * web host crashed; the transcript kept the reply up to its last checkpoint) and *stopped* ones (the user's own
 * Stop, `stopReason: "aborted"`). Both can be retried (asked again) or continued (the model goes on from there).
 */
import type { AssistantMessage } from "@earendil-works/pi-ai";
import type { AgentMessage } from "./types";

/** The error text an interrupted reply carries; it begins "Interrupted" so any error display reads right. */
export const INTERRUPTED_REPLY_ERROR = "Interrupted: Paddock stopped before this reply finished.";

/**
 * The error text of a reply the provider *deferred*: pi-ai 1.6.0's stop reason for a provider that took the request
 * and will answer later, against a handle. Paddock never asks for that (it passes no `deferred` option) and does not
 * fetch such answers, so a deferred reply is a failed one: the chat says why and offers Retry.
 */
export const DEFERRED_REPLY_ERROR = "Deferred: the provider said it would answer later, which Paddock does not wait for. Retry to ask again.";

/** The user message Continue sends: the model is told plainly what is asked of it, and the chat shows it. */
export const CONTINUE_PROMPT = "Continue from where you stopped.";

/**
 * A reply cut off at its last checkpoint, as the transcript loader hands it back: an error reply (so the usual
 * Retry applies, and pi-ai leaves it out of the context) that says it was interrupted.
 */
export function interruptedReply(partial: AssistantMessage): AssistantMessage {
  return { ...partial, stopReason: "error", errorMessage: INTERRUPTED_REPLY_ERROR };
}

/**
 * A reply whose stop reason says it is not finished, as a finished one the chat can show and act on (the same object
 * for every other message). pi-ai 1.6.0 added two such stop reasons: "pending", which a reply has while it streams
 * (a final reply that still says so was cut off: an interrupted reply, which Retry and Continue pick up), and
 * "deferred" (an error reply saying so, see DEFERRED_REPLY_ERROR). The worker applies it to each reply as it ends
 * (stall-timeout.ts) and the transcript loader to every stored one, so the reducer, the page and the model's context
 * only ever see pi-agent-core 0.73.1's five stop reasons.
 */
export function settledReply<T extends AgentMessage>(message: T): T {
  if (message.role !== "assistant") return message;
  const reply = message as AssistantMessage;
  if (reply.stopReason === "pending") return interruptedReply(reply) as T;
  if (reply.stopReason === "deferred") return { ...reply, stopReason: "error", errorMessage: DEFERRED_REPLY_ERROR } as T;
  return message;
}

/** Whether `message` is an interrupted reply (a plain boolean: a type guard would wrongly narrow the `false` case). */
export function isInterruptedReply(message: AgentMessage | undefined): boolean {
  return message?.role === "assistant" && message.stopReason === "error" && message.errorMessage === INTERRUPTED_REPLY_ERROR;
}

/** A reply Continue can pick up: interrupted by Paddock or stopped by the user (Continue also needs some text). */
export function isUnfinishedReply(message: AgentMessage | undefined): boolean {
  if (message?.role !== "assistant") return false;
  return message.stopReason === "aborted" || isInterruptedReply(message);
}

/** Whether Continue has something said to go on from: a reply cut off while thinking or calling a tool has not. */
export function hasTextToContinue(message: AgentMessage | undefined): boolean {
  return message?.role === "assistant" && unfinishedReplyAsSaid(message) !== undefined;
}

/**
 * What the model is shown of an unfinished reply: its text as said, as an ordinary finished reply. pi-ai leaves
 * error and aborted replies out of the context, and half-streamed tool calls or thinking cannot be replayed; the
 * text alone is what the user saw and what the model should continue. Undefined when the reply has no text.
 */
export function unfinishedReplyAsSaid(message: AssistantMessage): AssistantMessage | undefined {
  // Text only; a text block's signature pairs it with the reasoning left out, so it goes too.
  const content = message.content.flatMap((block) => (block.type === "text" && block.text.length > 0 ? [{ type: "text" as const, text: block.text }] : []));
  if (content.length === 0) return undefined;
  const copy: AssistantMessage = { ...message, content, stopReason: "stop" };
  delete copy.errorMessage;
  return copy;
}
