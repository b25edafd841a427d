import { Type, type Static } from "typebox";
import type { AgentTool } from "../../../shared/agent/types";
import { throwIfAborted } from "./abort";
import { numberedDiff, unifiedDiff } from "./edit-diff";
import { applyEdits, normalizeToLF } from "./edit-match";
import { openFileForWriting, replaceContent, type CheckedFile } from "./checked-open";
import { withFileLock } from "./mutation-queue";
import type { WorkspacePaths } from "./workspace-paths";
import type { ProtectedChanges } from "./protected-changes";

const replaceEdit = Type.Object(
  {
    oldText: Type.String({
      description:
        "Exact text for one targeted replacement. It must be unique in the original file and must not overlap with any other edits[].oldText in the same call.",
    }),
    newText: Type.String({ description: "Replacement text for this targeted edit." }),
  },
  {},
);

const parameters = Type.Object(
  {
    path: Type.String({ description: "Path to the file to edit (relative or absolute)" }),
    edits: Type.Array(replaceEdit, {
      description:
        "One or more targeted replacements. Each edit is matched against the original file, not incrementally. Do not include overlapping or nested edits. If two changes touch the same block or nearby lines, merge them into one edit instead.",
    }),
  },
  {},
);

export interface EditDetails {
  /** pi's numbered diff (what pi's renderer shows). */
  diff: string;
  firstChangedLine: number | undefined;
  /** The same change as a standard unified diff. */
  patch: string;
}

/**
 * Models still send pi's older single-edit form `{path, oldText, newText}` (beside `edits[]` or not), some send `edits`
 * as a JSON string, and some one edit object in place of the array: all become `edits[]` before validation, as in
 * pi 1.6.0.
 */
export function prepareEditArguments(input: unknown): Static<typeof parameters> {
  if (!input || typeof input !== "object") return input as Static<typeof parameters>;
  const args = { ...(input as Record<string, unknown>) };
  if (typeof args.edits === "string") {
    try {
      const parsed: unknown = JSON.parse(args.edits);
      if (Array.isArray(parsed)) args.edits = parsed;
      else if (isSingleEdit(parsed)) args.edits = [parsed];
    } catch {
      // left as is: validation reports it
    }
  } else if (isSingleEdit(args.edits)) {
    args.edits = [args.edits];
  }
  if (typeof args.oldText === "string" && typeof args.newText === "string") {
    const edits = Array.isArray(args.edits) ? [...args.edits] : [];
    edits.push({ oldText: args.oldText, newText: args.newText });
    delete args.oldText;
    delete args.newText;
    args.edits = edits;
  }
  return args as Static<typeof parameters>;
}

function isSingleEdit(value: unknown): value is { oldText: string; newText: string } {
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  const edit = value as Record<string, unknown>;
  return typeof edit.oldText === "string" && typeof edit.newText === "string";
}

const BOM = "\uFEFF";
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** @param protectedFiles the approval's word on protected files (protected-changes.ts); absent: none are checked. */
export function editTool(paths: WorkspacePaths, protectedFiles?: ProtectedChanges): AgentTool<typeof parameters, EditDetails> {
  return {
    name: "edit",
    label: "edit",
    description:
      "Edit a single file using exact text replacement. Every edits[].oldText must match a unique, non-overlapping region of the original file. If two changes affect the same block or nearby lines, merge them into one edit instead of emitting overlapping edits. Do not include large unchanged regions just to connect distant changes.",
    parameters,
    prepareArguments: prepareEditArguments,
    async execute(id, { path, edits }, signal) {
      if (!Array.isArray(edits) || edits.length === 0) {
        throw new Error("Edit tool input is invalid. edits must contain at least one replacement.");
      }
      throwIfAborted(signal);
      const real = await paths.resolve(path);
      protectedFiles?.check(id, real);
      return withFileLock(real, async () => {
        // One descriptor, verified (see checked-open.ts), for both the reading and the writing.
        let file: CheckedFile;
        try {
          file = await openFileForWriting(paths, path, real, false);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (!code) throw error; // a refusal, in its own words
          throw new Error(`Could not edit file: ${path}. Error code: ${code}.`, { cause: error });
        }
        let original: string;
        let updated: string;
        try {
          const bytes = await file.handle.readFile();
          let raw: string;
          try {
            raw = strictUtf8.decode(bytes);
          } catch {
            // Decoding would replace the invalid bytes everywhere, not just in the edited ranges.
            throw new Error(`Could not edit file: ${path}. It is not valid UTF-8 text; use write to replace it whole.`);
          }
          const bom = raw.startsWith(BOM) ? BOM : "";
          original = raw.slice(bom.length);
          updated = applyEdits(original, edits, path);
          throwIfAborted(signal);
          await replaceContent(file.handle, bom + updated);
        } finally {
          await file.handle.close();
        }
        const [before, after] = [normalizeToLF(original), normalizeToLF(updated)];
        const { diff, firstChangedLine } = numberedDiff(before, after);
        return {
          content: [{ type: "text", text: `Successfully replaced ${edits.length} block(s) in ${path}.` }],
          details: { diff, firstChangedLine, patch: unifiedDiff(paths.display(real), before, after) },
        };
      });
    },
  };
}
