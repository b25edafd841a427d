import { useId, useRef, type KeyboardEvent } from "react";
import { createPortal } from "react-dom";
import type { AgentBriefing } from "../../../shared/protocol/agent-briefing";
import { useLoaded } from "../common/use-loaded";
import { useModalDialog } from "../common/use-modal-dialog";
import "../../styles/dialog.css";
import "../../styles/agent-briefing.css";

interface AgentBriefingDialogProps {
  /** The chat's worker answers it (`agentBriefing`): the prompt its next request carries, and its parts. */
  load(): Promise<AgentBriefing>;
  onClose(): void;
}

/**
 * "What the agent was told": the chat's system prompt, part by part, as the worker builds it for the next request:
 * Paddock's instructions for working in the folder, the user's (the chat's own or Settings' default) added to them,
 * a subagent's, the project's AGENTS.md files with their paths and text (and those left out, and why), the skills;
 * then the whole prompt as sent. A modal <dialog>; Esc or Close closes it.
 */
export function AgentBriefingDialog({ load, onClose }: AgentBriefingDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  useModalDialog(dialog, closeButton, onClose);
  const loaded = useLoaded(load, [load]);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== "Escape" || event.nativeEvent.isComposing) return;
    event.preventDefault();
    onClose();
  };

  return createPortal(
    <dialog ref={dialog} className="confirm-dialog briefing-dialog" aria-labelledby={titleId} data-testid="agent-briefing" onKeyDown={onKeyDown}>
      <div className="briefing-head">
        <h2 id={titleId} className="confirm-dialog-title">What the agent was told</h2>
        <button ref={closeButton} type="button" className="btn btn-secondary" onClick={onClose} data-testid="agent-briefing-close">Close</button>
      </div>
      {loaded.state === "failed" ? <div className="notice notice-error" role="alert">Could not ask the chat: {loaded.error}</div>
        : loaded.state === "loading" ? <p className="muted" aria-busy="true">Loading…</p>
        : <BriefingParts briefing={loaded.value} />}
    </dialog>,
    document.body,
  );
}

function BriefingParts({ briefing }: { briefing: AgentBriefing }) {
  const { base, instructions, agentInstructions, planMode, contextFiles, contextSkipped, skills, workspace, systemPrompt } = briefing;
  return (
    <div className="briefing-body">
      <p className="muted briefing-intro">
        {workspace
          ? <>Every request in this chat starts with these instructions, in this order. The agent works in <code>{workspace}</code>.</>
          : "This chat has no workspace: the model gets only the instructions below, and no file or shell tools."}
      </p>
      {base ? (
        <section className="briefing-part" aria-label="Paddock's instructions" data-testid="briefing-base">
          <h3 className="briefing-title">Paddock's instructions for working in the folder</h3>
          <p className="muted briefing-note">The agent's tools, and the rules: stay in the folder, respect a denied call.</p>
          <pre className="briefing-text briefing-text-short">{base}</pre>
        </section>
      ) : null}
      {planMode ? (
        <section className="briefing-part" aria-label="Plan mode" data-testid="briefing-plan">
          <h3 className="briefing-title">Plan mode</h3>
          <p className="muted briefing-note">Added while the chat is in Plan mode, or to one message sent in Plan (Shift+Tab in the message box), after Paddock's rules.</p>
          <pre className="briefing-text">{planMode}</pre>
        </section>
      ) : null}
      <section className="briefing-part" aria-label="Your instructions" data-testid="briefing-instructions">
        <h3 className="briefing-title">
          Your instructions{instructions ? <span className="briefing-source">{instructions.from === "chat" ? "this chat's own" : "Settings' default"}</span> : null}
        </h3>
        {instructions ? (
          <>
            {base ? <p className="muted briefing-note">Added after Paddock's, never in their place.</p> : null}
            <pre className="briefing-text">{instructions.text}</pre>
          </>
        ) : <p className="muted briefing-note">None. Give them in this chat's settings, or for every chat in Settings → Chats &amp; runs.</p>}
      </section>
      {agentInstructions ? (
        <section className="briefing-part" aria-label="The subagent's instructions" data-testid="briefing-agent">
          <h3 className="briefing-title">The subagent's instructions</h3>
          <pre className="briefing-text">{agentInstructions}</pre>
        </section>
      ) : null}
      {workspace ? (
        <section className="briefing-part" aria-label="Project context" data-testid="briefing-context">
          <h3 className="briefing-title">Project context</h3>
          {contextFiles.length === 0 ? (
            <p className="muted briefing-note">No AGENTS.md or CLAUDE.md in the folder or the folders above it.</p>
          ) : contextFiles.map((file) => (
            <div key={file.path} className="briefing-file" data-testid="briefing-context-file">
              <code className="briefing-path">{file.path}</code>
              <pre className="briefing-text">{file.content}</pre>
            </div>
          ))}
          {contextSkipped.map((line) => <div key={line} className="workspace-warning">Not read: {line}</div>)}
        </section>
      ) : null}
      {skills.length > 0 ? (
        <section className="briefing-part" aria-label="Skills" data-testid="briefing-skills">
          <h3 className="briefing-title">Skills</h3>
          <p className="muted briefing-note">Listed by name; the agent reads a skill's file when a task matches it.</p>
          <ul className="briefing-skills">
            {skills.map((s) => <li key={s.location} title={s.location}><strong>{s.name}</strong>: {s.description}</li>)}
          </ul>
        </section>
      ) : null}
      <details className="briefing-part briefing-whole">
        <summary>The whole prompt, as sent ({systemPrompt.length.toLocaleString()} characters)</summary>
        <pre className="briefing-text" data-testid="briefing-prompt">{systemPrompt || "(none)"}</pre>
      </details>
    </div>
  );
}
