/**
 * The preload bridge: exposes exactly `PaddockBridge` as `window.paddock`, nothing else (no ipcRenderer, no event
 * objects, no Node). Sandboxed, so it is bundled to CommonJS with "electron" as its only runtime import; the
 * contract it implements is shared/protocol/desktop-bridge.ts.
 *
 * Session ports: a MessagePort cannot cross contextBridge, so main posts each new port here on the
 * "paddock:session-port" channel, marked with the nonce of the request it answers, and this script re-posts it to
 * the page with `window.postMessage`.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from "electron";
import {
  CALL_CHANNEL,
  COMMAND_CHANNEL,
  EVENT_CHANNEL,
  isPortRequestNonce,
  PAGE_COMMANDS,
  remoteErrorMessage,
  SESSION_PORT_CHANNEL,
  type PageCommand,
  type PaddockBridge,
  type SessionPortMessage,
} from "../shared/protocol/desktop-bridge";

/** The page's window; typed here because the preload is type-checked with Node's libraries, not the DOM's. */
const page = globalThis as unknown as {
  postMessage(message: unknown, targetOrigin: string, transfer: unknown[]): void;
};

const COMMANDS: ReadonlySet<string> = new Set(PAGE_COMMANDS);

/**
 * The pending `acquireSessionPort` calls, by nonce. Main's reply to the invoke and its port message travel
 * separately, so a call resolves only once its own port was handed to the page, whichever came first.
 */
const waiting = new Map<string, () => void>();

ipcRenderer.on(SESSION_PORT_CHANNEL, (event: IpcRendererEvent, data: unknown) => {
  const port = event.ports[0];
  if (!port) return;
  const fields = (typeof data === "object" && data !== null ? data : {}) as Partial<SessionPortMessage>;
  if (typeof fields.sessionId !== "string" || !isPortRequestNonce(fields.nonce)) {
    port.close();
    return;
  }
  // A fresh object: only the contract's fields reach the page.
  const message: SessionPortMessage = { type: SESSION_PORT_CHANNEL, sessionId: fields.sessionId, nonce: fields.nonce };
  if (typeof fields.restartedReason === "string") message.restartedReason = fields.restartedReason;
  page.postMessage(message, "*", [port]);
  waiting.get(message.nonce)?.();
  waiting.delete(message.nonce);
});

/** `error` with the message main threw, not Electron's "Error invoking remote method …" wrapping of it. */
function fromMain(error: unknown): Error {
  return new Error(remoteErrorMessage(error instanceof Error ? error.message : String(error)));
}

const bridge: PaddockBridge = {
  call: (method, args) =>
    ipcRenderer.invoke(CALL_CHANNEL, method, args).catch((error: unknown) => {
      throw fromMain(error);
    }),

  async acquireSessionPort(sessionId, nonce) {
    if (typeof sessionId !== "string") throw new TypeError("acquireSessionPort needs a session id");
    if (!isPortRequestNonce(nonce)) throw new TypeError("acquireSessionPort needs a nonce of 8 to 64 characters [A-Za-z0-9_-]");
    if (waiting.has(nonce)) throw new Error("A port request with this nonce is already pending");
    const posted = new Promise<void>((resolve) => waiting.set(nonce, resolve));
    try {
      await ipcRenderer.invoke(SESSION_PORT_CHANNEL, sessionId, nonce);
    } catch (error) {
      waiting.delete(nonce);
      throw fromMain(error);
    }
    await posted;
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
