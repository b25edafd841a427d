import { useEffect, useRef, useState } from "react";
import type { WorkspaceInfo } from "../../../shared/protocol/session-protocol";
import type { SessionSummary, WorkspaceRefusal } from "../../../shared/protocol/app-api";
import { useServices } from "../../context/ServicesContext";
import { errorText } from "../../../shared/error-text";
import { FolderIcon } from "./icons";
import { usePopoverDismiss } from "./use-popover-dismiss";
import { ProjectGrantsList } from "../project/ProjectGrantsList";
import { sandboxHelp } from "../../../shared/security/sandbox-help";

interface WorkspaceButtonProps {
  sessionId: string;
  workspace?: WorkspaceInfo;
}

/**
 * The chat's workspace in its header: the folder (and the project context files its agent read), and a panel to
 * choose another: the system's folder dialog in the desktop app (opened by main), a typed path in the browser
 * host (checked by the host), recent folders in both, or none. A folder main refuses unless the user insists (the
 * home folder, one holding Paddock's data) shows why, with "Use this folder anyway".
 */
export function WorkspaceButton({ sessionId, workspace }: WorkspaceButtonProps) {
  const services = useServices();
  const { app } = services;
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [recent, setRecent] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<WorkspaceRefusal["refused"] | null>(null);
  const area = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    setFailure(null);
    setRefusal(null);
    setTyped(workspace?.folder ?? "");
    app.getSettings().then((s) => setRecent(s.recentWorkspaces), () => setRecent([]));
  }, [open, app, workspace?.folder]);
  const onPanelKey = usePopoverDismiss(open, area, () => setOpen(false));

  /** Main set the folder (the panel closes), refused it (why, and the way to insist), or did nothing (cancelled). */
  const settled = (answer: SessionSummary | WorkspaceRefusal | null) => {
    if (answer === null) return;
    if ("refused" in answer) setRefusal(answer.refused);
    else setOpen(false);
  };
  const failed = (e: unknown) => setFailure(errorText(e));
  const use = (folder: string | null, insist = false) => {
    setFailure(null);
    setRefusal(null);
    app.setWorkspace(sessionId, folder, insist).then(settled, failed);
  };
  const browse = () => {
    setFailure(null);
    setRefusal(null);
    app.pickWorkspace(sessionId).then(settled, failed);
  };

  const name = workspace ? baseName(workspace.folder) : "No workspace";
  const context = workspace?.contextFiles.map(baseName) ?? [];
  return (
    <div className="workspace" ref={area}>
      <button type="button" className={`workspace-button${workspace ? "" : " workspace-none"}${workspace?.problem ? " workspace-broken" : ""}`} aria-expanded={open} aria-haspopup="dialog"
        title={workspace ? `${workspace.folder}${workspace.problem ? `\n${workspace.problem}` : ""}${context.length ? `\nProject context: ${workspace.contextFiles.join(", ")}` : ""}` : "Give this chat a folder to work in"}
        onClick={() => setOpen((o) => !o)} data-testid="workspace-button">
        <FolderIcon /> <span className="workspace-name">{name}</span>
        {context.length > 0 ? <span className="workspace-context" data-testid="workspace-context">· {context.join(", ")}</span> : null}
        {workspace && !workspace.problem && !workspace.sandboxed && !workspace.sandboxChecking ? (
          <span className="workspace-unsandboxed" title={workspace.sandboxProblem}>· no sandbox</span>
        ) : null}
        {workspace?.problem ? <span className="workspace-unsandboxed">· missing</span> : null}
      </button>
      {open ? (
        <div className="workspace-panel" role="dialog" aria-label="Workspace" onKeyDown={onPanelKey}>
          <p className="muted workspace-help">
            The agent can read, change and run things in this folder only{workspace?.sandboxed ? ", and runs commands in a sandbox" : ""}.
          </p>
          {workspace ? (
            <div className="workspace-current">
              <code>{workspace.folder}</code>
              {workspace.contextFiles.length > 0 ? <div className="muted">Project context: {workspace.contextFiles.join(", ")}</div> : null}
              {workspace.contextSkipped?.map((line) => <div key={line} className="workspace-warning" data-testid="context-skipped">Project context {line}</div>)}
              {workspace.problem ? <div className="workspace-warning" role="alert">{workspace.problem}</div>
                : workspace.sandboxChecking ? <div className="muted">Checking for a sandbox…</div>
                : !workspace.sandboxed ? <NoSandbox workspace={workspace} />
                : null}
            </div>
          ) : null}
          {workspace && !workspace.problem ? <ProjectGrantsList sessionId={sessionId} /> : null}
          {services.folderDialog ? (
            <button type="button" className="btn btn-primary" onClick={browse} data-testid="workspace-browse">Choose a folder…</button>
          ) : (
            <form className="workspace-form" onSubmit={(e) => {
              e.preventDefault();
              if (typed.trim()) use(typed.trim());
            }}>
              <input autoFocus value={typed} onChange={(e) => setTyped(e.target.value)} placeholder="~/code/project or /full/path/to/a/folder"
                aria-label="Workspace folder" data-testid="workspace-path" spellCheck={false} />
              <button type="submit" className="btn btn-primary">Use</button>
            </form>
          )}
          {recent.filter((f) => f !== workspace?.folder).length > 0 ? (
            <div className="workspace-recent">
              <div className="tool-section-label">Recent</div>
              {recent.filter((f) => f !== workspace?.folder).map((folder) => (
                <button key={folder} type="button" className="link-button workspace-recent-item" onClick={() => use(folder)}>{folder}</button>
              ))}
            </div>
          ) : null}
          {workspace ? <button type="button" className="link-button" onClick={() => use(null)}>Remove the workspace</button> : null}
          {refusal ? (
            <div className="notice notice-warning workspace-refusal" role="alert" data-testid="workspace-refusal">
              <p><code>{refusal.folder}</code>: {refusal.reason}</p>
              <button type="button" className="btn" onClick={() => use(refusal.folder, true)} data-testid="workspace-insist">Use this folder anyway</button>
            </div>
          ) : null}
          {failure ? <div className="notice notice-error" role="alert">{failure}</div> : null}
        </div>
      ) : null}
    </div>
  );
}

/** Why commands run without a sandbox here and how to get one, from the worker's check (shared/security/sandbox-help.ts). */
function NoSandbox({ workspace }: { workspace: WorkspaceInfo }) {
  const help = workspace.sandboxCause ? sandboxHelp(workspace.sandboxCause, workspace.sandboxProblem) : undefined;
  if (!help) {
    return <div className="workspace-warning" data-testid="no-sandbox">No sandbox here{workspace.sandboxProblem ? ` (${workspace.sandboxProblem})` : ""}: every command asks first.</div>;
  }
  return (
    <div className="workspace-warning sandbox-help" data-testid="no-sandbox">
      <p><strong>No sandbox here: every command asks first.</strong> {help.why}</p>
      {help.steps.length > 0 ? (
        <ol className="sandbox-steps">
          {help.steps.map((step) => (
            <li key={step.text + (step.command ?? "")}>
              {step.text}
              {step.command ? <code className="sandbox-command" data-testid="sandbox-command">{step.command}</code> : null}
            </li>
          ))}
        </ol>
      ) : null}
      {help.docs ? <p className="muted">More: {help.docs}.</p> : null}
    </div>
  );
}

function baseName(path: string): string {
  return path.replace(/[\\/]+$/, "").split(/[\\/]/).pop() || path;
}
