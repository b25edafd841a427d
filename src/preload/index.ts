/**
 * The preload bridge: exposes exactly `PaddockBridge` as `window.paddock`, nothing else (no ipcRenderer, no event
 * objects, no Node). Sandboxed, so it is bundled to CommonJS with "electron" as its only runtime import.
 *
 * Session ports: a MessagePort cannot cross contextBridge, so main posts each new port here on the
 * "paddock:session-port" channel and this script re-posts it to the page with `window.postMessage`.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from "electron";
import { CALL_CHANNEL, COMMAND_CHANNEL, EVENT_CHANNEL, SESSION_PORT_CHANNEL } from "../main/electron/ipc-channels";
import { PAGE_COMMANDS, type PageCommand, type PaddockBridge, type SessionPortMessage } from "./api";

/** The page's window; typed here because the preload is type-checked with Node's libraries, not the DOM's. */
const page = globalThis as unknown as {
  postMessage(message: unknown, targetOrigin: string, transfer: unknown[]): void;
};

const COMMANDS: ReadonlySet<string> = new Set(PAGE_COMMANDS);

/**
 * Per session, the pending `acquireSessionPort` calls, oldest first. Main's reply to the invoke and its port
 * message travel separately, so a call resolves only once its port was handed to the page, whichever came first.
 */
const waiting = new Map<string, Array<() => void>>();

ipcRenderer.on(SESSION_PORT_CHANNEL, (event: IpcRendererEvent, data: unknown) => {
  const port = event.ports[0];
  if (!port) return;
  const fields = (typeof data === "object" && data !== null ? data : {}) as Partial<SessionPortMessage>;
  if (typeof fields.sessionId !== "string") {
    port.close();
    return;
  }
  // A fresh object: only the contract's fields reach the page.
  const message: SessionPortMessage = { type: SESSION_PORT_CHANNEL, sessionId: fields.sessionId };
  if (typeof fields.restartedReason === "string") message.restartedReason = fields.restartedReason;
  page.postMessage(message, "*", [port]);
  const queue = waiting.get(message.sessionId);
  queue?.shift()?.();
  if (queue?.length === 0) waiting.delete(message.sessionId);
});

function whenPortPosted(sessionId: string): { posted: Promise<void>; cancel(): void } {
  let done!: () => void;
  const posted = new Promise<void>((resolve) => {
    done = resolve;
  });
  const queue = waiting.get(sessionId) ?? [];
  queue.push(done);
  waiting.set(sessionId, queue);
  return {
    posted,
    cancel() {
      const at = queue.indexOf(done);
      if (at !== -1) queue.splice(at, 1);
      if (queue.length === 0 && waiting.get(sessionId) === queue) waiting.delete(sessionId);
    },
  };
}

const bridge: PaddockBridge = {
  call: (method, args) => ipcRenderer.invoke(CALL_CHANNEL, method, args),

  async acquireSessionPort(sessionId) {
    if (typeof sessionId !== "string") throw new TypeError("acquireSessionPort needs a session id");
    const pending = whenPortPosted(sessionId);
    try {
      await ipcRenderer.invoke(SESSION_PORT_CHANNEL, sessionId);
    } catch (error) {
      pending.cancel();
      throw error;
    }
    await pending.posted;
  },

  onCommand(listener) {
    const relay = (_event: IpcRendererEvent, command: unknown) => {
      if (typeof command === "string" && COMMANDS.has(command)) listener(command as PageCommand);
    };
    ipcRenderer.on(COMMAND_CHANNEL, relay);
    return () => {
      ipcRenderer.removeListener(COMMAND_CHANNEL, relay);
    };
  },

  onEvent(listener) {
    // Only the event itself reaches the page, never Electron's event object.
    const relay = (_event: IpcRendererEvent, data: unknown) => {
      if (typeof data === "object" && data !== null && typeof (data as { type?: unknown }).type === "string") listener(data);
    };
    ipcRenderer.on(EVENT_CHANNEL, relay);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, relay);
    };
  },
};

contextBridge.exposeInMainWorld("paddock", bridge);
