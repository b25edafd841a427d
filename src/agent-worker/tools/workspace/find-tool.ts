import { isAbsolute, join, relative, sep } from "node:path";
import picomatch from "picomatch";
import { Type } from "typebox";
import type { AgentTool } from "../../../shared/agent/types";
import { throwIfAborted } from "./abort";
import { formatSize, MAX_BYTES } from "./limits";
import { globFilter } from "./glob-filter";
import { COMMON_RG_FLAGS, EXCLUDE_GIT_DIR, runRipgrep, type RipgrepRun } from "./ripgrep";
import { openSearchTarget } from "./search-target";
import { truncateHead, type Truncation } from "./truncate";
import type { WorkspacePaths } from "./workspace-paths";

const DEFAULT_LIMIT = 1000;

const parameters = Type.Object({
  pattern: Type.String({
    description: "Glob pattern relative to the search directory, e.g. 'src/**/*.ts'. Without '/', e.g. '*.ts', it matches file names at any depth",
  }),
  path: Type.Optional(Type.String({ description: "Directory to search in (default: current directory)" })),
  limit: Type.Optional(Type.Number({ description: "Maximum number of results (default: 1000)" })),
});

export interface FindDetails {
  resultLimitReached?: number;
  truncation?: Truncation;
}

/**
 * pi's find (which runs fd) on ripgrep's file walk: the same ignore rules (.gitignore in a git repository or not,
 * .ignore), dotfiles included. As pi 1.6.0 calls fd: a pattern without "/" matches names at any depth; a relative one
 * with "/" is anchored at the search folder ("src/*.ts" finds "src/a.ts", not "lib/src/b.ts"; "**\/src/*.ts" finds
 * both), a leading "./" dropped; an absolute one is matched against absolute paths; an all-lowercase pattern matches
 * regardless of case (fd's smart case). Folders are listed as fd lists them, with a trailing "/" ("src/"): those on the
 * way to a listed file (rg lists files only, so an empty folder, or one whose files are all ignored, is not found).
 */
export function findTool(paths: WorkspacePaths): AgentTool<typeof parameters, FindDetails | undefined> {
  return {
    name: "find",
    label: "find",
    description: `Search for files by glob pattern. Returns matching file paths relative to the search directory. Respects .gitignore. Output is truncated to ${DEFAULT_LIMIT} results or ${MAX_BYTES / 1024}KB (whichever is hit first).`,
    parameters,
    async execute(_id, { pattern, path, limit }, signal) {
      throwIfAborted(signal);
      const searchPath = await paths.resolveForReading(path || ".");
      // As pi 1.6.0: a limit below 1 would list nothing (or, for fd, everything), so it means 1; a fraction rounds down.
      const effectiveLimit = Math.max(1, Math.floor(limit ?? DEFAULT_LIMIT));
      const matcher = findMatcher(pattern, searchPath);
      // Folders have to be seen to be matched: rg lists every file, and the glob is matched here on files and folders.
      const { accepts, acceptsFolder } = matcher;

      const found: string[] = [];
      const folders = new Set<string>();
      const target = await openSearchTarget(paths, path || ".", searchPath, false);
      let run: RipgrepRun;
      try {
        run = await runRipgrep(
          [...COMMON_RG_FLAGS, "--files", ...matcher.rgArgs, ...EXCLUDE_GIT_DIR, "--", target.path],
          target.cwd,
          (line) => {
            if (!line) return true;
            const real = target.realOf(line);
            if (paths.privateReason(real, "read")) return true; // a credential store or Paddock's data inside the folder
            const path = relative(searchPath, real).split(sep).join("/") || real;
            // One result past the limit tells "exactly N" from "more than N", as pi 1.6.0.
            for (let slash = path.indexOf("/"); slash > 0 && found.length <= effectiveLimit; slash = path.indexOf("/", slash + 1)) {
              const folder = path.slice(0, slash);
              if (folders.has(folder)) continue;
              folders.add(folder);
              if (acceptsFolder(folder) && !paths.privateReason(join(searchPath, folder), "read")) found.push(`${folder}/`);
            }
            if (found.length <= effectiveLimit && accepts(path)) found.push(path);
            return found.length <= effectiveLimit;
          },
          signal,
        );
        await target.recheck();
      } finally {
        await target.close();
      }
      if (run.code === 2 && found.length === 0) throw new Error(run.stderr.trim() || "ripgrep exited with code 2");
      if (found.length === 0) return { content: [{ type: "text", text: "No files found matching pattern" }], details: undefined };

      // rg walks folders in parallel: sort, so the same tree always lists the same way.
      found.sort();
      const limitReached = found.length > effectiveLimit;
      const truncation = truncateHead(found.slice(0, effectiveLimit).join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
      const details: FindDetails = {};
      const notices: string[] = [];
      if (limitReached) {
        notices.push(`${effectiveLimit} results limit reached. Use limit=${effectiveLimit * 2} for more, or refine pattern`);
        details.resultLimitReached = effectiveLimit;
      }
      if (truncation.truncated) {
        notices.push(`${formatSize(MAX_BYTES)} limit reached`);
        details.truncation = truncation;
      }
      const text = notices.length > 0 ? `${truncation.content}\n\n[${notices.join(". ")}]` : truncation.content;
      return { content: [{ type: "text", text }], details: notices.length > 0 ? details : undefined };
    },
  };
}

interface FindMatcher {
  /** rg arguments that filter inside rg (an excluding pattern's). */
  rgArgs: string[];
  /** Whether a file (its path relative to the search folder, "/" separators) is listed. */
  accepts: (relativePath: string) => boolean;
  /** The same for a folder on the way to a listed file. */
  acceptsFolder: (relativePath: string) => boolean;
}

/** The pattern as pi 1.6.0's fd call matches it (see findTool). */
function findMatcher(pattern: string, searchPath: string): FindMatcher {
  // fd's full paths never contain "/./": pi drops a leading "./".
  const glob = pattern.replace(/^(?:\.\/)+/, "");
  if (glob.startsWith("!")) return { ...globFilter(glob), accepts: () => true, acceptsFolder: () => true }; // rg's exclusion
  const nocase = glob === glob.toLowerCase();
  if (!glob.includes("/")) {
    // fd matches a name pattern on the last part of a path.
    const matches = picomatch(glob, { dot: true, nocase });
    const accepts = (path: string) => matches(path.slice(path.lastIndexOf("/") + 1));
    return { rgArgs: [], accepts, acceptsFolder: accepts };
  }
  const absolute = isAbsolute(glob);
  const on = (matches: (path: string) => boolean) => (path: string) => matches(absolute ? `${searchPath}/${path}` : path);
  const accepts = on(picomatch(glob, { dot: true, nocase }));
  // fd's "src/**" lists what is in src, not src itself (picomatch's takes both).
  const acceptsFolder = glob.endsWith("/**") ? on(picomatch(`${glob}/*`, { dot: true, nocase })) : accepts;
  return { rgArgs: [], accepts, acceptsFolder };
}
