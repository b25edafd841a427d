/**
 * pi coding-agent's output limits, so prompts written for pi see the same amounts of text. Whichever of the line and
 * byte limits is hit first wins.
 */
export const MAX_LINES = 2000;
export const MAX_BYTES = 50 * 1024;
/** Characters kept of one grep match line. */
export const GREP_MAX_LINE_CHARS = 500;

/** pi's human-readable size: "512B", "50.0KB", "1.2MB". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}
