/** Types for missing-binary.mjs, which run.mjs loads as plain JavaScript. */
export function whenBinaryMissing(missing: string, env: Record<string, string | undefined>): { exitCode: number; message: string };
