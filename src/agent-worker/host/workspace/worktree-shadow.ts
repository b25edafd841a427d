/**
 * The main repository's folder that a nested linked worktree stands in for, as pi coding-agent 1.6.0's context loader
 * finds it (`findShadowedContextFile` in its `core/resource-loader.js`). A worktree made inside its own repository
 * (`git worktree add .worktrees/feat`) has the repository's root among the folders above it, and both hold the same
 * AGENTS.md: reading both would give the model the same instructions twice, so the worktree's own copy stands in for
 * the main repository's, and a sibling worktree (`../feat`) or a plain repository is left alone.
 *
 * The files it reads (`.git`, `commondir`) are a repository's, which anyone can ship: read as regular files, a few
 * bytes at most, and only compared as paths; at worst a folder's context file is left out for the worktree's own.
 */
import { realpath, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { readRegularFile } from "../../../shared-node/regular-file";
import { within } from "../../tools/workspace/workspace-paths";

/** A `.git` file or `commondir` holds one path. */
const SMALL = { maxBytes: 4096 } as const;

/**
 * For `folder` (a real path) inside a linked worktree nested in its main repository: the main repository's root and
 * the worktree's root (real paths). Undefined anywhere else, or when the repository's files do not hold together.
 */
export async function nestedWorktree(folder: string): Promise<{ mainRoot: string; worktreeRoot: string } | undefined> {
  for (let dir = folder; ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    const info = await stat(dotGit).catch(() => undefined);
    if (info?.isDirectory()) return undefined; // a repository's own root: not a linked worktree
    if (info?.isFile()) return linkedWorktree(dir, dotGit);
    if (dirname(dir) === dir) return undefined;
  }
}

async function linkedWorktree(dir: string, dotGit: string): Promise<{ mainRoot: string; worktreeRoot: string } | undefined> {
  const pointer = await readRegularFile(dotGit, SMALL);
  const text = pointer.ok ? pointer.bytes.toString("utf8").trim() : "";
  if (!text.startsWith("gitdir: ")) return undefined;
  const gitDir = resolve(dir, text.slice("gitdir: ".length).trim());
  if (!(await stat(join(gitDir, "HEAD")).catch(() => undefined))) return undefined;
  const common = await readRegularFile(join(gitDir, "commondir"), SMALL);
  const commonGitDir = await realpath(common.ok ? resolve(gitDir, common.bytes.toString("utf8").trim()) : gitDir).catch(() => undefined);
  const worktreeRoot = await realpath(dir).catch(() => undefined);
  if (commonGitDir === undefined || worktreeRoot === undefined) return undefined;
  const mainRoot = dirname(commonGitDir);
  // A sibling worktree's main repository is not above it; a plain repository's worktree is the repository itself.
  if (!within(mainRoot, worktreeRoot) || mainRoot === worktreeRoot) return undefined;
  // The common folder is a checkout's `.git` (not a bare repository's, nor a submodule's under `.git/modules`).
  if ((await realpath(join(mainRoot, ".git")).catch(() => undefined)) !== commonGitDir) return undefined;
  return { mainRoot, worktreeRoot };
}
