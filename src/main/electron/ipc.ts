/**
 * The two request channels a page may use. Every request is checked first: it must come from the main frame of
 * one of our windows showing the app's own page; then `paddock:call` goes through the schema gate
 * (dispatchAppCall) and `paddock:session-port` asks the window manager for a port.
 */
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from "electron";
import { APP_API_SCHEMAS, type AppMethod } from "../../shared/protocol/app-api-schema";
import type { AppApi } from "../../shared/protocol/app-api";
import { dispatchAppCall } from "../broker/app-call";
import { CALL_CHANNEL, SESSION_PORT_CHANNEL } from "./ipc-channels";

export interface IpcOptions {
  /** The calling window, if the sender is one of ours. */
  windowOf(event: IpcMainInvokeEvent): BrowserWindow | undefined;
  isAppUrl(url: string): boolean;
  /** The AppApi as seen from `win` (its `openSession("this-window")` means that window). */
  apiFor(win: BrowserWindow): AppApi;
  connect(win: BrowserWindow, sessionId: string): Promise<void>;
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
  ipcMain.handle(SESSION_PORT_CHANNEL, async (event, sessionId: unknown) => {
    const win = caller(event);
    if (typeof sessionId !== "string") throw new Error("A session id is required");
    await options.connect(win, sessionId);
  });
}

/**
 * `service` with the calls that depend on the calling window replaced (`openSession`'s "this window", the folder
 * dialog's parent), every other method bound to `service`: the per-window view of the API. Built from the schema's
 * method list, so a method added to AppApi cannot be forgotten here.
 */
export function appApiWith(service: AppApi, perWindow: Pick<AppApi, "openSession" | "pickWorkspace">): AppApi {
  const api: Partial<Record<AppMethod, unknown>> = {};
  for (const method of Object.keys(APP_API_SCHEMAS) as AppMethod[]) {
    api[method] = method === "openSession" || method === "pickWorkspace" ? perWindow[method] : service[method].bind(service);
  }
  return api as AppApi;
}
