/** Transcripts written straight to a sessions folder, for tests and benchmarks of long chats. */

const USAGE = { input: 10, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 20, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

/** A transcript of `count` messages, alternating user and assistant, some with code blocks (the JSONL records a worker loads). */
export function longTranscript(count: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const text = i % 2 === 0 ? `Question #${i / 2 + 1}: how do I do step ${i}?` : i % 10 === 9 ? `Answer ${i}: use this:\n\n\`\`\`js\nconsole.log(${i});\n\`\`\`\n` : `Answer ${i}: **short** reply with \`code\`.`;
    lines.push(transcriptLine(i, text));
  }
  return `${lines.join("\n")}\n`;
}

/** Message number `i` of a transcript (even: the user's, odd: the assistant's) saying `text`, as its JSONL record. */
export function transcriptLine(i: number, text: string): string {
  const message =
    i % 2 === 0
      ? { role: "user", content: text, timestamp: i }
      : { role: "assistant", content: [{ type: "text", text }], api: "openai-completions", provider: "custom:loopback", model: "test-model", usage: USAGE, stopReason: "stop", timestamp: i };
  return JSON.stringify({ t: "message", message });
}

/**
 * A command the assistant ran and its output, as the two JSONL records a worker journals: the assistant's message
 * (number `i`) calling `bash` with `command` (call id `call-<i>`), then the tool's result (number `i + 1`) holding
 * `output` (an error when `isError`).
 */
export function toolCallLines(i: number, command: string, output: string, isError = false): string[] {
  const id = `call-${i}`;
  const call = {
    role: "assistant", content: [{ type: "toolCall", id, name: "bash", arguments: { command } }],
    api: "openai-completions", provider: "custom:loopback", model: "test-model", usage: USAGE, stopReason: "toolUse", timestamp: i,
  };
  const result = { role: "toolResult", toolCallId: id, toolName: "bash", content: [{ type: "text", text: output }], isError, timestamp: i + 1 };
  return [JSON.stringify({ t: "message", message: call }), JSON.stringify({ t: "message", message: result })];
}
