/**
 * Characters that do not show as themselves: controls (a newline that reads as a space, an escape, a backspace),
 * bidirectional overrides, embeddings and isolates (U+202E draws the rest of its line backwards), zero-width and
 * other default-ignorable characters (U+200B, U+FEFF, the soft hyphen, Hangul fillers, tag characters), line and
 * paragraph separators, and spaces other than the ASCII space (which pass for a word break the shell does not make).
 * Printed raw, they let an approval question show one command while another runs. One definition, for the
 * worker's approval gate (no "allow for this chat" for a command holding any) and the page (each drawn as a visible
 * marker). Tab and the ASCII space are ordinary. Pure: no Node, no DOM.
 */

/** One hidden character, the tab and the ASCII space excepted (lone surrogates included: they draw as nothing sure). */
const HIDDEN = /(?![\t ])[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Zs}\p{Default_Ignorable_Code_Point}]/u;
const HIDDEN_ALL = new RegExp(HIDDEN.source, "gu");

/** Whether `text` holds a character that does not show as itself (see above). */
export function hasHiddenCharacters(text: string): boolean {
  return HIDDEN.test(text);
}

/** A piece of text as the page should draw it. */
export type VisibleSegment =
  /** Text that shows as itself. */
  | { text: string }
  /**
   * One hidden character: draw `marker` in its place, styled apart from text (`<U+202E>`; a newline is `⏎`),
   * with `name` as its description. `lineBreak`: a newline, which also breaks the line after its marker (the
   * shell reads it as the end of a command).
   */
  | { hidden: string; marker: string; name: string; lineBreak?: true };

/**
 * `text` split into what shows as itself and markers for each hidden character, in order; the segments' `text` and
 * `hidden` put together are `text` again. A text with nothing hidden is one segment (none for "").
 */
export function visibleSegments(text: string): VisibleSegment[] {
  const segments: VisibleSegment[] = [];
  let last = 0;
  for (const match of text.matchAll(HIDDEN_ALL)) {
    if (match.index > last) segments.push({ text: text.slice(last, match.index) });
    segments.push(marker(match[0]));
    last = match.index + match[0].length;
  }
  if (last < text.length) segments.push({ text: text.slice(last) });
  return segments;
}

/** `text` with each hidden character replaced by its marker (a newline by `⏎` and the newline): for plain-text uses. */
export function visibleText(text: string): string {
  return visibleSegments(text).map((s) => ("text" in s ? s.text : s.lineBreak ? `${s.marker}\n` : s.marker)).join("");
}

function marker(char: string): VisibleSegment {
  const code = char.codePointAt(0)!;
  if (char === "\n") return { hidden: char, marker: "⏎", name: "line break: a new line, and for the shell a new command", lineBreak: true };
  return { hidden: char, marker: `<U+${code.toString(16).toUpperCase().padStart(4, "0")}>`, name: NAMES[code] ?? kind(char) };
}

/** The ones an attacker reaches for first, by name. */
const NAMES: Record<number, string> = {
  0x00: "null character", 0x08: "backspace", 0x0d: "carriage return", 0x1b: "escape", 0x7f: "delete",
  0xa0: "no-break space", 0xad: "soft hyphen", 0x061c: "Arabic letter mark", 0x115f: "Hangul choseong filler",
  0x1160: "Hangul jungseong filler", 0x180e: "Mongolian vowel separator",
  0x200b: "zero-width space", 0x200c: "zero-width non-joiner", 0x200d: "zero-width joiner",
  0x200e: "left-to-right mark", 0x200f: "right-to-left mark",
  0x202a: "left-to-right embedding", 0x202b: "right-to-left embedding", 0x202c: "pop directional formatting",
  0x202d: "left-to-right override", 0x202e: "right-to-left override",
  0x2028: "line separator", 0x2029: "paragraph separator", 0x2060: "word joiner",
  0x2066: "left-to-right isolate", 0x2067: "right-to-left isolate", 0x2068: "first strong isolate", 0x2069: "pop directional isolate",
  0x3164: "Hangul filler", 0xfeff: "zero-width no-break space (byte order mark)", 0xffa0: "halfwidth Hangul filler",
};

function kind(char: string): string {
  if (/\p{Cc}/u.test(char)) return "control character";
  if (/\p{Zs}/u.test(char)) return "a space that is not the ordinary space";
  if (/\p{Cs}/u.test(char)) return "broken character (a lone surrogate)";
  return "invisible formatting character";
}
