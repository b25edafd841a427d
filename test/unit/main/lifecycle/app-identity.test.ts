/**
 * The app's id for the operating system: electron-builder.yml's `appId` (what the Windows installer stamps on the
 * shortcut) and the id main sets with `app.setAppUserModelId` are one; the built main's use of it is checked in
 * test/integration/main-bundle.test.ts.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { APP_ID, appUserModelId } from "../../../../src/main/lifecycle/app-identity";

describe("the app's id", () => {
  it("is electron-builder's appId, in the release and the test build alike", () => {
    const release = parse(readFileSync("electron-builder.yml", "utf8")) as { appId?: unknown };
    expect(release.appId).toBe(APP_ID);
    // The test build extends the release's and must not give the app another id.
    const test = parse(readFileSync("electron-builder.test.yml", "utf8")) as { appId?: unknown; extends?: unknown };
    expect(test.extends).toBe("./electron-builder.yml");
    expect(test.appId ?? APP_ID).toBe(APP_ID);
  });

  it("is set as the Application User Model ID on Windows only, and an unpackaged run gets one of its own", () => {
    expect(appUserModelId("win32", true)).toBe("dev.paddock.app");
    expect(appUserModelId("win32", false)).toBe("dev.paddock.app.dev");
    expect(appUserModelId("darwin", true)).toBeUndefined();
    expect(appUserModelId("linux", true)).toBeUndefined();
  });
});
