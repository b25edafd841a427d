/**
 * The worker's end of its control channel: Electron's `process.parentPort` when run as a utilityProcess, or
 * Node's child-process IPC (`process.send`) when forked by tests or the web host. Both carry the same frames.
 * It closes when the parent is gone: Node's IPC disconnects; under Electron, whose `parentPort` never says so, the
 * lifeline port main handed over closes.
 *
 * What the lifeline can do depends on the system. On Windows it is what ends an orphaned utility process: the worker
 * hears the close, ends its running commands' trees (taskkill /T), saves and exits (worker-main.ts, exitAsOrphan).
 * On macOS and Linux Chromium kills a utility process as soon as main's pipe drops, before the close reaches any
 * JavaScript: nothing runs there, and what survives is the last reply checkpoint, at most 0.5 s behind
 * (reply-checkpoints.ts; test/integration/worker-checkpoints.test.ts). The lifeline still serves there for a main
 * that is alive but dropped the worker's port.
 */
import type { MessagePortMain } from "electron";
import { BaseTransport } from "../../shared/transport/transport";
import { LIFELINE_FRAME } from "../../shared/protocol/control-protocol";

/** How long a utility process waits for main's lifeline port before taking main for dead. */
const LIFELINE_WAIT_MS = 10_000;

interface ParentPortLike {
  on(event: "message", listener: (event: { data: unknown; ports: MessagePortMain[] }) => void): void;
  postMessage(message: unknown): void;
}

export class ParentTransport extends BaseTransport {
  private portListener: ((port: MessagePortMain, frame: unknown) => void) | undefined;
  /** Held so it lives as long as the worker: its `close` is how a utility process learns that main is gone. */
  private lifeline: MessagePortMain | undefined;

  /** Which parent started this worker: Electron (utilityProcess, MessagePorts) or Node (fork, no ports). */
  readonly parent: "utility-process" | "fork";

  constructor() {
    super();
    const parentPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
    this.parent = parentPort ? "utility-process" : "fork";
    if (parentPort) {
      parentPort.on("message", (event) => {
        const port = event.ports[0];
        if (!port) this.receive(event.data);
        else if (isLifelineFrame(event.data)) this.holdLifeline(port);
        else this.portListener?.(port, event.data);
      });
      this.post = (message) => parentPort.postMessage(message);
      // Main posts the lifeline right after launching; one that never comes means main died first.
      const noLifeline = setTimeout(() => {
        if (!this.lifeline) this.markClosed("parent gone (no lifeline arrived)");
      }, LIFELINE_WAIT_MS);
      noLifeline.unref();
    } else if (process.send) {
      process.on("message", (message) => this.receive(message));
      process.on("disconnect", () => this.markClosed("parent disconnected"));
      this.post = (message) => {
        if (process.connected) process.send?.(message);
      };
      // A parent that died while this process was still loading disconnected before anyone listened.
      if (!process.connected) queueMicrotask(() => this.markClosed("parent disconnected"));
    } else {
      throw new Error("The agent worker must be started by Paddock (no parent channel found)");
    }
  }

  private post: (message: unknown) => void = () => {};

  private holdLifeline(port: MessagePortMain): void {
    if (this.lifeline) return; // main sends one; a second would be a bug there, not a reason to exit
    this.lifeline = port;
    port.on("close", () => this.markClosed("parent gone (lifeline closed)"));
    port.start();
  }

  /** Electron only: main hands over session ports as messages with a port attached. */
  onPort(listener: (port: MessagePortMain, frame: unknown) => void): void {
    this.portListener = listener;
  }

  protected deliver(message: unknown): void {
    this.post(message);
  }

  protected closeUnderlying(): void {
    if (process.send && process.connected) process.disconnect();
  }
}

function isLifelineFrame(frame: unknown): boolean {
  return typeof frame === "object" && frame !== null && (frame as { ch?: unknown }).ch === LIFELINE_FRAME.ch;
}
