/**
 * A chat whose agent worker keeps crashing right after it starts: main stops starting it (session-broker.ts,
 * restart-backoff.ts) and refuses the chat's attaches with this text until the user asks to retry. The page knows
 * the refusal by its opening words, whichever way the error came (IPC wraps it, HTTP carries its message).
 */
export const WORKER_KEEPS_CRASHING = "The agent's process keeps crashing right after it starts";

/** At most this many of the worker's last stderr lines are shown. */
const SHOWN_LINES = 12;

/** The refusal's text: how often, the last exit, the worker's last stderr lines (if it wrote any). */
export function workerCrashLoopText(crashes: number, lastExit: string, stderrTail: string): string {
  const lines = stderrTail.replace(/\r\n?/g, "\n").trimEnd().split("\n").filter((line) => line.trim() !== "").slice(-SHOWN_LINES);
  const output = lines.length > 0 ? ` Its last output:\n${lines.join("\n")}` : " It wrote nothing to stderr.";
  return `${WORKER_KEEPS_CRASHING} (${crashes} times in a row; the last time ${lastExit}), so Paddock stopped starting it.${output}`;
}

/** Whether `message` (an error's, perhaps wrapped) is that refusal; the text from its opening words on, or undefined. */
export function workerCrashLoopMessage(message: string): string | undefined {
  const at = message.indexOf(WORKER_KEEPS_CRASHING);
  return at >= 0 ? message.slice(at) : undefined;
}
