/**
 * Passing a worker's output on to the host's own stdout or stderr, where a launcher pipes it (Electron's
 * utilityProcess). Electron-free, so a Node test can break the pipe.
 *
 * The host's streams can break under it: the terminal closed, or its output went through `| head`, which has
 * exited. A write then fails with EPIPE, emitted as an `error` event; on a stream with no error listener that is
 * an uncaught exception, and main would end over a log line. The worker's output is diagnostics, so once the host
 * stream has failed, what follows is dropped, and neither side ever throws for it.
 */

/** Streams the host writes to: main's `process.stdout` and `process.stderr`. */
export interface OutputSink {
  write(chunk: Uint8Array): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  readonly writable: boolean;
}

export interface OutputSource {
  on(event: "data", listener: (chunk: Buffer) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}

const guarded = new WeakSet<OutputSink>();
const broken = new WeakSet<OutputSink>();

/**
 * Makes `sink`'s write errors harmless: noted (later writes are skipped) instead of thrown. Once per sink, however
 * often it is called. Guards the sink for everything written to it, main's own logging included.
 */
export function tolerateBrokenOutput(sink: OutputSink): void {
  if (guarded.has(sink)) return;
  guarded.add(sink);
  sink.on("error", () => broken.add(sink));
}

/** Copies everything `source` emits to `sink` while `sink` can take it; a read error on `source` ends nothing either. */
export function forwardOutput(source: OutputSource | null | undefined, sink: OutputSink): void {
  if (!source) return;
  tolerateBrokenOutput(sink);
  source.on("error", () => {});
  source.on("data", (chunk) => {
    if (broken.has(sink) || !sink.writable) return;
    sink.write(chunk);
  });
}
