/**
 * V8's compile cache for Paddock's processes (the agent worker, the MCP host): every start after the first skips
 * parsing and compiling their code. Loaded by their entries before anything else, so it imports nothing but Node.
 *
 * The cache holds code the process runs: whoever can write it can run code as the user, past the app's asar
 * integrity. Node's default folder, `<tmpdir>/node-compile-cache`, is shared by every local user on Linux, so the
 * cache lives only in a folder main names (`<data folder>/compile-cache`, created readable by the user only), and
 * stays off when there is none.
 */
import * as nodeModule from "node:module";
import { statSync } from "node:fs";
import { isAbsolute } from "node:path";

/** The variable through which main names the folder (worker-process.ts sets it; nothing else should). */
export const COMPILE_CACHE_ENV = "PADDOCK_COMPILE_CACHE_DIR";

/**
 * The folder `env` names for the cache, when it is safe to run code from: an absolute path to an existing folder,
 * and (where the system has owners) one of this user's that nobody else may write. Otherwise undefined: no cache.
 * Never Node's default. One stat; never throws.
 */
export function compileCacheFolder(env: NodeJS.ProcessEnv): string | undefined {
  const folder = env[COMPILE_CACHE_ENV];
  if (!folder || !isAbsolute(folder)) return undefined;
  try {
    const stats = statSync(folder);
    if (!stats.isDirectory()) return undefined;
    // Windows has no owner ids or mode bits here: the folder is in the user's own profile.
    const uid = process.getuid?.();
    if (uid !== undefined && (stats.uid !== uid || (stats.mode & 0o022) !== 0)) return undefined;
    return folder;
  } catch {
    return undefined;
  }
}

/**
 * Turns the cache on in `compileCacheFolder(env)`, where the runtime has one (Node >= 22.1, so Electron's utility
 * processes); does nothing otherwise. Returns the folder used, if any.
 */
export function enableCompileCache(env: NodeJS.ProcessEnv): string | undefined {
  const folder = compileCacheFolder(env);
  // Older runtimes lack the function.
  const enable = (nodeModule as unknown as { enableCompileCache?: (folder: string) => unknown }).enableCompileCache;
  if (folder && enable) enable(folder);
  return folder;
}
