/**
 * What the changes view's answers are built with (shared/changes/, and the `diff` package under it), in one module
 * that workspace-changes.ts loads on first use: an idle worker, and a chat that never records a change, do not load it.
 */
export { AuthorTable, changedFileOf, conflictOf, fileDiffOf } from "../../../shared/changes/diff-view";
export { attribute } from "../../../shared/changes/attribution";
export { fileChange } from "../../../shared/changes/file-change";
export { findHunk } from "../../../shared/changes/hunks";
export { revertHunk } from "../../../shared/changes/revert";
