/**
 * What a vitest run was asked to run, read from its command line by the global set-ups (which vitest does not tell):
 * `vitest run test/unit/x.test.ts worker` has the filters `test/unit/x.test.ts` and `worker`, each kept to the test
 * files whose path contains it. An option's value (`--config <file>`, `-t <name>`) reads as a filter too, one that may
 * match no file; callers treat such a run as one that may run anything.
 */
import { readdirSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";

export function cliFilters(argv: readonly string[] = process.argv): string[] {
  return argv.slice(2).filter((a) => !a.startsWith("-") && a !== "run" && !a.endsWith("vitest") && !a.endsWith(".mjs"));
}

/**
 * The test files (repository-relative, `/`-separated) the filters keep, or `undefined` for "any of them": no filters,
 * or one that keeps no file under test/ (so it is an option's value, or a name this cannot see).
 */
export function filteredTestFiles(root: string, filters: readonly string[]): string[] | undefined {
  if (filters.length === 0) return undefined;
  const files = testFiles(root);
  const kept = new Set<string>();
  for (const filter of filters) {
    const needle = (isAbsolute(filter) ? relative(root, filter) : filter).split(sep).join("/").replace(/^\.\//, "");
    const matches = files.filter((file) => file.includes(needle));
    if (matches.length === 0) return undefined;
    for (const file of matches) kept.add(file);
  }
  return [...kept];
}

/** Every `*.test.ts` under test/, repository-relative. */
function testFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(join(root, dir), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith(".test.ts")) found.push(path);
    }
  };
  walk("test");
  return found;
}
