/**
 * Which data folder (and so which single-instance lock) a run uses: `npm start` and the installed app never share one
 * where the disk ignores case (macOS, Windows), `PADDOCK_USER_DATA` always wins.
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { dataFolder, DEV_DATA_FOLDER } from "../../../../src/main/lifecycle/data-folder";

const mac = { appData: "/Users/ada/Library/Application Support", platform: "darwin" } as const;
const windows = { appData: "C:\\Users\\ada\\AppData\\Roaming", platform: "win32" } as const;
const linux = { appData: "/home/ada/.config", platform: "linux" } as const;

describe("the data folder", () => {
  it("is Electron's default for the installed app on every system (<appData>/Paddock)", () => {
    for (const system of [mac, windows, linux]) expect(dataFolder({ ...system, override: undefined, packaged: true })).toBeUndefined();
  });

  it("of an unpackaged run is its own on macOS and Windows, never the installed app's 'Paddock' spelt 'paddock'", () => {
    expect(dataFolder({ ...mac, override: undefined, packaged: false })).toBe("/Users/ada/Library/Application Support/Paddock Dev");
    expect(dataFolder({ ...windows, override: undefined, packaged: false })).toBe("C:\\Users\\ada\\AppData\\Roaming\\Paddock Dev");
    // Both differ from the installed app's folder however the disk compares case.
    for (const system of [mac, windows]) {
      const dev = dataFolder({ ...system, override: undefined, packaged: false })!;
      expect(dev.toLowerCase()).not.toBe(`${system.appData}${system.platform === "win32" ? "\\" : "/"}paddock`.toLowerCase());
      expect(dev.endsWith(DEV_DATA_FOLDER)).toBe(true);
    }
  });

  it("of an unpackaged run on Linux stays Electron's default: ~/.config/paddock already differs from ~/.config/Paddock", () => {
    expect(dataFolder({ ...linux, override: undefined, packaged: false })).toBeUndefined();
  });

  it("is PADDOCK_USER_DATA when set (made absolute), packaged or not; blank counts as unset", () => {
    for (const packaged of [true, false]) {
      expect(dataFolder({ ...mac, override: "/tmp/profile", packaged })).toBe("/tmp/profile");
      expect(dataFolder({ ...linux, override: "rel/profile", packaged })).toBe(resolve("rel/profile"));
    }
    expect(dataFolder({ ...mac, override: "  ", packaged: false })).toBe("/Users/ada/Library/Application Support/Paddock Dev");
  });
});
