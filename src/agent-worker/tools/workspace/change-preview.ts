import { openFileForReading } from "./checked-open";
import { unifiedDiff } from "./edit-diff";
import { applyEdits, normalizeToLF, type TextEdit } from "./edit-match";
import { prepareEditArguments } from "./edit-tool";
import type { WorkspacePaths } from "./workspace-paths";

/** A preview longer than this is cut (the user still sees where it starts; the call itself is not affected). */
const MAX_PREVIEW_CHARS = 200_000;

/**
 * The unified diff an `edit` or `write` call would make, computed as the tool would (same path checks, same
 * matching) without changing anything: for the approval question. Undefined for other tools, and for a call that
 * would fail (an edit that does not match, a path outside the workspace): the tool's own error says why when it runs.
 * Never throws.
 */
export async function previewChange(paths: WorkspacePaths, toolName: string, args: unknown): Promise<string | undefined> {
  try {
    if (toolName === "edit") return await previewEdit(paths, prepareEditArguments(args));
    if (toolName === "write") return await previewWrite(paths, args as { path?: unknown; content?: unknown });
  } catch {
    // The call will fail when it runs, with its own message.
  }
  return undefined;
}

async function previewEdit(paths: WorkspacePaths, args: { path?: unknown; edits?: unknown }): Promise<string | undefined> {
  if (typeof args.path !== "string" || !Array.isArray(args.edits) || args.edits.length === 0) return undefined;
  const real = await paths.resolve(args.path);
  const original = (await readChecked(paths, args.path, real)).replace(/^\uFEFF/, "");
  const updated = applyEdits(original, args.edits as TextEdit[], args.path);
  return capped(unifiedDiff(paths.display(real), normalizeToLF(original), normalizeToLF(updated)));
}

async function previewWrite(paths: WorkspacePaths, args: { path?: unknown; content?: unknown }): Promise<string | undefined> {
  if (typeof args.path !== "string" || typeof args.content !== "string") return undefined;
  const real = await paths.resolve(args.path);
  const before = await readChecked(paths, args.path, real).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return ""; // a new file: every line is added
    throw error;
  });
  return capped(unifiedDiff(paths.display(real), normalizeToLF(before.replace(/^\uFEFF/, "")), normalizeToLF(args.content)));
}

/** The file's text, read as the tools read (a regular file only, never blocking, verified where it is). */
async function readChecked(paths: WorkspacePaths, input: string, real: string): Promise<string> {
  const { handle } = await openFileForReading(paths, input, real);
  try {
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

function capped(diff: string): string {
  if (diff.length <= MAX_PREVIEW_CHARS) return diff;
  const cut = diff.lastIndexOf("\n", MAX_PREVIEW_CHARS);
  return `${diff.slice(0, cut)}\n[Preview cut at ${MAX_PREVIEW_CHARS / 1000} KB of ${Math.round(diff.length / 1000)} KB.]\n`;
}
