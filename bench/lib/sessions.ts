/**
 * The benchmarks' sessions: the test harness's broker rig (real broker, real worker processes, WebSocket clients)
 * with production settings, i.e. no integrity digests on batches (a test diagnostic that adds bytes).
 */
import type { AgentMessage } from "../../src/shared/agent/types";
import type { SessionClient } from "../../src/renderer/store/session-client";
import type { WebSocketTransport } from "../../src/shared/transport/websocket-transport";
import { startBroker, testSettings, waitForView, type BrokerRig, type BrokerRigOptions, type TestSettings } from "../../testkit/worker-harness";

export { WORKER_FILE } from "../../testkit/worker-harness";

/**
 * The loopback endpoint with a window no benchmark's chat reaches: the IPC and reliability groups stream replies of
 * 100k characters into one chat, which a 32k window would (rightly) compact; compaction has a group of its own.
 */
export function benchSettings(baseUrl: string): TestSettings {
  const settings = testSettings({ baseUrl }, { requestTimeoutMs: 120_000 });
  return { ...settings, customProviders: settings.customProviders.map((p) => ({ ...p, contextWindow: 10_000_000 })) };
}

export interface BenchBroker extends Pick<BrokerRig, "broker" | "sessionsDir" | "close"> {
  /** A connected client; `transport()` counts the characters it sent and received. */
  connect(sessionId: string): Promise<{ client: SessionClient; transport(): WebSocketTransport }>;
}

export function startBenchBroker(baseUrl: string, options: Pick<BrokerRigOptions, "keepSpare" | "workspaceOf"> = {}): BenchBroker {
  const rig = startBroker(benchSettings(baseUrl), { integrityCheck: false, keepSpare: options.keepSpare, workspaceOf: options.workspaceOf });
  return { ...rig, connect: (sessionId) => rig.connect(sessionId, `bench-${sessionId}`) };
}

/** Characters of text in the session's latest assistant message (streaming or finished). */
export function assistantTextLength(client: SessionClient): number {
  const state = client.mirror.getView().state;
  const message: AgentMessage | undefined = state.streamingMessage ?? state.messages[state.messages.length - 1];
  if (!message || message.role !== "assistant") return 0;
  let length = 0;
  for (const part of message.content) if (part.type === "text") length += part.text.length;
  return length;
}

/** Resolves once the run has ended and the last assistant message holds `chars` characters of text. */
export function waitForReply(client: SessionClient, chars: number, timeoutMs: number): Promise<void> {
  // A reply to come: messages beyond those there now (the previous round's finished reply must not count, now that
  // `prompt` resolves once its message is accepted rather than when the run ends).
  const before = client.mirror.getView().state.messages.length;
  return waitForView(
    client,
    (view) => !view.state.isStreaming && view.state.messages.length > before && view.state.messages.at(-1)?.role === "assistant" && assistantTextLength(client) >= chars,
    timeoutMs,
  );
}
