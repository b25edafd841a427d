import { describe, expect, it, vi } from "vitest";
import { DEFAULT_SETTINGS, SETTINGS_VERSION, migrateSettings } from "../../../../src/shared/settings/schema";
import { lastWindowQuits, NO_SCHEDULES, showsTray, trayMenuItems, withNoWindow, type StayAliveInputs } from "../../../../src/main/lifecycle/stay-in-tray";

const inputs = (platform: NodeJS.Platform, stayInTray: boolean, schedules: boolean): StayAliveInputs => ({ platform, stayInTray, hasSchedules: () => schedules });

describe("staying alive when the last window closes", () => {
  it("Windows and Linux quit as before unless the setting is on and schedules exist: then the tray", () => {
    for (const platform of ["win32", "linux"] as const) {
      expect(withNoWindow(inputs(platform, true, true))).toBe("tray");
      expect(lastWindowQuits(inputs(platform, true, true))).toBe(false);
      expect(withNoWindow(inputs(platform, true, false))).toBe("quit");
      expect(withNoWindow(inputs(platform, false, true))).toBe("quit");
      expect(lastWindowQuits(inputs(platform, false, true))).toBe(true);
      expect(lastWindowQuits(inputs(platform, true, false))).toBe(true);
    }
  });

  it("macOS never quits on the last window; with the setting and schedules it shows in the menu bar too", () => {
    expect(withNoWindow(inputs("darwin", true, true))).toBe("tray");
    expect(withNoWindow(inputs("darwin", true, false))).toBe("stay");
    expect(withNoWindow(inputs("darwin", false, true))).toBe("stay");
    expect(lastWindowQuits(inputs("darwin", false, false))).toBe(false);
  });

  it("the tray shows only while no window is open", () => {
    expect(showsTray(inputs("linux", true, true), 0)).toBe(true);
    expect(showsTray(inputs("linux", true, true), 1)).toBe(false);
    expect(showsTray(inputs("linux", false, true), 0)).toBe(false);
  });

  it("asks whether schedules exist at each decision; an engine that throws keeps nothing alive", () => {
    let schedules = false;
    const live: StayAliveInputs = { platform: "win32", stayInTray: true, hasSchedules: () => schedules };
    expect(withNoWindow(live)).toBe("quit");
    schedules = true;
    expect(withNoWindow(live)).toBe("tray");
    expect(withNoWindow({ ...live, hasSchedules: () => { throw new Error("engine down"); } })).toBe("quit");
  });

  it("until the schedules engine lands nothing is scheduled, so the app ends as before", () => {
    expect(NO_SCHEDULES()).toBe(false);
    expect(withNoWindow({ platform: "linux", stayInTray: true, hasSchedules: NO_SCHEDULES })).toBe("quit");
  });

  it("the setting is on by default, and an older settings file without it gets it on", () => {
    expect(DEFAULT_SETTINGS.background.stayInTray).toBe(true);
    const older = { ...structuredClone(DEFAULT_SETTINGS), version: SETTINGS_VERSION, background: { idleStopMinutes: 3, notifications: false } };
    expect(migrateSettings(older).background).toEqual({ idleStopMinutes: 3, notifications: false, stayInTray: true });
  });

  it("the tray's menu: Open Paddock, then Quit, each doing its own thing", () => {
    const open = vi.fn();
    const quit = vi.fn();
    const items = trayMenuItems({ open, quit });
    expect(items.map((i) => i.label)).toEqual(["Open Paddock", "Quit"]);
    items[0]!.click();
    expect(open).toHaveBeenCalledOnce();
    expect(quit).not.toHaveBeenCalled();
    items[1]!.click();
    expect(quit).toHaveBeenCalledOnce();
  });
});
