/**
 * A workspace's project context, as pi coding-agent 1.6.0's resource loader reads it: pi's user folder's own file
 * first (`~/.pi/agent/AGENTS.md`, for instructions a pi user gives every project), then the workspace's and each
 * folder's above it, outermost first, so the nearest instructions come last. In each folder the first of
 * AGENTS.override.md, AGENTS.md, CLAUDE.md (either case of the extension) is read: an override stands in for the
 * folder's AGENTS.md (a local file kept out of the repository, say). In a git worktree made inside its own repository,
 * the worktree's file stands in for the repository's copy of the same name (worktree-shadow.ts), as in pi.
 *
 * What is read goes into every request's system prompt, with no question asked, and a repository can ship any of
 * these files. So they are read outside the tools' path gate but by its spirit: only regular files (never a FIFO,
 * which would block the read forever); a symlink only when its real target is a regular file inside the folder the
 * link is in (the workspace for the workspace's own file; for a folder above it, that folder: `~/code/AGENTS.md` may
 * point into `~/code`); never anything in a credential folder or Paddock's data folder, link or not. A file left
 * out is reported with the reason (the chat's workspace panel shows it), never read.
 */
import { realpath } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { readRegularFile } from "../../../shared-node/regular-file";
import { within } from "../../tools/workspace/workspace-paths";
import { nestedWorktree } from "./worktree-shadow";

export interface ContextFile {
  path: string;
  content: string;
}

/**
 * The private folder (as given) holding a real path, or undefined: the tools' and the sandbox's one deny list
 * (`WorkspacePaths.privateFolderOf`), so context files are kept out of exactly what commands and tools are.
 */
export type DeniedFolderOf = (real: string) => string | undefined;

/** The context files read, and those found but left out (one line each, naming the file and why). */
export interface WorkspaceContext {
  files: ContextFile[];
  skipped: string[];
}

/** pi 1.6.0's names, in its order. */
const CANDIDATES = ["AGENTS.override.md", "AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"];
/** An override that cannot be read is reported and the folder's usual file read instead (pi passes over it too). */
const OVERRIDE = "AGENTS.override.md";
/** A context file is instructions, not a data dump: anything longer is cut, and says so. */
export const MAX_CONTEXT_FILE_CHARS = 64 * 1024;
/** Bytes enough for that many characters in any UTF-8 text; paths read are real ones. */
const READ = { maxBytes: MAX_CONTEXT_FILE_CHARS * 4, larger: "cut", real: true } as const;

/**
 * Reads the context files for `folder`, the workspace's real path (as its tools judge by; pi walks up from its real
 * working directory too). `deniedFolderOf`: the folder nothing may be read from (the credential folders, Paddock's data
 * folder). `userFolder`: pi's user folder (`piAgentFolder()`), whose context file comes first; it may be a link (a
 * dotfiles checkout), and is read where it leads, by the same rules. Never throws: a file that cannot or may not be
 * read is skipped, and said so; so is a folder on the way that has become a link since `folder` was found real.
 */
export async function loadContextFiles(folder: string, deniedFolderOf: DeniedFolderOf, userFolder?: string): Promise<WorkspaceContext> {
  const files: ContextFile[] = [];
  const skipped: string[] = [];
  const nested = await nestedWorktree(folder);
  let worktreeFile: string | undefined;
  for (let dir = folder; ; dir = dirname(dir)) {
    const found = await contextFileIn(dir, deniedFolderOf);
    if (dir === nested?.worktreeRoot) worktreeFile = found.file && basename(found.file.path);
    // As pi: in a worktree nested in its repository, the worktree's own file stands in for the repository's copy.
    const shadowed = dir === nested?.mainRoot && found.file !== undefined && basename(found.file.path) === worktreeFile;
    if (found.file && !shadowed) files.unshift(found.file);
    skipped.unshift(...found.skipped);
    if (dirname(dir) === dir) break;
  }
  if (userFolder !== undefined) {
    const userDir = await realpath(userFolder).catch(() => undefined);
    const found = userDir === undefined ? { skipped: [] } : await contextFileIn(userDir, deniedFolderOf);
    // pi reads a file once: a user folder on the workspace's way up has been read there already.
    if (found.file && !files.some((f) => f.path === found.file!.path)) files.unshift(found.file);
    skipped.unshift(...found.skipped.filter((line) => !skipped.includes(line)));
  }
  for (const line of skipped) console.warn(`paddock worker: project context ${line}`);
  return { files, skipped };
}

/** The folder's context file, if it has one, and the names found there but not read, with the reason. */
async function contextFileIn(dir: string, deniedFolderOf: DeniedFolderOf): Promise<{ file?: ContextFile; skipped: string[] }> {
  const realDir = await realpath(dir).catch(() => undefined);
  if (realDir === undefined) return { skipped: [] };
  if (realDir !== dir) return { skipped: [`${dir}: context not read (the folder now leads to ${realDir})`] };
  const skipped: string[] = [];
  for (const name of CANDIDATES) {
    const path = join(dir, name);
    /** Reports the name as not read; whether the folder's next name is tried (only past an override, as pi passes it). */
    const passOver = (why: string) => {
      skipped.push(`${path}: not read (${why})`);
      return name === OVERRIDE;
    };
    let real = join(realDir, name);
    let read = await readRegularFile(real, READ);
    if (!read.ok && read.kind === "missing") continue;
    if (!read.ok && read.kind === "link") {
      const target = await realpath(real).catch(() => undefined);
      if (target === undefined) continue; // a link to nothing: as good as no file
      const closed = deniedFolderOf(target);
      const refused = !within(realDir, target)
        ? `a link to ${target}, outside ${realDir}`
        : closed !== undefined
          ? `a link into ${closed}, which Paddock never reads`
          : undefined;
      if (refused !== undefined) {
        if (passOver(refused)) continue;
        return { skipped };
      }
      real = target;
      read = await readRegularFile(real, READ);
    } else {
      const closed = deniedFolderOf(real);
      if (closed !== undefined) {
        if (passOver(`it is in ${closed}, which Paddock never reads`)) continue;
        return { skipped };
      }
    }
    // A file that is the name but not a readable file (a FIFO, a folder, a link swapped in meanwhile) is this
    // folder's context file all the same: reported, and no other name is tried (on a case-insensitive disk, the
    // other spellings are the same file). An override alone is passed over, to the folder's usual file.
    if (!read.ok) {
      if (passOver(read.reason)) continue;
      return { skipped };
    }
    const text = read.bytes.toString("utf8");
    const cut = read.cut || text.length > MAX_CONTEXT_FILE_CHARS;
    return { file: { path, content: cut ? `${text.slice(0, MAX_CONTEXT_FILE_CHARS)}\n\n[Cut at ${MAX_CONTEXT_FILE_CHARS} characters.]` : text }, skipped };
  }
  return { skipped };
}

