import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { Type } from "typebox";
import type { AgentTool } from "../../../shared/agent/types";
import { throwIfAborted } from "./abort";
import { formatSize, MAX_BYTES } from "./limits";
import { truncateHead, type Truncation } from "./truncate";
import { openFolder, type CheckedFolder } from "./checked-open";
import type { WorkspacePaths } from "./workspace-paths";

const DEFAULT_LIMIT = 500;

const parameters = Type.Object({
  path: Type.Optional(Type.String({ description: "Directory to list (default: current directory)" })),
  limit: Type.Optional(Type.Number({ description: "Maximum number of entries to return (default: 500)" })),
});

export interface LsDetails {
  entryLimitReached?: number;
  truncation?: Truncation;
}

export function lsTool(paths: WorkspacePaths): AgentTool<typeof parameters, LsDetails | undefined> {
  return {
    name: "ls",
    label: "ls",
    description: `List directory contents. Returns entries sorted alphabetically, with '/' suffix for directories. Includes dotfiles. Output is truncated to ${DEFAULT_LIMIT} entries or ${MAX_BYTES / 1024}KB (whichever is hit first).`,
    parameters,
    async execute(_id, { path, limit }, signal) {
      throwIfAborted(signal);
      const dir = await paths.resolveForReading(path || ".");
      // As pi 1.6.0: a limit below 1 would list nothing (or, for fd, everything), so it means 1; a fraction rounds down.
      const effectiveLimit = Math.max(1, Math.floor(limit ?? DEFAULT_LIMIT));
      let folder: CheckedFolder;
      try {
        folder = await openFolder(paths, path || ".", dir, "read");
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT") throw new Error(`Path not found: ${dir}`, { cause: error });
        if (code === "ENOTDIR") throw new Error(`Not a directory: ${dir}`, { cause: error });
        throw error;
      }
      const entries: string[] = [];
      let entryLimitReached = false;
      try {
        let names: string[];
        try {
          names = await readdir(folder.path);
        } catch (error) {
          throw new Error(`Cannot read directory: ${(error as Error).message.split(folder.path).join(dir)}`, { cause: error });
        }
        names.sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
        for (const name of names) {
          if (entries.length >= effectiveLimit) {
            entryLimitReached = true;
            break;
          }
          throwIfAborted(signal);
          // Followed like pi does, for the "/" of a linked folder; an entry that cannot be looked at is left out.
          const entry = await stat(join(folder.path, name)).catch(() => undefined);
          if (entry) entries.push(entry.isDirectory() ? `${name}/` : name);
        }
        await folder.recheck();
      } finally {
        await folder.close();
      }
      if (entries.length === 0) return { content: [{ type: "text", text: "(empty directory)" }], details: undefined };

      const truncation = truncateHead(entries.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
      const details: LsDetails = {};
      const notices: string[] = [];
      if (entryLimitReached) {
        notices.push(`${effectiveLimit} entries limit reached. Use limit=${effectiveLimit * 2} for more`);
        details.entryLimitReached = effectiveLimit;
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
