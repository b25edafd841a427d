import { constants } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import { dirname } from "node:path";
import { NO_FOLLOW } from "./workspace-paths";

/**
 * Writes `data` to a checked real path, creating its folders. Truncates in place (the file keeps its mode and
 * owner) and refuses to follow a symlink that appeared after the check.
 */
export async function writeChecked(realPath: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(realPath), { recursive: true });
  const file = await open(realPath, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NO_FOLLOW, 0o666);
  try {
    await file.writeFile(data);
  } finally {
    await file.close();
  }
}
