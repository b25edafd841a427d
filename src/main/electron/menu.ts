/**
 * The native application menu: the structure (main/menu/menu-template.ts, Electron-free) built and installed.
 */
import { app, Menu } from "electron";
import { menuTemplate, type MenuActions, type MenuOptions } from "../menu/menu-template";

export type { MenuActions, MenuOptions };

/** Builds the menu from `actions` and installs it as the application menu. */
export function installApplicationMenu(actions: MenuActions, options: MenuOptions = {}): Menu {
  const menu = Menu.buildFromTemplate(menuTemplate(actions, { appName: app.name, ...options }));
  Menu.setApplicationMenu(menu);
  return menu;
}
