import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SettingsStore } from "../../../../src/main/broker/settings-store";
import {
  applySettingsPatch,
  DEFAULT_SETTINGS,
  InvalidSettingsError,
  MAX_SHELL_PREFIX_CHARS,
  migrateSettings,
  salvageSettings,
  validateSettings,
  type Settings,
} from "../../../../src/shared/settings/schema";

let dir: string;
const file = () => join(dir, "settings.json");
const readFile = () => JSON.parse(readFileSync(file(), "utf8")) as Record<string, unknown>;
const backups = () => readdirSync(dir).filter((f) => /^settings\.corrupt-.+\.json$/.test(f));

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "paddock-settings-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const v1File = { version: 1, escAbort: false, model: "openrouter/anthropic/claude-sonnet-4", queueMode: "all", theme: "dark" };

describe("settings schema", () => {
  it("accepts its own defaults", () => {
    expect(validateSettings(DEFAULT_SETTINGS)).toEqual({ ok: true, value: DEFAULT_SETTINGS });
    expect(DEFAULT_SETTINGS.abort.requestTimeoutMs).toBe(120_000);
  });

  it("explains what is wrong, field by field", () => {
    const result = validateSettings({ ...DEFAULT_SETTINGS, theme: "pink", abort: { ...DEFAULT_SETTINGS.abort, requestTimeoutMs: 10 }, extra: 1 });
    expect(result.ok).toBe(false);
    const errors = result.ok ? [] : result.errors;
    expect(errors).toContain('theme: must be one of "system", "light", "dark"');
    expect(errors).toContain("abort.requestTimeoutMs: must be >= 5000");
    expect(errors).toContain("settings: unknown field(s) extra");
  });

  it("rejects two custom providers with the same id", () => {
    const provider = { id: "ollama", name: "Ollama", baseUrl: "http://127.0.0.1:11434/v1", models: ["llama3"] };
    const result = validateSettings({ ...DEFAULT_SETTINGS, customProviders: [provider, provider] });
    expect(result).toEqual({ ok: false, errors: ['customProviders: the id "ollama" is used twice'] });
  });

  it("applies a patch: abort merges, null clears the default model, the input is untouched", () => {
    const start = applySettingsPatch(DEFAULT_SETTINGS, { defaultModel: { provider: "openai", id: "gpt-4o" } });
    const next = applySettingsPatch(start, { abort: { clearQueuesOnAbort: true }, defaultModel: null, thinkingLevel: "high" });
    expect(next.abort).toEqual({ ...DEFAULT_SETTINGS.abort, clearQueuesOnAbort: true });
    expect(next.thinkingLevel).toBe("high");
    expect("defaultModel" in next).toBe(false);
    expect(start.defaultModel).toEqual({ provider: "openai", id: "gpt-4o" });
  });

  it("refuses patches that are malformed or reach main-only fields", () => {
    expect(() => applySettingsPatch(DEFAULT_SETTINGS, { abort: { requestTimeoutMs: 100 } })).toThrow(
      "Invalid settings change: abort.requestTimeoutMs: must be >= 5000",
    );
    expect(() => applySettingsPatch(DEFAULT_SETTINGS, { windows: [] } as never)).toThrow("unknown field(s) windows");
    expect(() => applySettingsPatch(DEFAULT_SETTINGS, { steeringMode: "sometimes" } as never)).toThrow(/steeringMode: must be one of/);
  });

  it("migrates version 1 to version 2", () => {
    const settings = migrateSettings(v1File);
    expect(settings).toEqual({
      ...DEFAULT_SETTINGS,
      defaultModel: { provider: "openrouter", id: "anthropic/claude-sonnet-4" },
      steeringMode: "all",
      followUpMode: "all",
      abort: { ...DEFAULT_SETTINGS.abort, escAction: "nothing" },
      theme: "dark",
    });
  });

  it("migrates an unversioned file as version 1, keeping fields already in today's shape", () => {
    const settings = migrateSettings({ escAbort: true, queueMode: "one-at-a-time", toolExecution: "sequential" });
    expect(settings.version).toBe(3);
    expect(settings.abort.escAction).toBe("abort");
    expect(settings.toolExecution).toBe("sequential");
    expect(settings.steeringMode).toBe("one-at-a-time");
  });

  it("migrates version 2 to version 3: a default model on azure-openai-responses is on azure, pi-ai 1.6.0's name", () => {
    const migrated = migrateSettings({ version: 2, defaultModel: { provider: "azure-openai-responses", id: "gpt-5.2" } });
    expect(migrated.defaultModel).toEqual({ provider: "azure", id: "gpt-5.2" });
    expect(migrated.version).toBe(3);
    expect(migrateSettings({ version: 2, defaultModel: { provider: "anthropic", id: "claude-opus-4-7" } }).defaultModel).toEqual({ provider: "anthropic", id: "claude-opus-4-7" });
  });

  it("keeps pi's shell command prefix: none by default, a tools field a patch sets, bounded, and absent in older files", () => {
    expect(DEFAULT_SETTINGS.tools.shellCommandPrefix).toBe("");
    const prefix = "shopt -s expand_aliases\nsource ~/.bash_aliases";
    const next = applySettingsPatch(DEFAULT_SETTINGS, { tools: { shellCommandPrefix: prefix } });
    expect(next.tools).toEqual({ ...DEFAULT_SETTINGS.tools, shellCommandPrefix: prefix });
    expect(() => applySettingsPatch(DEFAULT_SETTINGS, { tools: { shellCommandPrefix: "x".repeat(MAX_SHELL_PREFIX_CHARS + 1) } })).toThrow(
      `tools.shellCommandPrefix: must not have more than ${MAX_SHELL_PREFIX_CHARS} characters`,
    );
    const { shellCommandPrefix: _none, ...olderTools } = DEFAULT_SETTINGS.tools;
    expect(migrateSettings({ version: 3, tools: olderTools }).tools.shellCommandPrefix).toBe("");
  });

  it("fills fields a current file lacks with defaults", () => {
    expect(migrateSettings({ version: 2, theme: "light", abort: { clearQueuesOnAbort: true } })).toEqual({
      ...DEFAULT_SETTINGS,
      theme: "light",
      abort: { ...DEFAULT_SETTINGS.abort, clearQueuesOnAbort: true },
    });
  });

  it("does not read files from a newer version or of the wrong kind", () => {
    expect(() => migrateSettings({ version: 4 })).toThrow(/version: must be 3 \(this file says 4\)/);
    expect(() => migrateSettings([1, 2])).toThrow(InvalidSettingsError);
    expect(() => migrateSettings(null)).toThrow(InvalidSettingsError);
  });

  it("salvages the valid fields, list items and sub-fields of an invalid file", () => {
    const good = { id: "lm", name: "LM Studio", baseUrl: "http://localhost:1234/v1", models: ["qwen"] };
    const settings = salvageSettings({
      version: 2,
      theme: "dark",
      thinkingLevel: "extreme",
      abort: { escAction: "nothing", requestTimeoutMs: "soon" },
      customProviders: [good, { id: "bad", baseUrl: "ftp://x" }],
      nonsense: true,
    });
    expect(settings).toEqual({
      ...DEFAULT_SETTINGS,
      theme: "dark",
      abort: { ...DEFAULT_SETTINGS.abort, escAction: "nothing" },
      customProviders: [good],
    });
  });
});

describe("SettingsStore", () => {
  it("starts from defaults without writing a file", () => {
    const store = SettingsStore.open({ cwd: dir });
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
    expect(store.notices).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("persists updates across re-open and notifies subscribers", () => {
    const store = SettingsStore.open({ cwd: dir });
    const seen: Settings[] = [];
    const unsubscribe = store.subscribe((s) => seen.push(s));
    const updated = store.update({ theme: "dark", abort: { requestTimeoutMs: 60_000 } });
    store.update({ theme: "dark" }); // no change: no write, no notification
    unsubscribe();
    store.update({ onboarded: true });

    expect(seen).toEqual([updated]);
    expect(Object.isFrozen(store.get().abort)).toBe(true);
    const reopened = SettingsStore.open({ cwd: dir });
    expect(reopened.get()).toEqual({ ...DEFAULT_SETTINGS, theme: "dark", onboarded: true, abort: { ...DEFAULT_SETTINGS.abort, requestTimeoutMs: 60_000 } });
    expect(reopened.notices).toEqual([]);
  });

  it("keeps window records through setWindows and validates them", () => {
    const store = SettingsStore.open({ cwd: dir, name: "prefs" });
    store.setWindows([{ sessionId: "s1", bounds: { x: 10, y: 20, width: 800, height: 600 } }, { sessionId: "s2" }]);
    expect(() => store.setWindows([{ sessionId: "" }])).toThrow(/windows\.0\.sessionId/);
    expect(SettingsStore.open({ cwd: dir, name: "prefs" }).get().windows).toEqual([
      { sessionId: "s1", bounds: { x: 10, y: 20, width: 800, height: 600 } },
      { sessionId: "s2" },
    ]);
  });

  it("migrates a version 1 file and saves it as version 3", () => {
    writeFileSync(file(), JSON.stringify(v1File));
    const store = SettingsStore.open({ cwd: dir });
    expect(store.get().steeringMode).toBe("all");
    expect(store.notices).toEqual([]);
    expect(readFile()).toEqual(store.get());
    expect(readFile().version).toBe(3);
    expect(backups()).toEqual([]);
  });

  it("migrates an unversioned file and saves it", () => {
    writeFileSync(file(), JSON.stringify({ model: "anthropic/claude-opus-4", escAbort: true }));
    const store = SettingsStore.open({ cwd: dir });
    expect(store.get().defaultModel).toEqual({ provider: "anthropic", id: "claude-opus-4" });
    expect(readFile().version).toBe(3);
  });

  it("backs up an unparsable file, restores defaults and says so", () => {
    writeFileSync(file(), '{"theme": "dark", oops');
    const store = SettingsStore.open({ cwd: dir });
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
    expect(backups()).toHaveLength(1);
    const backup = join(dir, backups()[0]);
    expect(readFileSync(backup, "utf8")).toBe('{"theme": "dark", oops');
    expect(store.notices).toEqual([
      { level: "warning", text: `Your settings file was unreadable; it was saved as ${backup} and defaults were restored.` },
    ]);
    expect(readFile()).toEqual(DEFAULT_SETTINGS);
    expect(SettingsStore.open({ cwd: dir }).notices).toEqual([]);
  });

  it("backs up an invalid file, keeps its valid fields and says what was wrong", () => {
    const invalid = { version: 2, theme: "dark", toolExecution: "whenever" };
    writeFileSync(file(), JSON.stringify(invalid));
    const store = SettingsStore.open({ cwd: dir });
    expect(store.get()).toEqual({ ...DEFAULT_SETTINGS, theme: "dark" });
    expect(backups()).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dir, backups()[0]), "utf8"))).toEqual(invalid);
    expect(store.notices).toHaveLength(1);
    expect(store.notices[0].text).toContain('toolExecution: must be one of "parallel", "sequential"');
    expect(store.notices[0].text).toContain(join(dir, backups()[0]));
    expect(readFile()).toEqual(store.get());
  });

  it("rejects an invalid patch without changing memory, the file or subscribers", () => {
    const store = SettingsStore.open({ cwd: dir });
    store.update({ theme: "light" });
    const before = readFileSync(file(), "utf8");
    let notified = 0;
    store.subscribe(() => notified++);
    expect(() => store.update({ theme: "light", abort: { requestTimeoutMs: 1 } })).toThrow(/requestTimeoutMs/);
    expect(() => store.update({ customProviders: [{ id: "x", name: "X", baseUrl: "not a url", models: [] }] })).toThrow(/baseUrl/);
    expect(readFileSync(file(), "utf8")).toBe(before);
    expect(store.get().abort.requestTimeoutMs).toBe(120_000);
    expect(notified).toBe(0);
  });

  it("writes through the store it is given (electron-store in the app), after reading and checking the file itself", () => {
    writeFileSync(file(), "{ torn");
    const written: Record<string, unknown>[] = [];
    const store = SettingsStore.open({
      cwd: dir,
      storeFactory: ({ cwd, name }) => ({
        path: join(cwd, `${name}.json`),
        get store() {
          return {};
        },
        set store(value: Record<string, unknown>) {
          written.push(value);
        },
      }),
    });
    expect(backups()).toHaveLength(1); // set aside before the store library ever opened the file
    store.update({ theme: "dark" });
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ theme: "dark", version: DEFAULT_SETTINGS.version });
  });

  it("refuses a store that writes somewhere else", () => {
    expect(() => SettingsStore.open({ cwd: dir, storeFactory: () => ({ path: join(dir, "other.json"), store: {} }) })).toThrow(/other\.json/);
  });
});
