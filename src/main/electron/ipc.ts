/**
 * The two request channels a page may use. Every request is checked first: it must come from the main frame of
 * one of our windows showing the app's own page; then `paddock:call` goes through the schema gate
 * (dispatchAppCall) and `paddock:session-port` asks the window manager for a port (the contract: shared/protocol/
 * desktop-bridge.ts).
 */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from "electron";
import { APP_API_SCHEMAS, type AppMethod } from "../../shared/protocol/app-api-schema";
import type { AppApi } from "../../shared/protocol/app-api";
import { dispatchAppCall } from "../broker/app-call";
import { CALL_CHANNEL, isPortRequestNonce, SESSION_PORT_CHANNEL } from "../../shared/protocol/desktop-bridge";

export interface IpcOptions {
  /** The calling window, if the sender is one of ours. */
  windowOf(event: IpcMainInvokeEvent): BrowserWindow | undefined;
  isAppUrl(url: string): boolean;
  /** The AppApi as seen from `win` (its `openSession("this-window")` means that window). */
  apiFor(win: BrowserWindow): AppApi;
  /** Posts a new port to `sessionId` to `win`'s page, marked with the request's `nonce`. */
  connect(win: BrowserWindow, sessionId: string, nonce: string): Promise<void>;
}

export function registerIpc(options: IpcOptions): void {
  const caller = (event: IpcMainInvokeEvent): BrowserWindow => {
    const win = options.windowOf(event);
    const frame = event.senderFrame;
    // Top frame only: a subframe (there should be none) must never reach the bridge's powers.
    if (!win || !frame || frame.parent !== null || !options.isAppUrl(frame.url)) {
      throw new Error("Refused: the request did not come from a Paddock window");
    }
    return win;
  };
  ipcMain.handle(CALL_CHANNEL, (event, method: unknown, args: unknown) =>
    dispatchAppCall(options.apiFor(caller(event)), method, args),
  );
  ipcMain.handle(SESSION_PORT_CHANNEL, async (event, sessionId: unknown, nonce: unknown) => {
    const win = caller(event);
    if (typeof sessionId !== "string") throw new Error("A session id is required");
    if (!isPortRequestNonce(nonce)) throw new Error("A port request needs a nonce of 8 to 64 characters [A-Za-z0-9_-]");
    await options.connect(win, sessionId, nonce);
  });
}

/**
 * `service` with the calls that depend on the calling window replaced (`openSession`'s "this window", the folder
 * and save dialogs' parent), every other method bound to `service`: the per-window view of the API. Built from the schema's
 * method list, so a method added to AppApi cannot be forgotten here.
 */
export function appApiWith(service: AppApi, perWindow: Pick<AppApi, PerWindowMethod>): AppApi {
  const api: Partial<Record<AppMethod, unknown>> = {};
  for (const method of Object.keys(APP_API_SCHEMAS) as AppMethod[]) {
    api[method] = isPerWindow(method) ? perWindow[method] : service[method].bind(service);
  }
  return api as AppApi;
}

/** The calls whose answer depends on the calling window. */
type PerWindowMethod = "openSession" | "pickWorkspace" | "saveSessionExport";

function isPerWindow(method: AppMethod): method is PerWindowMethod {
  return method === "openSession" || method === "pickWorkspace" || method === "saveSessionExport";
}
