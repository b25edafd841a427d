import { basename, relative, sep } from "node:path";
import { Type } from "typebox";
import type { AgentTool } from "../../../shared/agent/types";
import { throwIfAborted } from "./abort";
import { formatSize, GREP_MAX_LINE_CHARS, MAX_BYTES } from "./limits";
import { globFilter } from "./glob-filter";
import { COMMON_RG_FLAGS, EXCLUDE_GIT_DIR, runRipgrep, type RipgrepRun } from "./ripgrep";
import { openSearchTarget } from "./search-target";
import { truncateHead, truncateLine, type Truncation } from "./truncate";
import type { WorkspacePaths } from "./workspace-paths";

const DEFAULT_LIMIT = 100;

const parameters = Type.Object({
  pattern: Type.String({ description: "Search pattern (regex or literal string)" }),
  path: Type.Optional(Type.String({ description: "Directory or file to search (default: current directory)" })),
  glob: Type.Optional(Type.String({ description: "Filter files by glob pattern relative to path, e.g. 'src/**/*.ts'. Without '/', e.g. '*.ts', it matches file names at any depth" })),
  ignoreCase: Type.Optional(Type.Boolean({ description: "Case-insensitive search (default: false)" })),
  literal: Type.Optional(Type.Boolean({ description: "Treat pattern as literal string instead of regex (default: false)" })),
  context: Type.Optional(Type.Number({ description: "Number of lines to show before and after each match (default: 0)" })),
  limit: Type.Optional(Type.Number({ description: "Maximum number of matches to return (default: 100)" })),
});

export interface GrepDetails {
  matchLimitReached?: number;
  truncation?: Truncation;
  linesTruncated?: boolean;
}

/** rg's JSON text field: UTF-8 as `text`, anything else as base64 `bytes`. */
type RgText = { text: string } | { bytes: string };
interface RgLineEvent {
  type: "match" | "context";
  data: { path: RgText; lines: RgText; line_number: number };
}

const textOf = (value: RgText) => ("text" in value ? value.text : Buffer.from(value.bytes, "base64").toString("utf8"));

/**
 * pi's grep on ripgrep's JSON output, with pi's lines (`path:12: text`, context `path-11- text`), limits and
 * notices. Context comes from rg itself instead of re-reading each file, so overlapping context is shown once.
 */
export function grepTool(paths: WorkspacePaths): AgentTool<typeof parameters, GrepDetails | undefined> {
  return {
    name: "grep",
    label: "grep",
    description: `Search file contents for a pattern. Returns matching lines with file paths and line numbers. Respects .gitignore, and skips .git folders. Output is truncated to ${DEFAULT_LIMIT} matches or ${MAX_BYTES / 1024}KB (whichever is hit first). Long lines are truncated to ${GREP_MAX_LINE_CHARS} chars.`,
    parameters,
    async execute(_id, { pattern, path, glob, ignoreCase, literal, context, limit }, signal) {
      throwIfAborted(signal);
      const searchPath = await paths.resolveForReading(path || ".");
      const contextLines = context && context > 0 ? Math.floor(context) : 0;
      const effectiveLimit = Math.max(1, Math.floor(limit ?? DEFAULT_LIMIT));
      const formatPath = (file: string) => {
        const inside = target.isDirectory ? relative(searchPath, file) : "";
        return inside && !inside.startsWith("..") ? inside.split(sep).join("/") : basename(file);
      };

      const args = [...COMMON_RG_FLAGS, "--json", "--line-number"];
      if (ignoreCase) args.push("--ignore-case");
      if (literal) args.push("--fixed-strings");
      if (contextLines > 0) args.push("--context", String(contextLines));
      // Relative to the search folder, as rg's own --glob would take it (see glob-filter.ts for why it is not used).
      // rg never matches a leading "./" (pi 1.6.0 drops it too); "!" still excludes.
      const filter = glob ? globFilter(glob.replace(/^(!?)(?:\.\/)+/, "$1")) : undefined;
      if (filter) args.push(...filter.rgArgs);
      args.push(...EXCLUDE_GIT_DIR, "--", pattern);

      // rg searches files in parallel; each file's lines come together, so files are sorted after, for a stable order.
      const blocks: { file: string; lines: string[] }[] = [];
      let matches = 0;
      let linesTruncated = false;
      let last: { path: string; line: number } | undefined; // the match that reached the limit
      let more = false;
      const target = await openSearchTarget(paths, path || ".", searchPath, true);
      let run: RipgrepRun;
      try {
        run = await runRipgrep(
          [...args, target.path],
          target.cwd,
          (line) => {
            if (!line.startsWith('{"type":"match"') && !line.startsWith('{"type":"context"')) return true;
            const event = JSON.parse(line) as RgLineEvent;
            const file = target.realOf(textOf(event.data.path));
            if (paths.privateReason(file, "read")) return true; // a credential store or Paddock's data inside the folder
            if (filter?.accepts && !filter.accepts(relative(searchPath, file).split(sep).join("/"))) return true;
            const lineNumber = event.data.line_number;
            if (last && event.type === "match") {
              more = true; // one match past the limit: proof that the limit hid some (pi 1.6.0 waits for it too)
              return false;
            }
            if (last && (file !== last.path || lineNumber > last.line + contextLines)) return true; // not the last match's context
            const text = textOf(event.data.lines).replace(/\r?\n$/, "").replace(/\r/g, "");
            const cut = truncateLine(text);
            linesTruncated ||= cut.wasTruncated;
            const separator = event.type === "match" ? ":" : "-";
            if (blocks.at(-1)?.file !== file) blocks.push({ file, lines: [] });
            blocks.at(-1)!.lines.push(`${formatPath(file)}${separator}${lineNumber}${separator} ${cut.text}`);
            if (event.type === "match" && ++matches >= effectiveLimit) last = { path: file, line: lineNumber };
            return true;
          },
          signal,
          target.stdin,
        );
        await target.recheck();
      } finally {
        await target.close();
      }
      if (run.code === 2 && matches === 0) throw new Error(run.stderr.trim() || "ripgrep exited with code 2");
      if (matches === 0) return { content: [{ type: "text", text: "No matches found" }], details: undefined };

      blocks.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
      const output = blocks.flatMap((block) => block.lines);
      const truncation = truncateHead(output.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
      const details: GrepDetails = {};
      const notices: string[] = [];
      if (more) {
        notices.push(`${effectiveLimit} matches limit reached. Use limit=${effectiveLimit * 2} for more, or refine pattern`);
        details.matchLimitReached = effectiveLimit;
      }
      if (truncation.truncated) {
        notices.push(`${formatSize(MAX_BYTES)} limit reached`);
        details.truncation = truncation;
      }
      if (linesTruncated) {
        notices.push(`Some lines truncated to ${GREP_MAX_LINE_CHARS} chars. Use read tool to see full lines`);
        details.linesTruncated = true;
      }
      const text = notices.length > 0 ? `${truncation.content}\n\n[${notices.join(". ")}]` : truncation.content;
      return { content: [{ type: "text", text }], details: notices.length > 0 ? details : undefined };
    },
  };
}
