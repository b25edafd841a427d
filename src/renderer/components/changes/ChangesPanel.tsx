import { useCallback, useEffect, useId, useRef, useState } from "react";
import type { ChangeConflict, ChangeSet, ConflictAnswer, DiffHunk, FileDiff, RevertResult } from "../../../shared/protocol/changes";
import type { ChangesApi } from "../../../shared/protocol/session-protocol";
import { ChangedFileList } from "./ChangedFileList";
import { ChangeStat } from "./ChangeStat";
import { ConflictDialog } from "./ConflictDialog";
import { FileDiffView } from "./FileDiffView";
import type { SinceOption } from "./changes-panel";
import { errorText } from "../../../shared/error-text";
import "../../styles/changes.css";

/** The commands the panel calls (the session's changes API, protocol/changes.ts). */
export type ChangesCommands = Pick<ChangesApi, "fileDiff" | "revertTurn" | "revertFile" | "revertHunk">;

export interface ChangesPanelProps {
  /** The files changed since the chosen point; undefined while they load. */
  changes: ChangeSet | undefined;
  /** Why they could not be loaded. */
  error?: string;
  /** The points the chooser offers, and the chosen one's key. */
  options: readonly SinceOption[];
  since: string;
  onSinceChange(key: string): void;
  commands: ChangesCommands;
  /** A revert went through (the wiring reloads the change set). */
  onReverted?(result: Extract<RevertResult, { done: true }>): void;
  onClose?(): void;
  /** The file shown first (a tool card's ChangeStat opens the panel on the file its call wrote). */
  initialPath?: string;
}

const NO_FILES: ChangeSet["files"] = [];

type Pending = { conflicts: ChangeConflict[]; retry(answer?: ConflictAnswer): Promise<RevertResult> };

/**
 * A chat's Changes panel: every file changed since a chosen point (the start of the chat, of this turn, any user
 * message), in a virtualized list; the chosen file's unified diff hunk by hunk, each naming the tool call or
 * subagent that made it; Revert for everything shown, a file or a hunk. A revert that would write over a file
 * changed outside the chat asks first (ConflictDialog). Data and commands come in through props.
 */
export function ChangesPanel({ changes, error, options, since, onSinceChange, commands, onReverted, onClose, initialPath }: ChangesPanelProps) {
  const [selectedPath, setSelectedPath] = useState<string | undefined>(initialPath);
  const [diff, setDiff] = useState<{ diff?: FileDiff; error?: string }>();
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<Pending>();
  const [status, setStatus] = useState("");
  const sinceId = useId();
  const files = changes?.files ?? NO_FILES;
  const selectedIndex = selectedPath === undefined ? undefined : files.findIndex((f) => f.path === selectedPath);
  const selected = selectedIndex !== undefined && selectedIndex >= 0 ? selectedIndex : undefined;
  const selectedFile = selected !== undefined ? files[selected] : undefined;
  const from = changes?.from;
  const to = changes?.to;
  const latest = useRef(0);

  useEffect(() => {
    if (!selectedFile || from === undefined || to === undefined) return setDiff(undefined);
    const ask = ++latest.current;
    setDiff(undefined);
    commands.fileDiff(from, to, selectedFile.path).then(
      (d) => ask === latest.current && setDiff({ diff: d }),
      (e: unknown) => ask === latest.current && setDiff({ error: errorText(e) }),
    );
  }, [commands, from, to, selectedFile]);

  const run = useCallback(
    async (what: string, attempt: (answer?: ConflictAnswer) => Promise<RevertResult>, answer?: ConflictAnswer) => {
      setBusy(true);
      setPending(undefined);
      try {
        const result = await attempt(answer);
        if (!result.done) {
          setPending({ conflicts: result.conflicts, retry: (a) => attempt(a) });
          setStatus(`${what}: waiting for your answer about ${result.conflicts.length === 1 ? "a file" : `${result.conflicts.length} files`} changed outside.`);
          return;
        }
        const kept = result.kept.length > 0 ? `; kept ${result.kept.length} as ${result.kept.length === 1 ? "it is" : "they are"}` : "";
        const noCopy = result.noCopy.length > 0 ? `; ${result.noCopy.length} without a copy left unchanged` : "";
        setStatus(`${what}: reverted ${result.reverted.length} ${result.reverted.length === 1 ? "file" : "files"}${kept}${noCopy}.`);
        onReverted?.(result);
      } catch (e) {
        setStatus(`${what} failed: ${errorText(e)}`);
      } finally {
        setBusy(false);
      }
    },
    [onReverted],
  );

  const revertAll = () => from !== undefined && to !== undefined && void run("Revert all", (a) => commands.revertTurn(from, to, a));
  const revertFile = () => selectedFile && from !== undefined && to !== undefined && void run(`Revert ${selectedFile.path}`, (a) => commands.revertFile(from, to, selectedFile.path, a));
  const revertHunk = (hunk: DiffHunk) => selectedFile && from !== undefined && to !== undefined && void run(`Revert hunk ${hunk.header}`, (a) => commands.revertHunk(from, to, selectedFile.path, hunk.header, a));
  const onSelect = useCallback((index: number) => setSelectedPath(files[index]?.path), [files]);

  return (
    <section className="changes-panel" aria-label="Changes" data-testid="changes-panel">
      <header className="changes-header">
        <h2 className="changes-title">Changes</h2>
        <label className="changes-since" htmlFor={sinceId}>Since</label>
        <select id={sinceId} className="changes-since-select" value={since} onChange={(e) => onSinceChange(e.target.value)} data-testid="changes-since">
          {options.map((o) => <option key={o.key} value={o.key}>{o.label}</option>)}
        </select>
        {changes ? <ChangeStat counts={changes.totals} /> : null}
        <span className="changes-spacer" />
        <button type="button" className="btn btn-secondary btn-small" disabled={busy || !changes || files.length === 0} onClick={revertAll} data-testid="revert-all">
          Revert all
        </button>
        {onClose ? <button type="button" className="btn btn-ghost btn-small" onClick={onClose} aria-label="Close changes">Close</button> : null}
      </header>
      {changes?.notes?.map((note) => <p key={note} className="changes-note">{note}</p>)}
      <p className="changes-status" role="status" aria-live="polite">{status}</p>
      {error ? <p className="changes-error" role="alert">{error}</p> : null}
      {!changes && !error ? <p className="changes-empty">Loading changes…</p> : null}
      {changes && files.length === 0 ? <p className="changes-empty">No files changed since then.</p> : null}
      {changes && files.length > 0 ? (
        <div className="changes-body">
          <ChangedFileList files={files} authors={changes.authors} selected={selected} onSelect={onSelect} />
          <div className="changes-diff-pane">
            {!selectedFile ? <p className="changes-empty">Choose a file to see its changes.</p>
              : diff?.error ? <p className="changes-error" role="alert">{diff.error}</p>
              : diff?.diff ? <FileDiffView diff={diff.diff} busy={busy} onRevertFile={revertFile} onRevertHunk={revertHunk} />
              : <p className="changes-empty">Loading the diff…</p>}
          </div>
        </div>
      ) : null}
      {pending ? (
        <ConflictDialog
          conflicts={pending.conflicts}
          onCancel={() => (setPending(undefined), setStatus("Nothing was reverted."))}
          onAnswer={(answer) => void run(answer === "overwrite" ? "Overwrite" : "Keep mine", pending.retry, answer)}
        />
      ) : null}
    </section>
  );
}
