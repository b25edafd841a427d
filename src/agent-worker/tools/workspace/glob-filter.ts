import picomatch from "picomatch";

export interface GlobFilter {
  /** rg arguments that do the filtering inside rg. */
  rgArgs: string[];
  /** Otherwise a test on the path relative to the search folder ("/" separators). */
  accepts?: (relativePath: string) => boolean;
}

/**
 * A glob as a filter that keeps .gitignore in force. rg's own `--glob` cannot be used for it: an including glob
 * overrides every ignore rule (`--glob '*.log'` would list ignored logs). So:
 * - a name pattern ("*.ts", "*.{js,jsx}") becomes an rg file type, which filters without overriding ignores;
 * - an excluding pattern ("!*.min.js") stays an rg glob (excluding more never un-ignores anything);
 * - a path pattern ("src/**\/*.ts") is matched here on the paths rg lists.
 */
export function globFilter(glob: string): GlobFilter {
  if (glob.startsWith("!")) return { rgArgs: ["--glob", glob] };
  const name = glob.replace(/^(\*\*\/)+/, ""); // "**/*.ts" is a name pattern too
  if (!name.includes("/")) return { rgArgs: ["--type-add", `paddockglob:${name}`, "--type", "paddockglob"] };
  const matches = picomatch(glob, { dot: true });
  return { rgArgs: [], accepts: (path) => matches(path) };
}
