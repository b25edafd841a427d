/**
 * Spell checking fetches nothing unless the user turns it on: off by default (the setting absent, as in every
 * settings file written before it), and while off the dictionaries' address cannot reach the network.
 */
import { describe, expect, it } from "vitest";
import { CHROMIUM_DICTIONARY_URL, spellCheckConfig, UNREACHABLE_DICTIONARY_URL } from "../../../../src/main/app-page/spell-check";
import { applySettingsPatch, DEFAULT_SETTINGS, upgradeSettings, validateSettings, type Settings } from "../../../../src/shared/settings/schema";

describe("spell checking", () => {
  it("is off, with no reachable dictionary address, by default and before the settings are read", () => {
    expect(DEFAULT_SETTINGS.spellCheck).toBeUndefined();
    for (const settings of [undefined, DEFAULT_SETTINGS, { spellCheck: false }]) {
      expect(spellCheckConfig(settings)).toEqual({ enabled: false, dictionaryUrl: UNREACHABLE_DICTIONARY_URL });
    }
    const url = new URL(UNREACHABLE_DICTIONARY_URL);
    // This machine, a port nothing listens on; Electron wants the trailing slash.
    expect([url.hostname, url.port]).toEqual(["127.0.0.1", "0"]);
    expect(UNREACHABLE_DICTIONARY_URL).toMatch(/^http:\/\/127\.0\.0\.1:0\/.*\/$/);
  });

  it("turned on in Settings, checks with Chromium's dictionaries", () => {
    const on = applySettingsPatch(structuredClone(DEFAULT_SETTINGS) as Settings, { spellCheck: true });
    expect(on.spellCheck).toBe(true);
    expect(spellCheckConfig(on)).toEqual({ enabled: true, dictionaryUrl: CHROMIUM_DICTIONARY_URL });
    expect(CHROMIUM_DICTIONARY_URL.endsWith("/")).toBe(true);
    const off = applySettingsPatch(on, { spellCheck: false });
    expect(spellCheckConfig(off).enabled).toBe(false);
  });

  it("the setting is a yes or no; a settings file from before it reads as off", () => {
    expect(() => applySettingsPatch(structuredClone(DEFAULT_SETTINGS) as Settings, { spellCheck: "yes" } as never)).toThrow(/spellCheck/);
    const old = structuredClone(DEFAULT_SETTINGS) as Record<string, unknown>;
    delete old.spellCheck;
    const read = validateSettings(upgradeSettings(old));
    expect(read.ok).toBe(true);
    expect(spellCheckConfig(read.ok ? read.value : undefined).enabled).toBe(false);
  });
});
