import { useEffect, useId, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useServices } from "../../context/ServicesContext";
import { useModalDialog } from "../common/use-modal-dialog";
import { errorText } from "../../../shared/error-text";
import type { SessionSummary, WorkspaceRefusal } from "../../../shared/protocol/app-api";
import type { WorktreeOffer } from "../../../shared/protocol/worktrees";
import "../../styles/dialog.css";
import "../../styles/worktrees.css";

interface NewWorktreeChatDialogProps {
  /** The folder to start from (the chat shown now's workspace), if any. */
  folder?: string;
  onCreated(chat: SessionSummary): void;
  onCancel(): void;
}

/**
 * "New chat in a worktree": a git repository's folder (typed, or a recent workspace), checked by main as it is
 * chosen (a folder that is not in a repository, or no git, is said plainly), then main makes a `paddock/…` branch
 * and a worktree of it under Paddock's data folder and a chat that works there.
 */
export function NewWorktreeChatDialog({ folder: initial, onCreated, onCancel }: NewWorktreeChatDialogProps) {
  const { app } = useServices();
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const [folder, setFolder] = useState(initial ?? "");
  const [recent, setRecent] = useState<string[]>([]);
  const [offer, setOffer] = useState<WorktreeOffer | null>(null);
  const [refusal, setRefusal] = useState<WorkspaceRefusal["refused"] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useModalDialog(dialog, input, onCancel);

  useEffect(() => {
    app.getSettings().then((s) => setRecent(s.recentWorkspaces), () => setRecent([]));
  }, [app]);
  useEffect(() => {
    setOffer(null);
    setRefusal(null);
    const chosen = folder.trim();
    if (!chosen) return;
    let live = true;
    const timer = setTimeout(() => {
      app.worktreeOffer(chosen).then((o) => live && setOffer(o), (e: unknown) => live && setOffer({ ok: false, reason: errorText(e) }));
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [app, folder]);

  const create = (insist = false) => {
    setBusy(true);
    setFailure(null);
    app.createWorktreeChat(folder.trim(), insist).then((answer) => {
      if ("refused" in answer) setRefusal(answer.refused);
      else onCreated(answer);
    }, (e: unknown) => setFailure(errorText(e))).finally(() => setBusy(false));
  };

  return createPortal(
    <dialog ref={dialog} className="confirm-dialog worktree-new-dialog" aria-labelledby={titleId} data-testid="worktree-new-dialog">
      <h2 id={titleId} className="confirm-dialog-title">New chat in a worktree</h2>
      <p className="confirm-dialog-text muted">
        The agent works on a branch of its own, in a git worktree Paddock makes outside your folder, from its last commit.
        Your files change only when you apply its changes.
      </p>
      <form onSubmit={(e) => {
        e.preventDefault();
        if (offer?.ok) create();
      }}>
        <input ref={input} className="worktree-folder" value={folder} onChange={(e) => setFolder(e.target.value)} placeholder="~/path/to/a/git/repository or its full path"
          aria-label="Repository folder" data-testid="worktree-folder" spellCheck={false} />
        {recent.length > 0 ? (
          <div className="workspace-recent">
            <div className="tool-section-label">Recent</div>
            {recent.map((f) => <button key={f} type="button" className="link-button workspace-recent-item" onClick={() => setFolder(f)}>{f}</button>)}
          </div>
        ) : null}
        <div className="worktree-offer" role="status" data-testid="worktree-offer">
          {offer?.ok ? <>A new branch from {offer.branch ? <strong>{offer.branch}</strong> : "the current commit"} of <code>{offer.repositoryRoot}</code>.</>
            : offer ? <span className="worktree-failure">{offer.reason}</span> : null}
        </div>
        {refusal ? (
          <div className="notice notice-warning" role="alert">
            <p><code>{refusal.folder}</code>: {refusal.reason}</p>
            <button type="button" className="btn" onClick={() => create(true)}>Use this folder anyway</button>
          </div>
        ) : null}
        {failure ? <div className="notice notice-error" role="alert">{failure}</div> : null}
        <div className="confirm-dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={onCancel}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={busy || !offer?.ok} data-testid="worktree-create">Create</button>
        </div>
      </form>
    </dialog>,
    document.body,
  );
}
