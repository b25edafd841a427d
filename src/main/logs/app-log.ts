/**
 * Paddock's log file, `<data>/logs/paddock.log`: a packaged app's stdout goes nowhere, so main collects its own log
 * lines and every worker's and the MCP host's stdout and stderr here, each line led by the time and where it came
 * from (`worker 4242 chat <id>`, `mcp 4243`, `main`). Electron-free: both hosts use it.
 *
 * - Rotated by size: when the next write would take the file past `maxBytes`, `paddock.log` becomes
 *   `paddock.log.1` (`.1` becomes `.2`, …; the oldest beyond `files` is dropped). So the folder never holds more than
 *   `files` × `maxBytes`.
 * - One writer, in order: lines from any number of sources are queued and appended in batches by one loop, so lines
 *   never mix, whatever the sources do at once. A source's output is cut into lines where it has newlines; a partial
 *   line waits for its end (at most `maxLineBytes`).
 * - A line longer than `maxLineBytes` is cut, saying how much was left out; a file is never past its limit for it.
 * - Secrets never reach the file: every line goes through the redactor (log-redaction.ts).
 * - Never throws and never stops the app: when the folder cannot be made or the file written (read-only, full,
 *   a file where the folder should be), `onProblem` is told once, in words, and the log stays off from then on; the
 *   output still reaches the terminal where there is one.
 */
import { mkdir, open, rename, rm, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { format } from "node:util";
import { errorText } from "../../shared/error-text";
import { logRedactor, type Redactor } from "./log-redaction";

export const LOG_FILE_NAME = "paddock.log";
export const DEFAULT_LOG_MAX_BYTES = 5 * 1024 * 1024;
export const DEFAULT_LOG_FILES = 3;
export const DEFAULT_LOG_MAX_LINE_BYTES = 16 * 1024;
/** Room kept in a line for its time, source and the note that it was cut. */
const PREFIX_ROOM = 160;
/** Lines waiting while the disk is slow: past this, new lines are dropped (and counted) rather than held in memory. */
const MAX_PENDING_BYTES = 4 * 1024 * 1024;

export interface AppLogOptions {
  /** The folder (`<data>/logs`), made when the first line is written. */
  dir: string;
  maxBytes?: number;
  /** How many files the log keeps: `paddock.log` and `paddock.log.1` … `.<files - 1>`. */
  files?: number;
  maxLineBytes?: number;
  redact?: Redactor;
  now?(): Date;
}

/** A child's stdout or stderr as the log reads it (a Node Readable, Electron's utility process streams). */
export interface LogSource {
  on(event: "data", listener: (chunk: Buffer | string) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}

export class AppLog {
  readonly dir: string;
  readonly file: string;
  readonly #maxBytes: number;
  readonly #files: number;
  readonly #maxLineBytes: number;
  #redact: Redactor;
  readonly #now: () => Date;
  #pending: string[] = [];
  #pendingBytes = 0;
  #dropped = 0;
  #draining: Promise<void> | undefined;
  #handle: FileHandle | undefined;
  #size = 0;
  #failure: string | undefined;
  readonly #problemListeners = new Set<(text: string) => void>();
  #closed = false;

  constructor(options: AppLogOptions) {
    this.dir = options.dir;
    this.file = join(options.dir, LOG_FILE_NAME);
    this.#maxBytes = Math.max(1024, options.maxBytes ?? DEFAULT_LOG_MAX_BYTES);
    this.#files = Math.max(1, Math.floor(options.files ?? DEFAULT_LOG_FILES));
    // A line always fits an empty file, with room for its prefix.
    this.#maxLineBytes = Math.max(256, Math.min(options.maxLineBytes ?? DEFAULT_LOG_MAX_LINE_BYTES, Math.floor(this.#maxBytes / 2)));
    this.#redact = options.redact ?? logRedactor();
    this.#now = options.now ?? (() => new Date());
  }

  /** Replaces the redactor (main learns the saved keys after the log is opened). */
  redactWith(redact: Redactor): void {
    this.#redact = redact;
  }

  /**
   * Tells `listener` why the log cannot be written: at once when that is known already, else when it happens (once).
   * Returns the unsubscribe.
   */
  onProblem(listener: (text: string) => void): () => void {
    if (this.#failure !== undefined) listener(this.#failure);
    else this.#problemListeners.add(listener);
    return () => this.#problemListeners.delete(listener);
  }

  /** The problem that turned the log off, if one did. */
  get problem(): string | undefined {
    return this.#failure;
  }

  /** Appends `text` (each of its lines) from `source`. Never throws. */
  write(source: string, text: string): void {
    if (this.#failure !== undefined || this.#closed) return;
    for (const line of text.split(/\r?\n/)) this.#enqueue(source, line);
  }

  /**
   * Logs everything `stream` emits, line by line, as coming from `source()` (asked at each line: a worker is named
   * after its chat once it has one). A last line without a newline is written when the stream ends.
   */
  capture(stream: LogSource | null | undefined, source: () => string): void {
    if (!stream) return;
    let partial = "";
    const flushPartial = () => {
      if (partial.length > 0) this.#enqueue(source(), partial.replace(/\r$/, ""));
      partial = "";
    };
    stream.on("error", () => {});
    stream.on("data", (chunk) => {
      if (this.#failure !== undefined || this.#closed) return;
      const lines = (partial + chunk.toString()).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) this.#enqueue(source(), line.replace(/\r$/, ""));
      // A source that never ends its line is written in pieces rather than held without bound.
      const piece = this.#maxLineBytes - PREFIX_ROOM;
      while (Buffer.byteLength(partial) > piece) {
        this.#enqueue(source(), partial.slice(0, piece));
        partial = partial.slice(piece);
      }
    });
    stream.on("end", flushPartial);
    stream.on("close", flushPartial);
  }

  /** Resolves when every line queued so far is on disk (or dropped because the log is off). */
  async flush(): Promise<void> {
    while (this.#draining) await this.#draining;
  }

  /** Writes what is queued and closes the file; later lines are ignored. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
    await this.#handle?.close().catch(() => undefined);
    this.#handle = undefined;
  }

  #enqueue(source: string, line: string): void {
    if (this.#failure !== undefined) return;
    if (this.#pendingBytes > MAX_PENDING_BYTES) {
      this.#dropped++;
      return;
    }
    const text = `${this.#now().toISOString()} [${source}] ${this.#bounded(line)}\n`;
    this.#pending.push(text);
    this.#pendingBytes += Buffer.byteLength(text);
    this.#draining ??= this.#drain();
  }

  /**
   * The line redacted and within `maxLineBytes` (its prefix counted roughly), saying how much was cut. A huge line
   * is shortened (to twice the limit) before the redactor reads it, so a megabyte of output costs no more than a
   * long line; the cut that follows the redaction leaves no part of a secret the redactor saw whole.
   */
  #bounded(line: string): string {
    const limit = this.#maxLineBytes - PREFIX_ROOM;
    const original = Buffer.byteLength(line);
    const redacted = this.#redact(line.length > 2 * limit ? line.slice(0, 2 * limit) : line);
    const bytes = Buffer.from(redacted);
    if (bytes.length <= limit && original <= limit) return redacted;
    // Cut on a character boundary: decoding a partial UTF-8 sequence would leave a replacement character; drop it.
    const kept = bytes.subarray(0, limit).toString("utf8").replace(/\uFFFD$/, "");
    const keptOfOriginal = Math.min(original, Buffer.byteLength(kept));
    return `${kept}… [line cut: ${original - keptOfOriginal} more bytes]`;
  }

  /** The one writer: runs while lines wait; it lets go in the same step that finds the queue empty. */
  async #drain(): Promise<void> {
    await Promise.resolve(); // `#draining` is set before this can end
    try {
      while (this.#pending.length > 0) {
        if (this.#dropped > 0) {
          const dropped = this.#dropped;
          this.#dropped = 0;
          this.#pending.push(`${this.#now().toISOString()} [log] ${dropped} line${dropped === 1 ? "" : "s"} dropped: the disk was too slow\n`);
        }
        const batch = this.#pending;
        this.#pending = [];
        this.#pendingBytes = 0;
        await this.#append(batch);
      }
    } catch (error) {
      this.#fail(error);
    }
    this.#draining = undefined;
  }

  /** Appends `lines`, rotating first whenever the next chunk would take the file past its limit. */
  async #append(lines: string[]): Promise<void> {
    let chunk: string[] = [];
    let chunkBytes = 0;
    for (const line of lines) {
      const bytes = Buffer.byteLength(line);
      if (this.#size + chunkBytes + bytes > this.#maxBytes) {
        await this.#writeChunk(chunk.join(""), chunkBytes);
        chunk = [];
        chunkBytes = 0;
        if (this.#size > 0) await this.#rotate();
      }
      chunk.push(line);
      chunkBytes += bytes;
    }
    await this.#writeChunk(chunk.join(""), chunkBytes);
  }

  async #writeChunk(text: string, bytes: number): Promise<void> {
    if (bytes === 0) return;
    const handle = await this.#open();
    await handle.appendFile(text, "utf8");
    this.#size += bytes;
  }

  async #open(): Promise<FileHandle> {
    if (this.#handle) return this.#handle;
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const handle = await open(this.file, "a", 0o600);
    this.#size = (await handle.stat()).size;
    this.#handle = handle;
    // A file left bigger than the limit (an older, larger limit) is rotated before anything is added to it.
    if (this.#size < this.#maxBytes) return handle;
    await this.#rotate();
    return this.#open();
  }

  /** paddock.log → .1 → .2 …; the oldest past `files` is removed; the next write opens a fresh paddock.log. */
  async #rotate(): Promise<void> {
    await this.#handle?.close().catch(() => undefined);
    this.#handle = undefined;
    this.#size = 0;
    const name = (n: number) => (n === 0 ? this.file : `${this.file}.${n}`);
    if (this.#files === 1) {
      await rm(this.file, { force: true });
      return;
    }
    await rm(name(this.#files - 1), { force: true });
    for (let n = this.#files - 2; n >= 0; n--) {
      await rename(name(n), name(n + 1)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
      });
    }
  }

  #fail(error: unknown): void {
    if (this.#failure !== undefined) return;
    this.#failure = `Paddock cannot write its log file ${this.file}: ${errorText(error)}. The log is off until Paddock restarts.`;
    this.#pending = [];
    this.#pendingBytes = 0;
    void this.#handle?.close().catch(() => undefined);
    this.#handle = undefined;
    for (const listener of this.#problemListeners) listener(this.#failure);
    this.#problemListeners.clear();
  }
}

/**
 * Copies what `console.log`, `.info`, `.warn`, `.error` and `.debug` print into `log` as `source` ("main"), still
 * printing it as before. Returns the undo.
 */
export function captureConsole(log: AppLog, source = "main", target: Console = console): () => void {
  const methods = ["log", "info", "warn", "error", "debug"] as const;
  const originals = methods.map((method) => target[method]);
  methods.forEach((method, i) => {
    const original = originals[i]!;
    target[method] = (...args: unknown[]) => {
      original.apply(target, args);
      log.write(method === "warn" || method === "error" ? `${source} ${method}` : source, format(...args));
    };
  });
  return () => methods.forEach((method, i) => (target[method] = originals[i]!));
}

/** A child process's place in the log: the log, and what kind of process it is ("worker", "mcp"). */
export interface ChildLog {
  log: AppLog;
  kind: string;
}

/**
 * Logs a child's stdout and stderr, each line led by `<kind> <pid>` (and the label given later: a worker's chat), and
 * `stderr` for its error stream. Returns the function that sets the label.
 */
export function logChildOutput(
  child: ChildLog | undefined,
  pid: () => number | undefined,
  streams: { stdout?: LogSource | null; stderr?: LogSource | null },
): (label: string) => void {
  let label = "";
  if (!child) return () => {};
  const name = () => `${child.kind} ${pid() ?? "?"}${label ? ` ${label}` : ""}`;
  child.log.capture(streams.stdout, name);
  child.log.capture(streams.stderr, () => `${name()} stderr`);
  return (next) => {
    label = next;
  };
}
