/**
 * Which workspace paths a checkpoint leaves out: `.git` anywhere (a folder or a worktree's `.git` file: the user's
 * repository is never read into the store, never written), and what `.gitignore` files ignore, the root's and nested
 * ones, under `.git/info/exclude` when there is one. Matching is the `ignore` package's (git's rules); a deeper
 * file's `!pattern` re-includes what a shallower one ignored, as in git, and nothing under an ignored folder is seen.
 */
import ignore, { type Ignore } from "ignore";
import { closeSync, readFileSync, type Stats } from "node:fs";
import { openRegularFileSync } from "../regular-file";

export const GIT_NAME = ".git";
export const GITIGNORE_NAME = ".gitignore";
const MAX_RULES_BYTES = 1024 * 1024;

/** One folder's rules and its parent's: `base` is the folder, relative to the workspace ("" = the root). */
export class IgnoreRules {
  /** The rules from the root's down to these, the order git applies them in. */
  private readonly chain: IgnoreRules[];

  constructor(
    readonly base: string,
    private readonly rules: Ignore | null,
    parent: IgnoreRules | null,
  ) {
    this.chain = [...(parent?.chain ?? []), this].filter((r) => r.rules !== null);
  }

  static none(): IgnoreRules {
    return new IgnoreRules("", null, null);
  }

  /** The rules for the folder `base` given the text of its `.gitignore` (none: the parent's rules as they are). */
  child(base: string, text: string | null): IgnoreRules {
    if (text === null || text.trim() === "") return this;
    return new IgnoreRules(base, ignore().add(text), this);
  }

  /** Whether `rel` (relative to the workspace, "/"-separated) is ignored; `isDir` matters for `dir/` patterns. */
  ignores(rel: string, isDir: boolean): boolean {
    let verdict = false;
    for (const rules of this.chain) {
      const local = rules.base === "" ? rel : rel.slice(rules.base.length + 1);
      const result = rules.rules!.test(isDir ? `${local}/` : local);
      if (result.ignored) verdict = true;
      else if (result.unignored) verdict = false;
    }
    return verdict;
  }
}

/** A rules file's text, read without following a link or opening a FIFO; null when absent or not a regular file. */
export function readRulesFile(abs: string, stat?: Stats): string | null {
  if (stat && (!stat.isFile() || stat.size > MAX_RULES_BYTES)) return null;
  const opened = openRegularFileSync(abs);
  if (!opened) return null;
  try {
    return opened.stat.size <= MAX_RULES_BYTES ? readFileSync(opened.fd, "utf8") : null;
  } catch {
    return null;
  } finally {
    closeSync(opened.fd);
  }
}
