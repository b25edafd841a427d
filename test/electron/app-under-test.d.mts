/** Types for app-under-test.mjs, which run.mjs loads as plain JavaScript. */
export function packagedOption(args: string[], cwd: string): { rest: string[]; packaged?: string } | { error: string };
export function appUnderTest(env: Record<string, string | undefined>): { path: string; packaged: boolean } | { missing: string };
export function entryArguments(app: { packaged: boolean }, mainEntry: string): string[];
