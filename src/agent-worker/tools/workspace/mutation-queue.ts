const queues = new Map<string, Promise<unknown>>();

/**
 * Runs changes to one file one after another (two edits of a file in one parallel batch would otherwise each read the
 * original and the second write would undo the first); changes to different files still run together. Keyed by the
 * real path the workspace resolved.
 */
export async function withFileLock<T>(realPath: string, change: () => Promise<T>): Promise<T> {
  const previous = queues.get(realPath) ?? Promise.resolve();
  const run = previous.then(change);
  const settled = run.catch(() => {});
  queues.set(realPath, settled);
  try {
    return await run;
  } finally {
    if (queues.get(realPath) === settled) queues.delete(realPath);
  }
}
