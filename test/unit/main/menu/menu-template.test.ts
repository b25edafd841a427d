/**
 * The application menu's structure on each system (main/menu/menu-template.ts; electron/menu.ts installs it): Zoom
 * and Bring All to Front only on macOS, the app menu only there, Settings and Quit in File elsewhere.
 */
import type { MenuItemConstructorOptions } from "electron";
import { describe, expect, it, vi } from "vitest";
import { menuTemplate, type MenuActions } from "../../../../src/main/menu/menu-template";

const actions: MenuActions = { newChat: vi.fn(), newWindow: vi.fn(), closeWindow: vi.fn(), openSettings: vi.fn(), pageCommand: vi.fn() };

/** Each item as its role, label or "---". */
const names = (items: MenuItemConstructorOptions[] | undefined) => (items ?? []).map((i) => i.type === "separator" ? "---" : i.role ?? i.label);
const submenu = (menu: MenuItemConstructorOptions[], key: string) =>
  menu.find((m) => m.role === key || m.label === key)?.submenu as MenuItemConstructorOptions[] | undefined;

describe("the application menu", () => {
  it("has Zoom and Bring All to Front in the Window menu on macOS only", () => {
    expect(names(submenu(menuTemplate(actions, { platform: "darwin" }), "window"))).toEqual(["minimize", "zoom", "---", "front"]);
    for (const platform of ["win32", "linux"] as const) {
      expect(names(submenu(menuTemplate(actions, { platform }), "window"))).toEqual(["minimize"]);
    }
  });

  it("gives macOS an app menu titled with the app's name; Settings and Quit sit in File elsewhere", () => {
    const mac = menuTemplate(actions, { platform: "darwin", appName: "Paddock" });
    expect(mac[0].label).toBe("Paddock");
    expect(names(submenu(mac, "File"))).not.toContain("quit");
    const linux = menuTemplate(actions, { platform: "linux", appName: "Paddock" });
    expect(linux.map((m) => m.label ?? m.role)).toEqual(["File", "editMenu", "View", "window", "help"]);
    expect(names(submenu(linux, "File"))).toEqual(["New Chat", "New Window", "---", "Close", "---", "Settings", "---", "quit"]);
  });

  it("calls its actions with the focused window", () => {
    const menu = menuTemplate(actions, { platform: "linux" });
    const settings = submenu(menu, "File")!.find((i) => i.label === "Settings")!;
    const window = { id: 7 } as never;
    settings.click!({} as never, window, {} as never);
    expect(actions.openSettings).toHaveBeenCalledWith(window);
  });

  it("adds Reload and the developer tools in development only", () => {
    expect(names(submenu(menuTemplate(actions, { platform: "linux", development: true }), "View")).slice(0, 3)).toEqual(["reload", "toggleDevTools", "---"]);
    expect(names(submenu(menuTemplate(actions, { platform: "linux" }), "View"))).not.toContain("reload");
  });
});
