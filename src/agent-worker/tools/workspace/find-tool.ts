import { join, relative, sep } from "node:path";
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
    description: "Glob pattern to match files, e.g. '*.ts', '**/*.json', or 'src/**/*.spec.ts'",
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
 * .ignore), dotfiles included. A pattern without "/" matches names at any depth; one with "/" matches paths below
 * the search folder at any depth ("src/*.ts" also finds "lib/src/a.ts"), as pi's fd call does; a leading "/" anchors
 * it at the search folder. Folders are listed as fd lists them, with a trailing "/" ("src/"): those on the way to a
 * listed file (rg lists files only, so an empty folder, or one whose files are all ignored, is not found).
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
      const effectiveLimit = limit ?? DEFAULT_LIMIT;
      // As pi's fd call: a path pattern matches anywhere below the search folder.
      const glob = pattern.includes("/") && !pattern.startsWith("/") && !pattern.startsWith("**/") && pattern !== "**" ? `**/${pattern}` : pattern;
      const filter = globFilter(glob.replace(/^\//, ""));
      // Folders have to be seen to be matched: rg lists every file, and the glob is matched here on files and folders.
      const accepts = filter.accepts ?? nameMatcher(glob);
      // fd's "src/**" lists what is in src, not src itself (picomatch's takes both).
      const acceptsFolder = filter.accepts && glob.endsWith("/**") ? (globFilter(`${glob}/*`).accepts ?? accepts) : accepts;
      const rgArgs = filter.accepts || glob.startsWith("!") ? filter.rgArgs : [];

      const found: string[] = [];
      const folders = new Set<string>();
      const target = await openSearchTarget(paths, path || ".", searchPath, false);
      let run: RipgrepRun;
      try {
        run = await runRipgrep(
          [...COMMON_RG_FLAGS, "--files", ...rgArgs, ...EXCLUDE_GIT_DIR, "--", target.path],
          target.cwd,
          (line) => {
            if (!line) return true;
            const real = target.realOf(line);
            if (paths.privateReason(real, "read")) return true; // a credential store or Paddock's data inside the folder
            const path = relative(searchPath, real).split(sep).join("/") || real;
            for (let slash = path.indexOf("/"); slash > 0 && found.length < effectiveLimit; slash = path.indexOf("/", slash + 1)) {
              const folder = path.slice(0, slash);
              if (folders.has(folder)) continue;
              folders.add(folder);
              if (acceptsFolder(folder) && !paths.privateReason(join(searchPath, folder), "read")) found.push(`${folder}/`);
            }
            if (found.length < effectiveLimit && accepts(path)) found.push(path);
            return found.length < effectiveLimit;
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
      const truncation = truncateHead(found.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
      const details: FindDetails = {};
      const notices: string[] = [];
      if (found.length >= effectiveLimit) {
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

/** A name pattern ("*.ts", "src") as fd matches it: on the last part of a path. Excluding patterns ("!x") are rg's. */
function nameMatcher(glob: string): (path: string) => boolean {
  if (glob.startsWith("!")) return () => true;
  const matches = picomatch(glob.replace(/^(\*\*\/)+/, ""), { dot: true });
  return (path) => matches(path.slice(path.lastIndexOf("/") + 1));
}
