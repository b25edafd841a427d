import { useEffect, useRef, useState } from "react";
import { useServices } from "../../context/ServicesContext";
import { errorText } from "../../../shared/error-text";
import { ChangeStat } from "../changes/ChangeStat";
import { ApplyWorktreeDialog } from "./ApplyWorktreeDialog";
import { ConfirmDialog } from "./ConfirmDialog";
import "../../styles/worktrees.css";

interface WorktreeActionsProps {
  /** The worktree chat's id, or the subagent session's for an isolated task: main finds the worktree by it. */
  sessionId: string;
  branch: string;
  /** What the changes are, when the caller already knows (a task's result); the chat's are asked when applying. */
  counts?: { files: number; added: number; removed: number };
  /**
   * Ask main first whether the worktree is still there: a task's card outlives it (a chat's strip does not: it goes
   * with the record's worktree).
   */
  askStatus?: boolean;
}

/**
 * "Apply to workspace" (the changes first, then the outcome: applied, or refused naming the files, with a three-way
 * merge offered), "Keep branch" and "Discard" (asked first) for a worktree. All done by main (AppApi, worktrees.ts).
 */
export function WorktreeActions({ sessionId, branch, counts, askStatus = false }: WorktreeActionsProps) {
  const { app } = useServices();
  const [applying, setApplying] = useState(false);
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [ended, setEnded] = useState(false);
  const applyButton = useRef<HTMLButtonElement>(null);

  // A task's card outlives its worktree (kept or discarded earlier, maybe before a restart): ask main where it stands.
  useEffect(() => {
    if (!askStatus) return;
    let live = true;
    app.worktreeStatus(sessionId).then((status) => {
      if (!live || status === "open") return;
      setEnded(true);
      setSaid(status === "kept" ? `Branch ${branch} kept; the worktree folder was removed.` : `Worktree and branch ${branch} discarded.`);
    }, () => undefined);
    return () => {
      live = false;
    };
  }, [app, sessionId, branch, askStatus]);

  const run = (action: () => Promise<string>) => {
    setBusy(true);
    setFailure(null);
    action().then((text) => {
      setSaid(text);
      setEnded(true);
    }, (e: unknown) => setFailure(errorText(e))).finally(() => setBusy(false));
  };
  const keep = () => run(async () => {
    const kept = await app.keepWorktreeBranch(sessionId);
    return `Branch ${kept.branch} kept${kept.committed ? " with the changes committed on it" : ""}; the worktree folder was removed.`;
  });
  const discard = () => {
    setConfirmDiscard(false);
    run(async () => {
      await app.discardWorktree(sessionId);
      return `Worktree and branch ${branch} discarded.`;
    });
  };

  return (
    <span className="worktree-actions" data-testid="worktree-actions">
      {counts ? <ChangeStat counts={counts} /> : null}
      {!ended ? (
        <>
          <button ref={applyButton} type="button" className="btn btn-small" disabled={busy || counts?.files === 0} onClick={() => setApplying(true)} data-testid="worktree-apply">Apply to workspace</button>
          <button type="button" className="btn btn-small" disabled={busy} onClick={keep} data-testid="worktree-keep">Keep branch</button>
          <button type="button" className="btn btn-small" disabled={busy} onClick={() => setConfirmDiscard(true)} data-testid="worktree-discard">Discard</button>
        </>
      ) : null}
      {said ? <span className="worktree-said" role="status">{said}</span> : null}
      {failure ? <span className="worktree-failure" role="alert">{failure}</span> : null}
      {applying ? <ApplyWorktreeDialog sessionId={sessionId} branch={branch} onClose={(text) => {
        setApplying(false);
        if (text) setSaid(text);
      }} /> : null}
      {confirmDiscard ? (
        <ConfirmDialog title="Discard this worktree?" confirm="Discard" danger testId="worktree-discard-confirm"
          text={`The worktree and its branch ${branch} are deleted, with every change in them that was not applied.`}
          onConfirm={discard} onCancel={() => setConfirmDiscard(false)} />
      ) : null}
    </span>
  );
}
