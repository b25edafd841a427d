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
