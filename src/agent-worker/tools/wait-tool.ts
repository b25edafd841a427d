import { Type } from "typebox";
import type { AgentTool } from "../../shared/agent/types";

const MAX_SECONDS = 300;

const parameters = Type.Object({
  seconds: Type.Number({ minimum: 0, maximum: MAX_SECONDS, description: "How long to wait, in seconds (at most 300)." }),
  reason: Type.Optional(Type.String({ description: "What the wait is for, shown to the user." })),
});

/**
 * Lets an agent pause (e.g. before polling something again) without spinning. Reports progress every second and
 * stops at once when the run is aborted.
 */
export const waitTool: AgentTool<typeof parameters, { waitedMs: number }> = {
  name: "wait",
  label: "Wait",
  description: "Wait for a number of seconds before continuing, e.g. before checking on something again.",
  parameters,
  async execute(_id, params, signal, onUpdate) {
    const totalMs = Math.round(params.seconds * 1000);
    const started = Date.now();
    await new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new Error("Wait aborted"));
      const tick = setInterval(() => {
        const waitedMs = Date.now() - started;
        onUpdate?.({ content: [{ type: "text", text: `Waited ${Math.floor(waitedMs / 1000)} s of ${params.seconds} s` }], details: { waitedMs } });
      }, 1000);
      const done = setTimeout(finish, totalMs);
      function finish() {
        clearInterval(tick);
        clearTimeout(done);
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }
      function onAbort() {
        clearInterval(tick);
        clearTimeout(done);
        reject(new Error("Wait aborted"));
      }
      signal?.addEventListener("abort", onAbort, { once: true });
    });
    const waitedMs = Date.now() - started;
    return { content: [{ type: "text", text: `Waited ${(waitedMs / 1000).toFixed(1)} s.` }], details: { waitedMs } };
  },
};
