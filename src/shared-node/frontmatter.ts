/**
 * A Markdown file's YAML frontmatter, read as pi-coding-agent reads skills' and prompt templates' (its
 * `parseFrontmatter`), but only ever as data: the `yaml` package's default schema has no tags that construct
 * functions or objects, and frontmatter in another language (`---js`, `---javascript`: gray-matter runs those as code)
 * is refused, not read. Never throws: a file that cannot be read this way is a reason in words.
 *
 * Node only (main); no Electron.
 */
import { parseDocument } from "yaml";

export type Frontmatter =
  | { ok: true; fields: Record<string, unknown>; body: string }
  | { ok: false; reason: string };

/**
 * Splits `text` into its frontmatter fields and body. As pi: a BOM is dropped and line ends become `\n`; a file that
 * does not open with `---` (or never closes it) has no fields and is all body; the body is trimmed. Unlike pi, the
 * opening and closing lines must be exactly `---` (pi takes `---js` for `---`, and `----` for the end).
 */
export function parseFrontmatter(text: string): Frontmatter {
  const normalized = (text.startsWith("\uFEFF") ? text.slice(1) : text).replace(/\r\n/g, "\n").replace(/\r/g, "\n");
  const lines = normalized.split("\n");
  const first = lines[0].trimEnd();
  if (first !== "---") {
    if (/^---[A-Za-z]/.test(first)) {
      return { ok: false, reason: `frontmatter in another language (${first}) is refused: only YAML between --- lines is read` };
    }
    return { ok: true, fields: {}, body: normalized };
  }
  const end = lines.findIndex((line, i) => i > 0 && line.trimEnd() === "---");
  if (end === -1) return { ok: true, fields: {}, body: normalized };
  const fields = parseYamlMapping(lines.slice(1, end).join("\n"));
  if (typeof fields === "string") return { ok: false, reason: fields };
  return { ok: true, fields, body: lines.slice(end + 1).join("\n").trim() };
}

/**
 * Frontmatter's YAML as a mapping, or why it is unusable; only ever data (the `yaml` package's default schema has no
 * tags that construct functions or objects). An empty frontmatter is an empty mapping (pi: `parse("") ?? {}`), unless
 * `emptyIsMapping` is false (agent files: their frontmatter must say something).
 */
export function parseYamlMapping(source: string, { emptyIsMapping = true } = {}): Record<string, unknown> | string {
  try {
    const doc = parseDocument(source);
    if (doc.errors.length > 0) return `frontmatter is not valid YAML (${doc.errors[0].message.split("\n")[0]})`;
    const value: unknown = doc.toJS();
    if ((value === null || value === undefined) && emptyIsMapping) return {};
    if (value === null || typeof value !== "object" || Array.isArray(value)) return "frontmatter must be a set of key: value lines";
    return value as Record<string, unknown>;
  } catch (error) {
    // toJS throws on an alias to an undefined anchor, or too many alias expansions (a "billion laughs" file).
    return `frontmatter is not valid YAML (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`;
  }
}
