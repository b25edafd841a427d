import type { AssistantMessage, AssistantMessageEvent, AssistantMessageEventStream } from "@earendil-works/pi-ai";
import { timeoutText, type TimeoutKind } from "../../../shared/error-text";
import { settledReply } from "../../../shared/agent/unfinished-reply";

/**
 * Makes a provider stream fail, instead of hang, when the provider stops sending. The SDKs' own timeout covers only
 * the wait for response headers; a reply that stalls mid-stream would otherwise wait forever for Stop.
 *
 * `start` receives the signal to give the provider call. If the reader waits `idleMs` for an event (counted from the
 * request and from every read), the request is aborted and the reply ends as an *error* ("Request timed out: ..."),
 * which the chat offers to Retry, not as "aborted", which means the user stopped it. An abort by `callerSignal` still
 * ends the reply as aborted. The SDKs' own timeout (no response headers within the same time) is worded the same
 * way, with its seconds. `explain`, when given, may add to the text of any other failure (see provider-call.ts).
 * Never throws; the returned stream always ends.
 *
 * The returned stream reads the provider's stream directly, with no queue of its own, and keeps one timer that
 * re-arms itself only when it fires: per event it costs a timestamp, not a re-push and a clearTimeout/setTimeout
 * (the loop uses a stream only by iterating it and asking its `result()`; see context-compactor's handOffStream). A
 * caller that asks `result()` before iterating gets the events read for it, and must not iterate as well.
 */
export function withStallTimeout(
  start: (signal: AbortSignal) => AssistantMessageEventStream,
  callerSignal: AbortSignal | undefined,
  idleMs: number,
  explain?: (message: AssistantMessage) => AssistantMessage,
): AssistantMessageEventStream {
  const controller = new AbortController();
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) controller.abort(callerSignal.reason);
  else callerSignal?.addEventListener("abort", onCallerAbort, { once: true });

  /** Set when the wait ran out: before the provider's first event ("no-response") or after it ("stalled"). */
  let stalled: TimeoutKind | undefined;
  let answered = false;
  /** When the reader began waiting for the next event; undefined while it holds an event (its own time is not idle). */
  let waitingSince: number | undefined = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = () => {
    const waited = waitingSince === undefined ? 0 : Date.now() - waitingSince;
    if (waited >= idleMs) {
      stalled = answered ? "stalled" : "no-response";
      controller.abort(new Error("stalled"));
    } else timer = setTimeout(check, idleMs - waited);
  };
  timer = setTimeout(check, idleMs);
  const finish = () => {
    clearTimeout(timer);
    callerSignal?.removeEventListener("abort", onCallerAbort);
  };

  const timedOut = (ended: AssistantMessage): AssistantMessage => {
    // pi-ai 1.6.0's "pending" and "deferred" end a reply that did not finish: see settledReply.
    const message = settledReply(ended);
    if (message !== ended) return message;
    if (callerSignal?.aborted || (message.stopReason !== "error" && message.stopReason !== "aborted")) return message;
    const seconds = idleMs / 1000;
    if (stalled) return { ...message, stopReason: "error", errorMessage: timeoutText(stalled, seconds) };
    // The SDK's "Request timed out." says neither how long nor what: the same time ran out, before any response.
    if (message.stopReason === "error" && /^Request timed out\.?$/.test(message.errorMessage?.trim() ?? "")) {
      return { ...message, errorMessage: timeoutText("no-response", seconds) };
    }
    return message.stopReason === "error" && explain ? explain(message) : message;
  };

  const inner = start(controller.signal);
  const result = inner.result().then(timedOut);
  result.then(finish, finish);
  const source = inner[Symbol.asyncIterator]();
  let ended = false;
  const events: AsyncIterator<AssistantMessageEvent> = {
    next: async () => {
      if (ended) return { done: true, value: undefined };
      waitingSince ??= Date.now();
      const next = await source.next();
      waitingSince = undefined;
      answered ||= !next.done && next.value.type !== "error";
      if (next.done) return next;
      const event = next.value;
      if (event.type === "done" || event.type === "error") ended = true;
      if (event.type === "done" && event.reason === "deferred") {
        return { done: false, value: { type: "error", reason: "error", error: timedOut(event.message) } };
      }
      if (event.type !== "error") return next;
      const error = timedOut(event.error);
      return { done: false, value: error === event.error ? event : { type: "error", reason: "error", error } };
    },
  };
  // Whoever asks only for the result (the summary request) still needs the events read, or every wait would count.
  let read = false;
  const iterate = () => {
    read = true;
    return events;
  };
  const drain = () => {
    if (read) return result;
    read = true;
    void (async () => {
      while (!(await events.next()).done);
    })();
    return result;
  };
  const stream = { [Symbol.asyncIterator]: iterate, result: drain };
  return stream as unknown as AssistantMessageEventStream;
}
