/**
 * FIFOs (named pipes) that nobody writes to, for tests of code that must never open one: such an open blocks one of
 * libuv's four threads until a writer comes. `releaseAll()` comes as that writer for every FIFO made, so a test that
 * failed by hanging (the code before its fix) does not leave the test process's threads parked for good.
 */
import { execFileSync } from "node:child_process";
import { closeSync, constants, openSync } from "node:fs";

export class Fifos {
  private readonly made: string[] = [];

  /** A FIFO at `path` (its folder must exist). */
  make(path: string): string {
    execFileSync("mkfifo", [path]);
    this.made.push(path);
    return path;
  }

  /** Opens each FIFO for writing and closes it: a reader blocked in open() then reads end-of-file. */
  releaseAll(): void {
    for (const path of this.made.splice(0)) {
      try {
        // O_NONBLOCK: with no reader waiting this fails (ENXIO) at once instead of waiting for one.
        closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // nobody was waiting, or the FIFO is gone
      }
    }
  }
}

/** `promise`, or a rejection saying what hung after `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
