/**
 * The last few KB a process wrote to stderr: what Settings shows when an MCP server fails, and what a chat shows
 * when its agent worker keeps crashing. Bounded whatever the server writes,
 * and cut at a line start where it can be, so the tail does not open mid-line.
 */
const STDERR_TAIL_CHARS = 4096;

export class StderrTail {
  private text = "";

  constructor(private readonly limit = STDERR_TAIL_CHARS) {}

  append(chunk: string): void {
    const joined = this.text + chunk;
    if (joined.length <= this.limit) {
      this.text = joined;
      return;
    }
    const cut = joined.slice(joined.length - this.limit);
    const newline = cut.indexOf("\n");
    // Start at a whole line unless that would throw most of the tail away.
    this.text = newline >= 0 && newline < this.limit / 4 ? cut.slice(newline + 1) : cut;
  }

  /** A new process starts with an empty tail; the previous one's is kept until it writes. */
  toString(): string {
    return this.text;
  }
}
