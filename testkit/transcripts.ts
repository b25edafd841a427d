/** Transcripts written straight to a sessions folder, for tests and benchmarks of long chats. */

/** A transcript of `count` messages, alternating user and assistant, some with code blocks (the JSONL records a worker loads). */
export function longTranscript(count: number): string {
  const usage = { input: 10, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 20, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const message =
      i % 2 === 0
        ? { role: "user", content: `Question #${i / 2 + 1}: how do I do step ${i}?`, timestamp: i }
        : {
            role: "assistant",
            content: [{ type: "text", text: i % 10 === 9 ? `Answer ${i}: use this:\n\n\`\`\`js\nconsole.log(${i});\n\`\`\`\n` : `Answer ${i}: **short** reply with \`code\`.` }],
            api: "openai-completions", provider: "custom:loopback", model: "test-model", usage, stopReason: "stop", timestamp: i,
          };
    lines.push(JSON.stringify({ t: "message", message }));
  }
  return `${lines.join("\n")}\n`;
}
