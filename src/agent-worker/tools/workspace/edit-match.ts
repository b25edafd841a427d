/**
 * Where each edit of an `edit` call applies, and the text after applying them. Matching follows pi: each oldText is
 * looked for in the ORIGINAL file (line endings seen as "\n"), exactly first, then after normalising both sides
 * (NFKC, trailing spaces of each line, typographic quotes, dashes and spaces); it must be unique (judged on the
 * normalised text, as pi does) and must not overlap another edit.
 *
 * Unlike pi, which writes the whole file back in its normalised form once any edit needed normalising, every match
 * is mapped back to its range in the original text and only those ranges change. Line endings are kept: the file's
 * "\r\n" (or lone "\r") stays, and new text takes the line ending where it goes, as pi 1.6.0's.
 */

export interface TextEdit {
  oldText: string;
  newText: string;
}

export function normalizeToLF(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/**
 * pi 1.6.0's rule for the line breaks of new text: the ending of the line holding `offset` (its own "\n" or "\r\n",
 * or the line before's for an unterminated last line). A lone "\r" counts only in a file without any "\n" (classic
 * Mac endings); elsewhere it is more likely a character inside a line.
 */
export function lineEndingAt(content: string, offset: number): "\r\n" | "\n" | "\r" {
  let lineFeed = content.indexOf("\n", offset);
  if (lineFeed === -1) lineFeed = content.lastIndexOf("\n", offset);
  if (lineFeed === -1) return content.includes("\r") ? "\r" : "\n";
  return content[lineFeed - 1] === "\r" ? "\r\n" : "\n";
}

/**
 * `text` with each line ending as one "\n", and where each of its characters starts in `text`: a range [a, b) of
 * the view is [starts[a], starts[b]) of the original.
 */
class LineFeedView {
  readonly text: string;
  private readonly starts: Int32Array | undefined;

  constructor(original: string) {
    this.text = normalizeToLF(original);
    if (!original.includes("\r")) return;
    const starts = new Int32Array(this.text.length + 1);
    let n = 0;
    for (let i = 0; i < original.length; i++) {
      starts[n++] = i;
      if (original[i] === "\r" && original[i + 1] === "\n") i++;
    }
    starts[n] = original.length;
    this.starts = starts;
  }
  toOriginal(index: number): number {
    return this.starts ? this.starts[index] : index;
  }
}

const SINGLE_QUOTES = /[\u2018\u2019\u201A\u201B]/g;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F]/g;
const DASHES = /[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g;
const SPACES = /[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g;
/** A base character with its combining marks: NFKC composes within such a unit, so units normalise apart. */
const UNIT = /\P{M}\p{M}*|\p{M}+/gsu;

function foldCharacters(text: string): string {
  return text.normalize("NFKC").replace(SINGLE_QUOTES, "'").replace(DOUBLE_QUOTES, '"').replace(DASHES, "-").replace(SPACES, " ");
}

/**
 * pi's fuzzy normalisation, remembering for every output character the range of input it came from, so a match
 * found in the normalised text maps back to the exact original characters.
 */
export function normalizeForMatch(input: string): { text: string; from: Int32Array; to: Int32Array } {
  const chars: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  let lineStart = 0;
  const trimLine = () => {
    while (chars.length > lineStart && /\s/.test(chars[chars.length - 1])) {
      chars.pop();
      from.pop();
      to.pop();
    }
  };
  for (const unit of input.matchAll(UNIT)) {
    const start = unit.index;
    const end = start + unit[0].length;
    if (unit[0] === "\n") {
      trimLine();
      chars.push("\n");
      from.push(start);
      to.push(end);
      lineStart = chars.length;
      continue;
    }
    for (const char of foldCharacters(unit[0])) {
      for (let k = 0; k < char.length; k++) {
        chars.push(char[k]);
        from.push(start);
        to.push(end);
      }
    }
  }
  trimLine();
  return { text: chars.join(""), from: Int32Array.from(from), to: Int32Array.from(to) };
}

interface Match {
  editIndex: number;
  /** Range in the line-feed view. */
  start: number;
  end: number;
  newText: string;
}

/** The original text (without BOM) with every edit applied, or an Error in pi's words. */
export function applyEdits(original: string, edits: TextEdit[], path: string): string {
  const view = new LineFeedView(original);
  const many = edits.length > 1;
  let normalized: ReturnType<typeof normalizeForMatch> | undefined;
  const matches: Match[] = [];

  edits.forEach((edit, i) => {
    const oldText = normalizeToLF(edit.oldText);
    if (oldText.length === 0) throw new Error(many ? `edits[${i}].oldText must not be empty in ${path}.` : `oldText must not be empty in ${path}.`);
    normalized ??= normalizeForMatch(view.text);
    const fuzzyOld = normalizeForMatch(oldText).text;
    const occurrences = fuzzyOld.length > 0 ? normalized.text.split(fuzzyOld).length - 1 : 0;
    let start = view.text.indexOf(oldText);
    let end = start + oldText.length;
    if (start === -1) {
      const at = fuzzyOld.length > 0 ? normalized.text.indexOf(fuzzyOld) : -1;
      if (at === -1) {
        throw new Error(
          many
            ? `Could not find edits[${i}] in ${path}. The oldText must match exactly including all whitespace and newlines.`
            : `Could not find the exact text in ${path}. The old text must match exactly including all whitespace and newlines.`,
        );
      }
      start = normalized.from[at];
      end = normalized.to[at + fuzzyOld.length - 1];
    }
    if (occurrences > 1) {
      throw new Error(
        many
          ? `Found ${occurrences} occurrences of edits[${i}] in ${path}. Each oldText must be unique. Please provide more context to make it unique.`
          : `Found ${occurrences} occurrences of the text in ${path}. The text must be unique. Please provide more context to make it unique.`,
      );
    }
    matches.push({ editIndex: i, start, end, newText: normalizeToLF(edit.newText) });
  });

  matches.sort((a, b) => a.start - b.start);
  for (let i = 1; i < matches.length; i++) {
    const [previous, current] = [matches[i - 1], matches[i]];
    if (previous.end > current.start) {
      throw new Error(
        `edits[${previous.editIndex}] and edits[${current.editIndex}] overlap in ${path}. Merge them into one edit or target disjoint regions.`,
      );
    }
  }

  const parts: string[] = [];
  let endsWithCr = false;
  const push = (part: string) => {
    if (part.length === 0) return;
    // As pi: a CR before a seam and an LF after it would merge into one CRLF (a kept lone CR, then new text starting
    // with a line break): an LF after the CR keeps the line breaks the diff shows.
    if (endsWithCr && part[0] === "\n") parts.push("\n");
    parts.push(part);
    endsWithCr = part[part.length - 1] === "\r";
  };
  let copied = 0;
  for (const match of matches) {
    const start = view.toOriginal(match.start);
    push(original.slice(copied, start));
    const ending = lineEndingAt(original, start);
    push(ending === "\n" ? match.newText : match.newText.replace(/\n/g, ending));
    copied = view.toOriginal(match.end);
  }
  push(original.slice(copied));
  const result = parts.join("");
  if (result === original) {
    throw new Error(
      many
        ? `No changes made to ${path}. The replacements produced identical content.`
        : `No changes made to ${path}. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.`,
    );
  }
  return result;
}
