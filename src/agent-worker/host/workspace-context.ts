/**
 * A workspace's project context, as pi's coding agent reads it: the first of AGENTS.md, CLAUDE.md (any case of the
 * extension) in the folder and in each folder above it, outermost first, so the nearest instructions come last.
 *
 * What is read goes into every request's system prompt, with no question asked, and a repository can ship any of
 * these files. So they are read outside the tools' path gate but by its spirit: only regular files (never a FIFO,
 * which would block the read forever); a symlink only when its real target is a regular file inside the folder the
 * link is in (the workspace for the workspace's own file; for a folder above it, that folder: `~/code/AGENTS.md` may
 * point into `~/code`); never anything in a credential folder or Paddock's data folder, link or not. A file left
 * out is reported with the reason (the chat's workspace panel shows it), never read.
 */
import { realpath } from "node:fs/promises";
import { dirname, join } from "node:path";
import { readRegularFile } from "../../shared-node/regular-file";
import { within } from "../tools/workspace/workspace-paths";

export interface ContextFile {
  path: string;
  content: string;
}

/** The context files read, and those found but left out (one line each, naming the file and why). */
/**
 * The private folder (as given) holding a real path, or undefined: the tools' and the sandbox's one deny list
 * (`WorkspacePaths.privateFolderOf`), so context files are kept out of exactly what commands and tools are.
 */
export type DeniedFolderOf = (real: string) => string | undefined;

export interface WorkspaceContext {
  files: ContextFile[];
  skipped: string[];
}

const CANDIDATES = ["AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"];
/** A context file is instructions, not a data dump: anything longer is cut, and says so. */
export const MAX_CONTEXT_FILE_CHARS = 64 * 1024;
/** Bytes enough for that many characters in any UTF-8 text; paths read are real ones. */
const READ = { maxBytes: MAX_CONTEXT_FILE_CHARS * 4, larger: "cut", real: true } as const;

/**
 * Reads the context files for `folder`, the workspace's real path (as its tools judge by; pi walks up from its real
 * working directory too). `deniedFolderOf`: the folder nothing may be read from (the credential folders, Paddock's data
 * folder). Never throws: a file that cannot or may not be read is skipped, and said so; so is a folder on the way
 * that has become a link since `folder` was found real.
 */
export async function loadContextFiles(folder: string, deniedFolderOf: DeniedFolderOf): Promise<WorkspaceContext> {
  const files: ContextFile[] = [];
  const skipped: string[] = [];
  for (let dir = folder; ; dir = dirname(dir)) {
    const found = await contextFileIn(dir, deniedFolderOf);
    if (found && "content" in found) files.unshift(found);
    else if (found) skipped.unshift(found.skipped);
    if (dirname(dir) === dir) break;
  }
  for (const line of skipped) console.warn(`paddock worker: project context ${line}`);
  return { files, skipped };
}

/** The folder's context file: read, or the reason it was not; undefined when it has none. */
async function contextFileIn(dir: string, deniedFolderOf: DeniedFolderOf): Promise<ContextFile | { skipped: string } | undefined> {
  const realDir = await realpath(dir).catch(() => undefined);
  if (realDir === undefined) return undefined;
  if (realDir !== dir) return { skipped: `${dir}: context not read (the folder now leads to ${realDir})` };
  for (const name of CANDIDATES) {
    const path = join(dir, name);
    const skip = (why: string) => ({ skipped: `${path}: not read (${why})` });
    let real = join(realDir, name);
    let read = await readRegularFile(real, READ);
    if (!read.ok && read.kind === "missing") continue;
    if (!read.ok && read.kind === "link") {
      const target = await realpath(real).catch(() => undefined);
      if (target === undefined) continue; // a link to nothing: as good as no file
      if (!within(realDir, target)) return skip(`a link to ${target}, outside ${realDir}`);
      const closed = deniedFolderOf(target);
      if (closed !== undefined) return skip(`a link into ${closed}, which Paddock never reads`);
      real = target;
      read = await readRegularFile(real, READ);
    } else {
      const closed = deniedFolderOf(real);
      if (closed !== undefined) return skip(`it is in ${closed}, which Paddock never reads`);
    }
    // A file that is the name but not a readable file (a FIFO, a folder, a link swapped in meanwhile) is this
    // folder's context file all the same: reported, and no other name is tried (on a case-insensitive disk, the
    // other spellings are the same file).
    if (!read.ok) return skip(read.reason);
    const text = read.bytes.toString("utf8");
    const cut = read.cut || text.length > MAX_CONTEXT_FILE_CHARS;
    return { path, content: cut ? `${text.slice(0, MAX_CONTEXT_FILE_CHARS)}\n\n[Cut at ${MAX_CONTEXT_FILE_CHARS} characters.]` : text };
  }
  return undefined;
}

