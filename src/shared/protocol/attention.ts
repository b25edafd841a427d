/** The words of a "this chat wants you" notification, the same in the desktop app and the browser host. */
import type { AppEvent } from "./app-api";

type Attention = Extract<AppEvent, { type: "attention" }>;

const BODIES: Record<Attention["reason"], string> = {
  done: "The agent has finished.",
  failed: "The agent's reply failed.",
  waiting: "The agent is waiting for you.",
};

export function attentionText(event: Attention): { title: string; body: string } {
  return { title: event.title || "Paddock", body: BODIES[event.reason] };
}
