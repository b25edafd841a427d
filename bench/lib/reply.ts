/**
 * The streamed replies the benchmarks use: ASCII only, so a character on the wire is a byte (the transports count
 * characters).
 */

const PROSE =
  "The worker forwards only the delta of each update, merges consecutive deltas and sends about one batch per " +
  "frame, so the cost of a reply grows with its length, not with the square of it. ";

const CODE = [
  "```ts",
  "export function debounce<T extends unknown[]>(fn: (...args: T) => void, ms: number) {",
  "  let timer: ReturnType<typeof setTimeout> | undefined;",
  "  return (...args: T) => {",
  "    clearTimeout(timer);",
  "    timer = setTimeout(() => fn(...args), ms);",
  "  };",
  "}",
  "```",
].join("\n");

/** A markdown reply of exactly `chars` characters: headings, prose with inline markup, lists and code blocks. */
export function markdownReply(chars: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let section = 1; length < chars; section++) {
    const block =
      `## Section ${section}\n\n${PROSE}Use \`debounce\` for **input** handlers and *resize* events.\n\n` +
      `- item one of ${section}\n- item two with \`code\`\n- item three\n\n${CODE}\n\n${PROSE}\n\n`;
    parts.push(block);
    length += block.length;
  }
  return parts.join("").slice(0, chars);
}

/** Plain prose of exactly `chars` characters. */
export function plainReply(chars: number): string {
  return PROSE.repeat(Math.ceil(chars / PROSE.length)).slice(0, chars);
}
