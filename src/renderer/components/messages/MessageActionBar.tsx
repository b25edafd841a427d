import { useContext, useState } from "react";
import type { AgentMessage } from "../../../shared/agent/types";
import { branchAt } from "../../../shared/agent/branches";
import { messageMarkdown } from "./message-actions";
import { ListFollowContext, MessageActionsContext } from "./message-actions-context";
import { CheckIcon, ContinueIcon, CopyIcon, PencilIcon, RegenerateIcon, RewindIcon, TrashIcon } from "../common/icons";
import { SessionMenu } from "../sidebar/SessionItem";
import { REWIND_LABELS } from "../changes/chat-changes";
import type { RewindScope } from "../../../shared/protocol/changes";

interface MessageActionBarProps {
  /** Session-wide index of the row's message. */
  index: number;
  message: AgentMessage;
  /** The row is a user message: Edit is offered (it opens the row's editor). */
  onEdit?(): void;
}

/**
 * A message's actions: Copy (as Markdown) and Delete on every message, Edit on the user's, Regenerate and Continue
 * on the last reply, Rewind (files, chat or both: a menu) on the user's where the chat offers it, and the `‹ 2/3 ›` switch on the first message of a tail that has other versions. Shown on
 * hover and keyboard focus (CSS), reachable with Tab like any button; the version switch always shows.
 */
export function MessageActionBar({ index, message, onEdit }: MessageActionBarProps) {
  const actions = useContext(MessageActionsContext);
  const list = useContext(ListFollowContext);
  const [copied, setCopied] = useState(false);
  const [rewinding, setRewinding] = useState(false);
  if (!actions) return null;
  const { blocked } = actions;
  const branch = branchAt(actions.branches, index);
  const last = index === actions.lastIndex && message.role === "assistant";
  const run = (p: Promise<void>) => void p.catch(actions.onError);
  const switchTo = (version: number) => {
    list?.stopFollowing();
    run(actions.switchBranch(index, version));
  };
  const copy = () => {
    navigator.clipboard.writeText(messageMarkdown(message)).then(
      () => {
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      },
      (e: unknown) => actions.onError(e),
    );
  };
  return (
    <div className="message-actions" role="toolbar" aria-label="Message actions" data-testid="message-actions">
      {branch ? (
        <span className="branch-switch" data-testid="branch-switch">
          <button type="button" className="action-button" aria-label="Previous version" title={blocked ?? "Previous version"}
            disabled={blocked !== undefined || branch.active === 0} onClick={() => switchTo(branch.active - 1)}>‹</button>
          <span className="branch-count" aria-label={`Version ${branch.active + 1} of ${branch.count}`}>{branch.active + 1}/{branch.count}</span>
          <button type="button" className="action-button" aria-label="Next version" title={blocked ?? "Next version"}
            disabled={blocked !== undefined || branch.active === branch.count - 1} onClick={() => switchTo(branch.active + 1)}>›</button>
        </span>
      ) : null}
      <span className="message-action-buttons">
        <button type="button" className="action-button" onClick={copy} aria-label={copied ? "Copied" : "Copy as Markdown"} title="Copy as Markdown">
          {copied ? <CheckIcon /> : <CopyIcon />}
        </button>
        {onEdit ? (
          <button type="button" className="action-button" onClick={onEdit} disabled={blocked !== undefined} title={blocked ?? "Edit and resend"}
            aria-label="Edit and resend"><PencilIcon /></button>
        ) : null}
        {message.role === "user" && actions.rewind ? (
          <span className="rewind-menu">
            <button type="button" className="action-button" onClick={() => setRewinding((o) => !o)} disabled={blocked !== undefined}
              title={blocked ?? "Rewind files, chat or both to before this message"} aria-label="Rewind" aria-haspopup="menu" aria-expanded={rewinding}
              data-testid="rewind-button"><RewindIcon /></button>
            {rewinding ? (
              <SessionMenu onClose={() => setRewinding(false)}
                items={(["files", "chat", "both"] as RewindScope[]).map((scope) => [REWIND_LABELS[scope].item, () => actions.rewind?.(index, scope)])} />
            ) : null}
          </span>
        ) : null}
        {last ? (
          <button type="button" className="action-button" onClick={() => run(actions.regenerate())} disabled={blocked !== undefined}
            title={blocked ?? "A new reply; this one stays as a version"} aria-label="Regenerate reply"><RegenerateIcon /></button>
        ) : null}
        {last && actions.canContinue ? (
          <button type="button" className="action-button" onClick={() => run(actions.continueReply())} disabled={blocked !== undefined}
            title={blocked ?? "The model goes on from where it stopped"} aria-label="Continue reply"><ContinueIcon /></button>
        ) : null}
        <button type="button" className="action-button action-danger" onClick={() => run(actions.deleteMessage(index))} disabled={blocked !== undefined}
          title={blocked ?? (message.role === "user" ? "Delete this message and its reply" : "Delete this reply (up to the next message of yours)")}
          aria-label="Delete message"><TrashIcon /></button>
      </span>
    </div>
  );
}
