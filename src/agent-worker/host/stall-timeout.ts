import { createAssistantMessageEventStream, type AssistantMessageEventStream } from "@mariozechner/pi-ai";

/**
 * Makes a provider stream fail, instead of hang, when the provider stops sending. The SDKs' own timeout covers only
 * the wait for response headers; a reply that stalls mid-stream would otherwise wait forever for Stop.
 *
 * `start` receives the signal to give the provider call. If no event arrives for `idleMs` (counted from the request
 * and after every event), the request is aborted and the reply ends as an *error* ("Request timed out: ..."), which
 * the chat offers to Retry, not as "aborted", which means the user stopped it. An abort by `callerSignal` still ends
 * the reply as aborted. Never throws; the returned stream always ends.
 */
export function withStallTimeout(
  start: (signal: AbortSignal) => AssistantMessageEventStream,
  callerSignal: AbortSignal | undefined,
  idleMs: number,
): AssistantMessageEventStream {
  const controller = new AbortController();
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) controller.abort(callerSignal.reason);
  else callerSignal?.addEventListener("abort", onCallerAbort, { once: true });

  let stalled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled = true;
      controller.abort(new Error("stalled"));
    }, idleMs);
  };

  const out = createAssistantMessageEventStream();
  void (async () => {
    arm();
    try {
      for await (const event of start(controller.signal)) {
        if (event.type === "error" && stalled && !callerSignal?.aborted) {
          const seconds = Math.round(idleMs / 100) / 10;
          const errorMessage = `Request timed out: the provider sent nothing for ${seconds} s.`;
          out.push({ type: "error", reason: "error", error: { ...event.error, stopReason: "error", errorMessage } });
          return;
        }
        out.push(event);
        if (event.type === "done" || event.type === "error") return;
        arm();
      }
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onCallerAbort);
    }
  })();
  return out;
}
