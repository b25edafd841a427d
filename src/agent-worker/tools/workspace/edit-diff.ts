import { createTwoFilesPatch, diffLines } from "diff";

/**
 * pi's diff for the UI: changed lines with their line numbers ("+12 new", "-12 old"), four lines of context around
 * each change and " ..." for what is skipped. `firstChangedLine` is in the new file.
 */
export function numberedDiff(oldText: string, newText: string, context = 4): { diff: string; firstChangedLine: number | undefined } {
  const parts = diffLines(oldText, newText);
  const width = String(Math.max(oldText.split("\n").length, newText.split("\n").length)).length;
  const pad = (n: number) => String(n).padStart(width, " ");
  const skipped = ` ${"".padStart(width, " ")} ...`;
  const out: string[] = [];
  let oldLine = 1;
  let newLine = 1;
  let firstChangedLine: number | undefined;
  let afterChange = false;
  const showContext = (lines: string[]) => {
    for (const line of lines) {
      out.push(` ${pad(oldLine)} ${line}`);
      oldLine++;
      newLine++;
    }
  };
  const skip = (count: number) => {
    if (count <= 0) return;
    out.push(skipped);
    oldLine += count;
    newLine += count;
  };

  parts.forEach((part, i) => {
    const lines = part.value.split("\n");
    if (lines.at(-1) === "") lines.pop();
    if (part.added || part.removed) {
      firstChangedLine ??= newLine;
      for (const line of lines) {
        if (part.added) out.push(`+${pad(newLine++)} ${line}`);
        else out.push(`-${pad(oldLine++)} ${line}`);
      }
      afterChange = true;
      return;
    }
    const beforeChange = i < parts.length - 1 && (parts[i + 1].added || parts[i + 1].removed);
    if (afterChange && beforeChange && lines.length <= context * 2) showContext(lines);
    else if (afterChange && beforeChange) {
      showContext(lines.slice(0, context));
      skip(lines.length - context * 2);
      showContext(lines.slice(-context));
    } else if (afterChange) {
      showContext(lines.slice(0, context));
      skip(lines.length - context);
    } else if (beforeChange) {
      skip(lines.length - context);
      showContext(lines.slice(Math.max(0, lines.length - context)));
    } else {
      oldLine += lines.length;
      newLine += lines.length;
    }
    afterChange = false;
  });
  return { diff: out.join("\n"), firstChangedLine };
}

/** A standard unified diff (`--- a/path`, `+++ b/path`, `@@` hunks) for tools that apply or show patches. */
export function unifiedDiff(path: string, oldText: string, newText: string): string {
  // jsdiff opens with a line of "=" (from `svn diff`), which git's and patch's format has not.
  return createTwoFilesPatch(`a/${path}`, `b/${path}`, oldText, newText, undefined, undefined, { context: 3 }).replace(/^=+\n/, "");
}
