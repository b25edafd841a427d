import { openFileForWriting, replaceContent } from "./checked-open";
import type { WorkspacePaths } from "./workspace-paths";

/**
 * Writes `data` to the real path the gate returned for `input`, creating the file and its folders. Truncates in place
 * (the file keeps its mode and owner), and only once the opened file is verified (see checked-open.ts): a regular
 * file with a single link, inside the workspace.
 */
export async function writeChecked(paths: WorkspacePaths, input: string, realPath: string, data: string | Uint8Array): Promise<void> {
  const { handle } = await openFileForWriting(paths, input, realPath, true);
  try {
    await replaceContent(handle, data);
  } finally {
    await handle.close();
  }
}
