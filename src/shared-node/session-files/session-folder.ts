/**
 * Where a session's files live, the one place that names them. Under the data folder's `sessions/`:
 *   - `<id>.jsonl`: the transcript (transcript-store.ts);
 *   - `<id>/attachments/<hash>`: the files its messages refer to (the worker's attachment-store.ts);
 *   - `<id>/bash-output/`: command output too long for the model, saved for it to read back (the bash tool);
 *   - `<id>/tmp/`: the shell's temporary folder.
 * Main deletes, exports and imports these; the session's worker writes them while it runs. Ids are checked by
 * whoever turns one into a path (session-broker.ts): nothing here accepts a path from outside.
 */
import { join } from "node:path";

/** The session's transcript in the sessions folder. */
export const transcriptFileIn = (sessionsDir: string, sessionId: string): string => join(sessionsDir, `${sessionId}.jsonl`);

/** The session's own folder in the sessions folder (attachments, saved command output, temporary files). */
export const sessionDirIn = (sessionsDir: string, sessionId: string): string => join(sessionsDir, sessionId);

/** The session's attachment files, one per content hash. */
export const attachmentsDir = (sessionDir: string): string => join(sessionDir, "attachments");

/** Output the bash tool saved for the model to read back. */
export const bashOutputDir = (sessionDir: string): string => join(sessionDir, "bash-output");

/** The session's temporary folder (TMPDIR of its commands). */
export const sessionTempDir = (sessionDir: string): string => join(sessionDir, "tmp");
