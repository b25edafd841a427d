/**
 * A workspace's project context, as pi's coding agent reads it: the first of AGENTS.md, CLAUDE.md (any case of the
 * extension) in the folder and in each folder above it, outermost first, so the nearest instructions come last.
 */
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";

export interface ContextFile {
  path: string;
  content: string;
}

const CANDIDATES = ["AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"];
/** A context file is instructions, not a data dump: anything longer is cut, and says so. */
export const MAX_CONTEXT_FILE_CHARS = 64 * 1024;

/** Reads the context files for `folder` (absolute). Never throws: an unreadable file is skipped. */
export async function loadContextFiles(folder: string): Promise<ContextFile[]> {
  const found: ContextFile[] = [];
  for (let dir = folder; ; dir = dirname(dir)) {
    const file = await firstReadable(dir);
    if (file) found.unshift(file);
    if (dirname(dir) === dir) break;
  }
  return found;
}

async function firstReadable(dir: string): Promise<ContextFile | undefined> {
  for (const name of CANDIDATES) {
    const path = join(dir, name);
    try {
      const text = await readFile(path, "utf8");
      const content = text.length > MAX_CONTEXT_FILE_CHARS ? `${text.slice(0, MAX_CONTEXT_FILE_CHARS)}\n\n[Cut at ${MAX_CONTEXT_FILE_CHARS} characters.]` : text;
      return { path, content };
    } catch {
      // not there, or not readable: the next name
    }
  }
  return undefined;
}
