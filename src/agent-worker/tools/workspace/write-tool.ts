import { Type } from "typebox";
import type { AgentTool } from "../../../shared/agent/types";
import { throwIfAborted } from "./abort";
import { withFileLock } from "./mutation-queue";
import { writeChecked } from "./write-file";
import type { WorkspacePaths } from "./workspace-paths";
import type { ProtectedChanges } from "./protected-changes";
import { previewChange } from "./change-preview";

/** Paddock's, for the call's card (the model reads the text): the unified diff the write made, as edit's `patch`. */
export interface WriteDetails {
  patch?: string;
}

const parameters = Type.Object({
  path: Type.String({ description: "Path to the file to write (relative or absolute)" }),
  content: Type.String({ description: "Content to write to the file" }),
});

/** @param protectedFiles the approval's word on protected files (protected-changes.ts); absent: none are checked. */
export function writeTool(paths: WorkspacePaths, protectedFiles?: ProtectedChanges): AgentTool<typeof parameters, WriteDetails | undefined> {
  return {
    name: "write",
    label: "write",
    description:
      "Write content to a file. Creates the file if it doesn't exist, overwrites if it does. Automatically creates parent directories.",
    parameters,
    async execute(id, { path, content }, signal) {
      throwIfAborted(signal);
      const real = await paths.resolve(path);
      protectedFiles?.check(id, real);
      const patch = await withFileLock(real, async () => {
        throwIfAborted(signal);
        // What the file was, read under the lock just before it is replaced (undefined when it cannot be read).
        const diff = await previewChange(paths, "write", { path, content });
        await writeChecked(paths, path, real, content);
        return diff;
      });
      const bytes = Buffer.byteLength(content, "utf8");
      return { content: [{ type: "text", text: `Successfully wrote ${bytes} bytes to ${path}` }], details: patch ? { patch } : undefined };
    },
  };
}
