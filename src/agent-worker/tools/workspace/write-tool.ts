import { Type } from "@mariozechner/pi-ai";
import type { AgentTool } from "../../../shared/agent/types";
import { throwIfAborted } from "./abort";
import { withFileLock } from "./mutation-queue";
import { writeChecked } from "./write-file";
import type { WorkspacePaths } from "./workspace-paths";

const parameters = Type.Object({
  path: Type.String({ description: "Path to the file to write (relative or absolute)" }),
  content: Type.String({ description: "Content to write to the file" }),
});

export function writeTool(paths: WorkspacePaths): AgentTool<typeof parameters, undefined> {
  return {
    name: "write",
    label: "write",
    description:
      "Write content to a file. Creates the file if it doesn't exist, overwrites if it does. Automatically creates parent directories.",
    parameters,
    async execute(_id, { path, content }, signal) {
      throwIfAborted(signal);
      const real = await paths.resolve(path);
      await withFileLock(real, async () => {
        throwIfAborted(signal);
        await writeChecked(paths, path, real, content);
      });
      const bytes = Buffer.byteLength(content, "utf8");
      return { content: [{ type: "text", text: `Successfully wrote ${bytes} bytes to ${path}` }], details: undefined };
    },
  };
}
