/**
 * The checkpoint clean-up in a worker thread of main (maintenance-thread.ts, built as `file`): started on the first
 * job, ended after a while without one. Where the thread cannot start (the file is missing, say), the jobs run in
 * main's own thread instead, after the current call (inlineRunner): slower for main, but nothing is left undone.
 */
import { Worker } from "node:worker_threads";
import { inlineRunner, type MaintenanceRunner } from "./maintenance-ops";

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export function threadRunner(file: string, idleMs = 30_000): MaintenanceRunner {
  let worker: Worker | undefined;
  let broken = false;
  let answered = false;
  let nextId = 1;
  let idle: ReturnType<typeof setTimeout> | undefined;
  const pending = new Map<number, Pending>();

  const failAll = (error: Error) => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  const start = (): Worker => {
    const w = new Worker(file);
    w.on("message", (message: { id: number; result?: unknown; error?: string }) => {
      answered = true;
      const p = pending.get(message.id);
      if (!p) return;
      pending.delete(message.id);
      if (message.error !== undefined) p.reject(new Error(message.error));
      else p.resolve(message.result);
      if (pending.size === 0) {
        w.unref();
        idle = setTimeout(() => void w.terminate(), idleMs);
        idle.unref?.();
      }
    });
    w.on("error", (error) => {
      // A thread that never answered could not start here: from now on the jobs run in main's thread.
      if (!answered) broken = true;
      failAll(error);
    });
    w.on("exit", () => {
      if (worker === w) worker = undefined;
      failAll(new Error("The checkpoint clean-up's thread stopped."));
    });
    return w;
  };

  return {
    run: async (op, ...args) => {
      if (broken) return inlineRunner.run(op, ...args);
      clearTimeout(idle);
      try {
        worker ??= start();
      } catch {
        broken = true;
        return inlineRunner.run(op, ...args);
      }
      const w = worker;
      w.ref();
      const id = nextId++;
      try {
        return (await new Promise((resolve, reject) => {
          pending.set(id, { resolve, reject });
          w.postMessage({ id, op, args });
        })) as never;
      } catch (error) {
        if (broken) return inlineRunner.run(op, ...args);
        throw error;
      }
    },
    dispose: async () => {
      clearTimeout(idle);
      broken = true;
      await worker?.terminate();
      worker = undefined;
    },
  };
}
