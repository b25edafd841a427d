/**
 * Main's JSON files (settings, API keys, the session index), read and written one way. Electron-free.
 *
 * Reading (`load`, once, at start): a missing file is no value. A file is parsed, brought to the current layout by
 * the owner's `upgrade`, then checked against the owner's typebox schema and its further `rules`. A file that is not
 * JSON or fails the checks is *set aside*: its bytes are copied, unchanged, to `<name>.corrupt-<time>.json` beside it;
 * the owner's `recover` says what to use instead (defaults, the entries that were fine); that is written in its place;
 * and a notice tells the user both. A file that only needed upgrading is written back in the current layout.
 *
 * Writing is atomic and durable: the text goes to `<file>.tmp` in the same folder, is fsynced, renamed over the file,
 * and the folder is fsynced (not on Windows, which cannot open a folder for that). After a crash the file is the old
 * one or the new one, never a mix or empty; a temp file a crash left behind is removed at the next `load`. Writes of
 * one JsonFile run one after another, in call order. A value that fails the schema is refused before anything is
 * written. Files are created readable by their user only.
 *
 * One process writes a file (main); two JsonFiles on one path would share the temp name and must not exist.
 *
 * A file may instead be persisted by a store library (`attach`): settings are electron-store's file in the app, as
 * the product promises, and Conf's (the library electron-store extends) under Node. Reading, checking, setting aside
 * and notices stay here; the library only writes (atomically, with fsync, through `atomically`).
 */
import { closeSync, constants, copyFileSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { Static, TSchema } from "typebox";
import { schemaErrors } from "../../shared/schema-errors";
import { writeFileAtomically } from "../../shared-node/atomic-write";

/** Something the user should be told about a file (shown once in the app's notices). */
export interface FileNotice {
  level: "warning";
  text: string;
}

/** What to use instead of a file that was set aside, and how the notice ends ("…and <outcome>."). */
export interface Recovered<T> {
  value: T;
  outcome: string;
}

export interface JsonFileSpec<S extends TSchema> {
  /** The file's absolute path; its folder is created on the first write. */
  path: string;
  /** How notices name the file, capitalised: "Your settings file". */
  title: string;
  /** The current layout. */
  schema: S;
  /** Brings a parsed file of an older layout to the current one (unvalidated). Should not throw; a throw counts as invalid. */
  upgrade?(raw: unknown): unknown;
  /** Rules the schema cannot say, for a value that passes it: one readable line per problem. */
  rules?(value: Static<S>): string[];
  /**
   * What to use instead of a file that is set aside: `parsed` is the file's JSON as read (before `upgrade`), or
   * undefined when it was not JSON. The value must pass the schema and rules. Must not throw.
   */
  recover(parsed: { raw: unknown } | undefined): Recovered<Static<S>>;
}

export interface Loaded<T> {
  /** The file's content, upgraded, or what replaced it; undefined when there is no file. */
  value: T | undefined;
  /** Set when the file was set aside. */
  notice?: FileNotice;
}

/**
 * The part of electron-store / Conf a JsonFile writes through: the file's path and a whole-object setter that
 * persists synchronously. It must supply no defaults, schema or migrations: the JsonFile does all three.
 */
export interface StoreBackend {
  readonly path: string;
  store: Record<string, unknown>;
}

/** Notices name at most this many problems, then say how many more: a thousand bad entries make no readable line. */
const PROBLEMS_TOLD = 5;

export class JsonFile<S extends TSchema> {
  readonly path: string;
  readonly #spec: JsonFileSpec<S>;
  /** The last write in flight (or settled), so the next one starts after it. */
  #queue: Promise<unknown> = Promise.resolve();
  #pending = 0;
  #backend: StoreBackend | undefined;

  constructor(spec: JsonFileSpec<S>) {
    this.#spec = spec;
    this.path = spec.path;
  }

  /**
   * Reads the file (see the module comment): never fails on its content, which is either used, upgraded and
   * rewritten, or set aside and replaced with a notice. Throws only on I/O errors (a folder where the file should be,
   * no permission).
   */
  load(): Loaded<Static<S>> {
    // A temp file means a write never reached its rename: the file itself is still the truth.
    rmSync(tempOf(this.path), { force: true });
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { value: undefined };
      throw error;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return this.#setAside(undefined, "was unreadable");
    }
    let value: unknown;
    let problems: string[];
    try {
      value = this.#spec.upgrade ? this.#spec.upgrade(raw) : raw;
      problems = this.problems(value);
    } catch (error) {
      problems = [`could not be upgraded (${(error as Error).message})`];
    }
    if (problems.length > 0) return this.#setAside({ raw }, `had problems (${summarize(problems)})`);
    if (!isDeepStrictEqual(value, raw)) this.writeSync(value as Static<S>);
    return { value: value as Static<S> };
  }

  /**
   * From now on, writes go through `backend` (see the module comment). Call after `load`: a store library opening
   * a file that is not JSON throws, and `load` is what sets such a file aside. Throws when the backend writes
   * another file.
   */
  attach(backend: StoreBackend): void {
    if (resolve(backend.path) !== resolve(this.path)) throw new Error(`${basename(this.path)}: the store writes ${backend.path} instead`);
    this.#backend = backend;
  }

  /** What is wrong with `value` as this file's content (schema, then rules); empty when nothing is. */
  problems(value: unknown): string[] {
    const errors = schemaErrors(this.#spec.schema, value, "file");
    if (errors.length > 0 || !this.#spec.rules) return errors;
    return this.#spec.rules(value as Static<S>);
  }

  /**
   * Writes `value` atomically and durably before returning. Throws, writing nothing, when the value is invalid or a
   * `write` is still in flight; throws on I/O errors, leaving the previous file whole.
   */
  writeSync(value: Static<S>): void {
    if (this.#pending > 0) throw new Error(`${basename(this.path)}: a write is still in flight`);
    const text = this.#serialize(value);
    if (this.#backend) {
      this.#backend.store = JSON.parse(text) as Record<string, unknown>;
      return;
    }
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temp = tempOf(this.path);
    const fd = openSync(temp, "w", 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.path);
    syncFolder(dirname(this.path));
  }

  /**
   * Writes `value` like `writeSync`, without blocking: the value is taken (serialized) now, and the write runs after
   * every earlier `write` of this file settled. Rejects, leaving the previous file whole, on invalid values and I/O
   * errors; a failed write does not stop later ones.
   */
  write(value: Static<S>): Promise<void> {
    let text: string;
    try {
      text = this.#serialize(value);
    } catch (error) {
      return Promise.reject(error);
    }
    this.#pending++;
    const backend = this.#backend;
    const persist = backend ? async () => void (backend.store = JSON.parse(text) as Record<string, unknown>) : () => writeFileAtomically(this.path, text, { temp: tempOf(this.path), syncFolder: true });
    const run = this.#queue.then(persist).finally(() => this.#pending--);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #serialize(value: Static<S>): string {
    const problems = this.problems(value);
    if (problems.length > 0) throw new Error(`Refused to write ${basename(this.path)}: ${summarize(problems)}`);
    return `${JSON.stringify(value, null, 2)}\n`;
  }

  #setAside(parsed: { raw: unknown } | undefined, what: string): Loaded<Static<S>> {
    const backup = setAsidePath(this.path);
    // A copy, not a rename: until the replacement below is written, the file stays where it was, so a crash in
    // between sets it aside again next time rather than losing it.
    copyFileSync(this.path, backup, constants.COPYFILE_EXCL);
    const recovered = this.#spec.recover(parsed);
    this.writeSync(recovered.value);
    return {
      value: recovered.value,
      notice: { level: "warning", text: `${this.#spec.title} ${what}; it was saved as ${backup} and ${recovered.outcome}.` },
    };
  }
}

/** `<folder>/<name>.corrupt-<time>.json` for `<folder>/<name>.json`, never an existing file. */
function setAsidePath(file: string): string {
  const stem = join(dirname(file), basename(file).replace(/\.json$/, ""));
  const stamp = new Date().toISOString().replaceAll(":", "-").replace(".", "-");
  let backup = `${stem}.corrupt-${stamp}.json`;
  for (let n = 1; existsSync(backup); n++) backup = `${stem}.corrupt-${stamp}-${n}.json`;
  return backup;
}

function tempOf(file: string): string {
  return `${file}.tmp`;
}


/**
 * Makes the rename itself durable. Best effort: Windows cannot open a folder for syncing, and some file systems
 * refuse; the file's content is already synced, and the rename is atomic either way.
 */
function syncFolder(folder: string): void {
  if (process.platform === "win32") return;
  let fd: number | undefined;
  try {
    fd = openSync(folder, "r");
    fsyncSync(fd);
  } catch {
    // see above
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function summarize(problems: string[]): string {
  const told = problems.slice(0, PROBLEMS_TOLD).join("; ");
  return problems.length > PROBLEMS_TOLD ? `${told}; and ${problems.length - PROBLEMS_TOLD} more` : told;
}
