/**
 * The native application menu's structure, Electron-free (electron/menu.ts builds and installs it): which items each
 * system gets, their accelerators, and which callback each calls. What a new chat or a closing window means is
 * decided by main's wiring.
 */
import type { BaseWindow, MenuItemConstructorOptions } from "electron";
import { menuAccelerator } from "../../shared/shortcuts";

export interface MenuActions {
  /** New chat, in the focused window (`window` is undefined when no window is focused, e.g. on macOS). */
  newChat(window: BaseWindow | undefined): void;
  newWindow(): void;
  /** Close the focused window; a running agent's confirmation is the close handler's business. */
  closeWindow(window: BaseWindow | undefined): void;
  openSettings(window: BaseWindow | undefined): void;
  /** Asks the focused window's page to do something it does by itself (go to the message box, list the shortcuts). */
  pageCommand(window: BaseWindow | undefined, command: "focus-composer" | "show-shortcuts"): void;
}

export interface MenuOptions {
  platform?: NodeJS.Platform;
  /** Adds Reload and the developer tools to the View menu. */
  development?: boolean;
  /** The app menu's title on macOS (`app.name`). */
  appName?: string;
}

/**
 * The menu's structure: on macOS an app menu holds Settings and Quit; elsewhere the File menu does. Accelerators of
 * items the page also has shortcuts for come from the one shortcut table (`shared/shortcuts.ts`).
 */
export function menuTemplate(actions: MenuActions, options: MenuOptions = {}): MenuItemConstructorOptions[] {
  const mac = (options.platform ?? process.platform) === "darwin";
  const settings: MenuItemConstructorOptions = {
    label: mac ? "Settings…" : "Settings",
    accelerator: menuAccelerator("open-settings"),
    click: (_item, window) => actions.openSettings(window),
  };
  const appMenu: MenuItemConstructorOptions = {
    label: options.appName ?? "Paddock",
    submenu: [
      { role: "about" },
      { type: "separator" },
      settings,
      { type: "separator" },
      { role: "services" },
      { type: "separator" },
      { role: "hide" },
      { role: "hideOthers" },
      { role: "unhide" },
      { type: "separator" },
      { role: "quit" },
    ],
  };
  const separator = { type: "separator" } as const;
  const fileMenu: MenuItemConstructorOptions = {
    label: "File",
    submenu: [
      { label: "New Chat", accelerator: menuAccelerator("new-chat"), click: (_item, window) => actions.newChat(window) },
      { label: "New Window", accelerator: "CmdOrCtrl+Shift+N", click: () => actions.newWindow() },
      { type: "separator" },
      { label: "Close", accelerator: "CmdOrCtrl+W", click: (_item, window) => actions.closeWindow(window) },
      ...(mac ? [] : [separator, settings, separator, { role: "quit" } as const]),
    ],
  };
  const viewMenu: MenuItemConstructorOptions = {
    label: "View",
    submenu: [
      ...(options.development
        ? [{ role: "reload" } as const, { role: "toggleDevTools" } as const, { type: "separator" } as const]
        : []),
      {
        label: "Go to Message Box",
        accelerator: menuAccelerator("focus-composer"),
        click: (_item, window) => actions.pageCommand(window, "focus-composer"),
      },
      { type: "separator" },
      { role: "resetZoom" },
      { role: "zoomIn" },
      { role: "zoomOut" },
      { type: "separator" },
      { role: "togglefullscreen" },
    ],
  };
  // Spelled out rather than `role: "windowMenu"`, whose Close item would claim CmdOrCtrl+W away from File > Close.
  // Zoom (the green button's) and Bring All to Front are macOS's; elsewhere the item would do nothing.
  const windowMenu: MenuItemConstructorOptions = {
    role: "window",
    submenu: mac ? [{ role: "minimize" }, { role: "zoom" }, { type: "separator" }, { role: "front" }] : [{ role: "minimize" }],
  };
  const helpMenu: MenuItemConstructorOptions = {
    role: "help",
    submenu: [{
      label: "Keyboard Shortcuts",
      accelerator: menuAccelerator("show-shortcuts"),
      click: (_item, window) => actions.pageCommand(window, "show-shortcuts"),
    }],
  };
  return [...(mac ? [appMenu] : []), fileMenu, { role: "editMenu" }, viewMenu, windowMenu, helpMenu];
}
