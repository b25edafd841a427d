import type { AgentMessage } from "../agent/types";

/**
 * A queued message whose run ended without taking it: the user pressed Stop, or the run failed. It waits, visible in
 * the chat's queue strip, until the user sends it ("Send now") or discards it; it never goes to the agent by itself
 * with a later prompt. `queue` is where it was queued, and where "Send now" puts it back while a run is active.
 * The worker's policy: agent-worker/host/session/held-queue.ts.
 */
export interface HeldMessage {
  queue: "steering" | "followUp";
  message: AgentMessage;
}

/** Whether `value` has a HeldMessage's shape (for data read back from disk). */
export function isHeldMessage(value: unknown): value is HeldMessage {
  if (typeof value !== "object" || value === null) return false;
  const { queue, message } = value as { queue?: unknown; message?: unknown };
  return (queue === "steering" || queue === "followUp") && typeof message === "object" && message !== null && typeof (message as { role?: unknown }).role === "string";
}
