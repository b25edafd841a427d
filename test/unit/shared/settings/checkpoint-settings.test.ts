/**
 * Settings' "Checkpoints" group (issue 24 §1): on by default, the largest file kept and the storage limit bounded and
 * checked against each other, merged field by field by a page's patch, filled in for older files.
 */
import { describe, expect, it } from "vitest";
import {
  applySettingsPatch,
  CHECKPOINT_FILE_MB,
  CHECKPOINT_STORAGE_MB,
  DEFAULT_SETTINGS,
  migrateSettings,
  salvageSettings,
  validateSettings,
} from "../../../../src/shared/settings/schema";

describe("the checkpoints settings", () => {
  it("are on by default, keep files up to 20 MB and hold the store under 2 GB", () => {
    expect(DEFAULT_SETTINGS.checkpoints).toEqual({ enabled: true, maxFileMB: 20, storageLimitMB: 2048 });
  });

  it("merge a page's change field by field", () => {
    const off = applySettingsPatch(DEFAULT_SETTINGS, { checkpoints: { enabled: false } });
    expect(off.checkpoints).toEqual({ enabled: false, maxFileMB: 20, storageLimitMB: 2048 });
    const limits = applySettingsPatch(off, { checkpoints: { maxFileMB: 50, storageLimitMB: 500 } });
    expect(limits.checkpoints).toEqual({ enabled: false, maxFileMB: 50, storageLimitMB: 500 });
  });

  it("refuse sizes out of bounds, fractions, and a largest file over the storage limit, in words", () => {
    expect(() => applySettingsPatch(DEFAULT_SETTINGS, { checkpoints: { maxFileMB: 0 } })).toThrow(/checkpoints\.maxFileMB/);
    expect(() => applySettingsPatch(DEFAULT_SETTINGS, { checkpoints: { maxFileMB: CHECKPOINT_FILE_MB.max + 1 } })).toThrow(/checkpoints\.maxFileMB/);
    expect(() => applySettingsPatch(DEFAULT_SETTINGS, { checkpoints: { maxFileMB: 2.5 } })).toThrow(/checkpoints\.maxFileMB/);
    expect(() => applySettingsPatch(DEFAULT_SETTINGS, { checkpoints: { storageLimitMB: CHECKPOINT_STORAGE_MB.min - 1 } })).toThrow(/checkpoints\.storageLimitMB/);
    expect(() => applySettingsPatch(DEFAULT_SETTINGS, { checkpoints: { maxFileMB: 800, storageLimitMB: 500 } })).toThrow(
      "checkpoints: the largest file kept (800 MB) must not be more than the storage limit (500 MB)",
    );
    // @ts-expect-error: a field the group does not have
    expect(() => applySettingsPatch(DEFAULT_SETTINGS, { checkpoints: { keepForever: true } })).toThrow(/Invalid settings change/);
    expect(validateSettings({ ...DEFAULT_SETTINGS, checkpoints: { enabled: true, maxFileMB: 20 } }).ok).toBe(false);
  });

  it("are filled in for a file written before they existed, and salvaged field by field", () => {
    const { checkpoints: _none, ...older } = DEFAULT_SETTINGS;
    expect(migrateSettings({ ...older, theme: "dark" }).checkpoints).toEqual(DEFAULT_SETTINGS.checkpoints);
    expect(migrateSettings({ ...older, checkpoints: { enabled: false } }).checkpoints).toEqual({ ...DEFAULT_SETTINGS.checkpoints, enabled: false });
    const salvaged = salvageSettings({ ...older, checkpoints: { enabled: false, maxFileMB: -3, storageLimitMB: 4096 } });
    expect(salvaged.checkpoints).toEqual({ enabled: false, maxFileMB: 20, storageLimitMB: 4096 });
  });
});
