/**
 * "Allowed in this project": what the user allowed for every chat in a workspace folder (a tool, an exact command, a
 * network host; grant-format.ts), kept by main in one file, `project-grants.json` in the data folder, keyed by the
 * folder's real path. Electron-free.
 *
 * A project grant widens what runs without asking in every chat of the folder, so the file is read as someone
 * else's: only a regular file, never through a link, never a FIFO, at most MAX_FILE_BYTES (regular-file.ts), checked
 * in full against its schema (absolute normalised real paths, grants of the project shapes only: no prefix grant).
 * Anything else means no project grants at all, and the user is told once: a file that is not valid JSON or fails
 * the checks is copied aside (`project-grants.corrupt-<time>.json`) first; a link or FIFO is left alone (its next
 * write replaces the link itself, never what it points at). A folder's grants apply only to a workspace whose real
 * path is that very key: not its subfolders, not a sibling sharing its prefix, not another folder a link now leads to.
 */
import { realpath, writeFile } from "node:fs/promises";
import { isAbsolute, normalize } from "node:path";
import { Type, type Static } from "typebox";
import { readRegularFile } from "../../shared-node/regular-file";
import { grantLabel, isProjectGrant } from "../../shared-node/session-files/grant-format";
import { KeyedRecord } from "../../shared/keyed-record";
import type { ProjectGrants as ProjectGrantsView } from "../../shared/protocol/app-api";
import { JsonFile, type FileNotice } from "./json-file";

export const PROJECT_GRANTS_FILE = "project-grants.json";
/** A file past this is not read (a thousand projects of a hundred grants fit). */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;
const MAX_PROJECTS = 2000;
const MAX_GRANTS = 500;

const GrantsFileSchema = Type.Object(
  {
    version: Type.Literal(1),
    projects: KeyedRecord("^[\\s\\S]{1,4096}$", Type.Array(Type.String({ maxLength: 1100 }), { maxItems: MAX_GRANTS }), { maxProperties: MAX_PROJECTS }),
  },
  { additionalProperties: false },
);
type GrantsFile = Static<typeof GrantsFileSchema>;

const EMPTY: GrantsFile = { version: 1, projects: {} };

/** Rules past the schema: keys real-path shaped, each grant a project grant, none twice. */
function rules(value: GrantsFile): string[] {
  const problems: string[] = [];
  for (const [folder, grants] of Object.entries(value.projects)) {
    if (!isAbsolute(folder) || normalize(folder) !== folder || (folder.length > 1 && /[\\/]$/.test(folder)) || folder.includes("\0")) {
      problems.push(`"${folder.slice(0, 80)}" is not a folder's full path`);
    }
    for (const grant of grants) if (!isProjectGrant(grant)) problems.push(`"${String(grant).slice(0, 80)}" is not a grant`);
    if (new Set(grants).size !== grants.length) problems.push(`"${folder.slice(0, 80)}" lists a grant twice`);
  }
  return problems;
}

export class ProjectGrants {
  readonly #file: JsonFile<typeof GrantsFileSchema>;
  #value: GrantsFile = EMPTY;
  readonly #listeners = new Set<(folder: string, grants: string[]) => void>();

  private constructor(path: string) {
    this.#file = new JsonFile({
      path,
      title: "The project permissions file",
      schema: GrantsFileSchema,
      rules,
      recover: () => ({ value: EMPTY, outcome: "no project grants apply" }),
    });
  }

  /**
   * Reads `path` (see the module comment). Never throws for the file's sake: a missing file is no grants; anything
   * unusable is no grants and a notice.
   */
  static async open(path: string): Promise<{ grants: ProjectGrants; notice?: FileNotice }> {
    const grants = new ProjectGrants(path);
    const notice = await grants.#load(path);
    return { grants, ...(notice ? { notice } : {}) };
  }

  async #load(path: string): Promise<FileNotice | undefined> {
    const read = await readRegularFile(path, { maxBytes: MAX_FILE_BYTES });
    if (!read.ok) {
      if (read.kind === "missing") return undefined;
      return told(`The project permissions file ${path} is ${read.reason}, so no project grants apply (allowing something for a project replaces it)`);
    }
    let raw: unknown;
    try {
      raw = JSON.parse(read.bytes.toString("utf8"));
    } catch {
      return this.#setAside(path, read.bytes, "is not valid JSON");
    }
    const problems = this.#file.problems(raw);
    if (problems.length > 0) return this.#setAside(path, read.bytes, `had problems (${problems.slice(0, 3).join("; ")}${problems.length > 3 ? `; and ${problems.length - 3} more` : ""})`);
    this.#value = raw as GrantsFile;
    return undefined;
  }

  async #setAside(path: string, bytes: Buffer, what: string): Promise<FileNotice> {
    const stamp = new Date().toISOString().replaceAll(":", "-").replace(".", "-");
    const backup = path.replace(/\.json$/, "") + `.corrupt-${stamp}.json`;
    // The bytes read, never the path again: it may have been swapped for a FIFO or a link since.
    const kept = await writeFile(backup, bytes, { flag: "wx", mode: 0o600 }).then(() => true, () => false);
    return told(`The project permissions file ${what}${kept ? `; it was saved as ${backup}` : ""} and no project grants apply`);
  }

  /** Called with a folder's whole list whenever it changes. Returns the unsubscribe. */
  onChange(listener: (folder: string, grants: string[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The grants of the folder whose real path is exactly `realFolder`. */
  of(realFolder: string): string[] {
    return Object.hasOwn(this.#value.projects, realFolder) ? [...this.#value.projects[realFolder]] : [];
  }

  /** The grants for a workspace as it is now: by its real path (none when it is gone). */
  async forWorkspace(folder: string | undefined): Promise<{ folder?: string; grants: string[] }> {
    // Every worker start asks (a subagent's too): with no project allowing anything, no folder needs resolving.
    if (Object.keys(this.#value.projects).length === 0) return { grants: [] };
    const real = await realFolderOf(folder);
    return real ? { folder: real, grants: this.of(real) } : { grants: [] };
  }

  /** Every project's grants, for Settings; with `realFolder`, that one's only (present even when it has none). */
  view(realFolder?: string): ProjectGrantsView {
    const folders = realFolder !== undefined ? [realFolder] : Object.keys(this.#value.projects).sort();
    return {
      projects: folders.map((folder) => ({ folder, grants: this.of(folder).map((grant) => ({ grant, ...grantLabel(grant) })) })),
    };
  }

  /** Adds `grant` for the folder (a real path); rejects a grant of any other shape. Resolves once on disk. */
  async add(realFolder: string, grant: string): Promise<void> {
    if (!isProjectGrant(grant)) throw new Error("That cannot be allowed for a project.");
    const current = this.of(realFolder);
    if (current.includes(grant)) return;
    await this.#save(realFolder, [...current, grant]);
  }

  /** Removes `grant` from the folder; resolves whether it was there. Workers are told at once. */
  async remove(realFolder: string, grant: string): Promise<boolean> {
    const current = this.of(realFolder);
    if (!current.includes(grant)) return false;
    await this.#save(realFolder, current.filter((g) => g !== grant));
    return true;
  }

  async #save(folder: string, grants: string[]): Promise<void> {
    const projects = { ...this.#value.projects };
    if (grants.length > 0) projects[folder] = grants;
    else delete projects[folder];
    const next: GrantsFile = { version: 1, projects };
    await this.#file.write(next);
    this.#value = next;
    for (const listener of this.#listeners) listener(folder, [...grants]);
  }
}

function told(text: string): FileNotice {
  return { level: "warning", text: `${text}.` };
}

/** A folder's real path, or undefined when it cannot be resolved (gone, unreadable). */
export async function realFolderOf(folder: string | undefined): Promise<string | undefined> {
  if (!folder) return undefined;
  return realpath(folder).catch(() => undefined);
}
