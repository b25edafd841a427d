/**
 * A worker's output passed on to main's stdout or stderr (main/broker/worker-output.ts): a broken pipe on main's
 * side (closed terminal, `| head`) never becomes an uncaught exception, and later output is dropped.
 */
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { forwardOutput, tolerateBrokenOutput } from "../../../../src/main/broker/worker-output";

/** A host stream whose reader has gone: every write fails with EPIPE, as process.stdout does after `| head` exits. */
function brokenPipe(): Writable & { attempts: number } {
  const sink = new Writable({
    write(_chunk, _encoding, callback) {
      sink.attempts++;
      callback(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    },
  }) as Writable & { attempts: number };
  sink.attempts = 0;
  return sink;
}

describe("forwardOutput", () => {
  it("passes the worker's output on while the host's stream takes it", () => {
    const worker = new PassThrough();
    const chunks: string[] = [];
    const host = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk.toString());
        callback();
      },
    });
    forwardOutput(worker, host);
    worker.write("one ");
    worker.write("two");
    expect(chunks.join("")).toBe("one two");
  });

  it("survives EPIPE on the host's stream, then drops what follows", async () => {
    const worker = new PassThrough();
    const host = brokenPipe();
    forwardOutput(worker, host);
    worker.write("first");
    // The error event comes a tick later; without the guard it would be thrown as an uncaught exception.
    await new Promise((resolve) => setImmediate(resolve));
    expect(host.destroyed).toBe(true);
    worker.write("second");
    worker.emit("error", new Error("read failed"));
    await new Promise((resolve) => setImmediate(resolve));
    expect(host.attempts).toBe(1);
  });

  it("guards a stream once, however many workers write to it", () => {
    const host = brokenPipe();
    for (let i = 0; i < 20; i++) forwardOutput(new PassThrough(), host);
    tolerateBrokenOutput(host);
    expect(host.listenerCount("error")).toBe(1);
  });
});
