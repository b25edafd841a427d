/**
 * Writing a file so that a crash or a full disk leaves either the old content or the new, never a torn mix: the
 * data goes to a temporary file beside it (owner-only, 0600; the folder made owner-only, 0700, if missing), is synced,
 * and renamed over the file; a failed write removes the temporary file and rethrows. Node only (main, the workers).
 */
import { randomBytes } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";

export interface AtomicWriteOptions {
  /** The temporary file's path (one a caller cleans up after a crash itself); default a fresh random name beside it. */
  temp?: string;
  /** Also sync the folder, so the rename itself survives a power cut (best effort; not on Windows). */
  syncFolder?: boolean;
}

export async function writeFileAtomically(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temp = options.temp ?? `${file}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    const handle = await open(temp, "w", 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  if (!options.syncFolder || process.platform === "win32") return;
  const folder = await open(dirname(file), "r").catch(() => undefined);
  // Best effort: some file systems refuse; the content is synced and the rename atomic either way.
  await folder?.sync().catch(() => undefined);
  await folder?.close();
}
