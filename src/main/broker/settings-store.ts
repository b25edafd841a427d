/**
 * Main's settings: one JSON file, read once at start, kept in memory, rewritten (atomically, by conf) on every
 * change. Electron-free: Electron passes an electron-store (which extends Conf) through `storeFactory`; tests and
 * the Node web host use Conf itself.
 */
import { existsSync, readFileSync, renameSync } from "node:fs";
import { resolve } from "node:path";
import { isDeepStrictEqual } from "node:util";
import Conf from "conf";
import {
  applySettingsPatch,
  DEFAULT_SETTINGS,
  migrateSettings,
  salvageSettings,
  validateSettings,
  InvalidSettingsError,
  RECENT_WORKSPACES,
  type Settings,
  type SettingsPatch,
  type WindowRecord,
} from "../../shared/settings/schema";

export interface SettingsStoreNotice {
  level: "warning";
  text: string;
}

/** The part of Conf / electron-store this store uses: the file's path and whole-object read and write. */
export interface SettingsBackend {
  readonly path: string;
  store: Record<string, unknown>;
}

/**
 * Creates the backend for `<cwd>/<name>.json`. It must not supply defaults, a schema or migrations (this store does
 * all three), and its `path` must be exactly that file.
 */
export type SettingsBackendFactory = (options: { cwd: string; name: string }) => SettingsBackend;

export interface SettingsStoreOptions {
  /** The folder that holds the settings file. */
  cwd: string;
  /** The file name without `.json`; default "settings". */
  name?: string;
  storeFactory?: SettingsBackendFactory;
}

const confFactory: SettingsBackendFactory = ({ cwd, name }) =>
  new Conf<Record<string, unknown>>({ cwd, configName: name });

export class SettingsStore {
  readonly notices: readonly SettingsStoreNotice[];
  #backend: SettingsBackend;
  #settings: Settings;
  #subscribers = new Set<(settings: Settings) => void>();

  private constructor(backend: SettingsBackend, settings: Settings, notices: SettingsStoreNotice[]) {
    this.#backend = backend;
    this.#settings = settings;
    this.notices = notices;
  }

  /**
   * Opens (never fails on the file's content): a missing file means defaults; an older version is migrated and
   * re-saved; an unparsable or invalid file is moved aside to `<name>.corrupt-<timestamp>.json`, replaced by defaults
   * plus whatever valid fields it held, and reported in `notices`. Throws only on I/O errors, or when the factory's
   * backend writes some other file.
   */
  static open(options: SettingsStoreOptions): SettingsStore {
    const name = options.name ?? "settings";
    const file = resolve(options.cwd, `${name}.json`);
    const notices: SettingsStoreNotice[] = [];
    const loaded = readSettingsFile(file, notices);
    const backend = (options.storeFactory ?? confFactory)({ cwd: options.cwd, name });
    if (resolve(backend.path) !== file) {
      throw new Error(`Settings backend writes ${backend.path}, expected ${file}`);
    }
    if (loaded.resave) backend.store = structuredClone(loaded.settings);
    return new SettingsStore(backend, frozen(loaded.settings), notices);
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
    this.#backend.store = structuredClone(next);
    this.#settings = frozen(next);
    for (const fn of [...this.#subscribers]) fn(this.#settings);
    return this.#settings;
  }
}

interface LoadedSettings {
  settings: Settings;
  /** Whether the file must be rewritten (migrated, defaults filled in, or recovered). */
  resave: boolean;
}

function readSettingsFile(file: string, notices: SettingsStoreNotice[]): LoadedSettings {
  if (!existsSync(file)) return { settings: structuredClone(DEFAULT_SETTINGS) as Settings, resave: false };
  const text = readFileSync(file, "utf8");
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    const backup = moveAside(file);
    notices.push({
      level: "warning",
      text: `Your settings file was unreadable; it was saved as ${backup} and defaults were restored.`,
    });
    return { settings: structuredClone(DEFAULT_SETTINGS) as Settings, resave: true };
  }
  try {
    const settings = migrateSettings(raw);
    return { settings, resave: !isDeepStrictEqual(settings, raw) };
  } catch (error) {
    if (!(error instanceof InvalidSettingsError)) throw error;
    const backup = moveAside(file);
    notices.push({
      level: "warning",
      text:
        `Some of your settings were invalid (${error.errors.join("; ")}); the file was saved as ${backup}, ` +
        `the valid settings were kept and defaults were restored for the rest.`,
    });
    return { settings: salvageSettings(raw), resave: true };
  }
}

/** Renames `file` to `<name>.corrupt-<timestamp>.json` beside it (never overwriting) and returns the new path. */
function moveAside(file: string): string {
  const stem = file.replace(/\.json$/, "");
  const stamp = new Date().toISOString().replaceAll(":", "-").replace(".", "-");
  let backup = `${stem}.corrupt-${stamp}.json`;
  for (let n = 1; existsSync(backup); n++) backup = `${stem}.corrupt-${stamp}-${n}.json`;
  renameSync(file, backup);
  return backup;
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
