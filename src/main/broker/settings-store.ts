/**
 * Main's settings: one JSON file (see json-file.ts), read once at start, kept in memory, rewritten atomically on
 * every change by electron-store. Electron-free: Electron passes an electron-store through `storeFactory`; tests and
 * the Node web host use Conf, the library electron-store extends (same file, same writes).
 */
import { resolve } from "node:path";
import { isDeepStrictEqual } from "node:util";
import {
  applySettingsPatch,
  DEFAULT_SETTINGS,
  salvageSettings,
  settingsRuleErrors,
  SettingsSchema,
  upgradeSettings,
  validateSettings,
  RECENT_WORKSPACES,
  type Settings,
  type SettingsPatch,
  type WindowRecord,
} from "../../shared/settings/schema";
import Conf from "conf";
import { JsonFile, type FileNotice, type StoreBackend } from "./json-file";

/**
 * Creates the electron-store (or Conf) for `<cwd>/<name>.json`, with no defaults, schema or migrations of its own,
 * writing the file with `configFileMode` (its option of that name: the user's alone).
 */
export type SettingsBackendFactory = (options: { cwd: string; name: string; configFileMode: number }) => StoreBackend;

const confFactory: SettingsBackendFactory = ({ cwd, name, configFileMode }) => new Conf<Record<string, unknown>>({ cwd, configName: name, configFileMode });

export interface SettingsStoreOptions {
  /** The folder that holds the settings file. */
  cwd: string;
  /** The file name without `.json`; default "settings". */
  name?: string;
  /** electron-store in the app; Conf otherwise. */
  storeFactory?: SettingsBackendFactory;
}

export class SettingsStore {
  /** Problems met while opening (the file was set aside), for main to tell the user once. */
  readonly notices: readonly FileNotice[];
  readonly #file: JsonFile<typeof SettingsSchema>;
  #settings: Settings;
  #subscribers = new Set<(settings: Settings) => void>();

  private constructor(file: JsonFile<typeof SettingsSchema>, settings: Settings, notices: FileNotice[]) {
    this.#file = file;
    this.#settings = settings;
    this.notices = notices;
  }

  /**
   * Opens (never fails on the file's content): a missing file means defaults; an older version is migrated and
   * re-saved; an unparsable or invalid file is set aside (json-file.ts), replaced by defaults plus whatever valid
   * fields it held, and reported in `notices`. Throws only on I/O errors.
   */
  static open(options: SettingsStoreOptions): SettingsStore {
    const file = new JsonFile({
      path: resolve(options.cwd, `${options.name ?? "settings"}.json`),
      title: "Your settings file",
      schema: SettingsSchema,
      upgrade: upgradeSettings,
      rules: settingsRuleErrors,
      recover: (parsed) =>
        parsed === undefined
          ? { value: structuredClone(DEFAULT_SETTINGS) as Settings, outcome: "defaults were restored" }
          : { value: salvageSettings(parsed.raw), outcome: "its valid settings were kept, with defaults for the rest" },
    });
    const loaded = file.load();
    const name = options.name ?? "settings";
    file.attach((options.storeFactory ?? confFactory)({ cwd: options.cwd, name, configFileMode: 0o600 }));
    const settings = loaded.value ?? (structuredClone(DEFAULT_SETTINGS) as Settings);
    return new SettingsStore(file, frozen(settings), loaded.notice ? [loaded.notice] : []);
  }

  /** The current settings, deeply frozen: change them with `update`. */
  get(): Settings {
    return this.#settings;
  }

  /**
   * Applies a page's change, persists it, then notifies subscribers, and returns the new settings. An invalid patch
   * throws a readable Error and changes nothing, in memory or on disk. A patch that changes nothing writes nothing.
   */
  update(patch: SettingsPatch): Settings {
    return this.#commit(applySettingsPatch(this.#settings, patch));
  }

  /** Main's record of open windows (not a page's to change); validated like any update. */
  setWindows(windows: WindowRecord[]): Settings {
    const result = validateSettings({ ...this.#settings, windows: structuredClone(windows) });
    if (!result.ok) throw new Error(`Invalid window records: ${result.errors.join("; ")}`);
    return this.#commit(result.value);
  }

  /** Puts `folder` first in the recent workspaces (main's record, like the windows; at most RECENT_WORKSPACES). */
  rememberWorkspace(folder: string): Settings {
    const recent = [folder, ...this.#settings.recentWorkspaces.filter((f) => f !== folder)].slice(0, RECENT_WORKSPACES);
    const result = validateSettings({ ...this.#settings, recentWorkspaces: recent });
    if (!result.ok) throw new Error(`Invalid workspace folder: ${result.errors.join("; ")}`);
    return this.#commit(result.value);
  }

  /** Remembers that the user agreed to run these project agent files (hashes of path and content; newest kept). */
  confirmProjectAgents(hashes: readonly string[]): Settings {
    const known = this.#settings.confirmedProjectAgents.filter((h) => !hashes.includes(h));
    const result = validateSettings({ ...this.#settings, confirmedProjectAgents: [...known, ...hashes].slice(-1000) });
    if (!result.ok) throw new Error(`Invalid agent confirmation: ${result.errors.join("; ")}`);
    return this.#commit(result.value);
  }

  /** Remembers that the user agreed to use these project skills and prompt templates (hashes of path and content; newest kept). */
  confirmProjectSkills(hashes: readonly string[]): Settings {
    const known = (this.#settings.confirmedProjectSkills ?? []).filter((h) => !hashes.includes(h));
    const result = validateSettings({ ...this.#settings, confirmedProjectSkills: [...known, ...hashes].slice(-2000) });
    if (!result.ok) throw new Error(`Invalid skill confirmation: ${result.errors.join("; ")}`);
    return this.#commit(result.value);
  }

  /**
   * The MCP servers (main's McpConfig changes them, together with their secrets; pages cannot patch them). Validated
   * like any update: an invalid list throws a readable Error and changes nothing.
   */
  setMcpServers(servers: Settings["mcpServers"]): Settings {
    const result = validateSettings({ ...this.#settings, mcpServers: structuredClone(servers) });
    if (!result.ok) throw new Error(`Invalid MCP servers: ${result.errors.join("; ")}`);
    return this.#commit(result.value);
  }

  /**
   * The cloud providers' non-secret fields (main's accounts/cloud-config.ts sets them, with their secrets and a check of
   * a credentials file; pages cannot patch them). Validated like any update.
   */
  setCloudProviders(cloud: NonNullable<Settings["cloudProviders"]>): Settings {
    const result = validateSettings({ ...this.#settings, cloudProviders: structuredClone(cloud) });
    if (!result.ok) throw new Error(`Invalid cloud provider settings: ${result.errors.join("; ")}`);
    return this.#commit(result.value);
  }

  /**
   * Calls `fn` after every change that was persisted, with the new settings. `fn` must not throw (a throw propagates
   * out of `update`, after the change was saved). Returns the unsubscribe function.
   */
  subscribe(fn: (settings: Settings) => void): () => void {
    this.#subscribers.add(fn);
    return () => this.#subscribers.delete(fn);
  }

  #commit(next: Settings): Settings {
    if (isDeepStrictEqual(next, this.#settings)) return this.#settings;
    this.#file.writeSync(next);
    this.#settings = frozen(next);
    for (const fn of [...this.#subscribers]) fn(this.#settings);
    return this.#settings;
  }
}

function frozen(settings: Settings): Settings {
  const copy = structuredClone(settings);
  freezeDeep(copy);
  return copy;
}

function freezeDeep(value: unknown): void {
  if (typeof value !== "object" || value === null) return;
  for (const child of Object.values(value)) freezeDeep(child);
  Object.freeze(value);
}
