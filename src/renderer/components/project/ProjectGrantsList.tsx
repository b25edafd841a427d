import { useCallback, useEffect, useState } from "react";
import type { ProjectGrants } from "../../../shared/protocol/app-api";
import { errorText } from "../../../shared/error-text";
import { useServices } from "../../context/ServicesContext";
import { VisibleText } from "../common/VisibleText";
import "../../styles/project-grants.css";

const KIND: Record<ProjectGrants["projects"][number]["grants"][number]["kind"], string> = {
  tool: "Tool",
  command: "Command",
  network: "Network",
};

/**
 * "Allowed in this project": what runs without asking in every chat of a workspace folder (a tool, an exact command,
 * a host sandboxed commands may reach), each exactly as it applies, each removable (every chat there asks again
 * from its next call). With a chat: its folder's (the workspace chip's panel); with none: every project's (Settings).
 * Read again when shown, and after each removal.
 */
export function ProjectGrantsList({ sessionId }: { sessionId: string | null }) {
  const { app } = useServices();
  const [data, setData] = useState<ProjectGrants | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const load = useCallback(
    () =>
      app.projectGrants(sessionId).then(
        (next) => {
          setData(next);
          setFailure(null);
        },
        (error: unknown) => setFailure(errorText(error)),
      ),
    [app, sessionId],
  );
  useEffect(() => void load(), [load]);
  const remove = (folder: string, grant: string) => {
    app.removeProjectGrant(folder, grant).then(load, (error: unknown) => setFailure(errorText(error)));
  };

  const all = sessionId === null;
  const projects = data?.projects ?? [];
  const empty = projects.every((p) => p.grants.length === 0);
  return (
    <div className="project-grants" data-testid="project-grants">
      {all ? null : <div className="tool-section-label">Allowed in this project</div>}
      {data && empty ? (
        <p className="muted project-grants-empty">
          {all ? "No project allows anything yet." : "Nothing yet."} Answering a question with "Allow … in this project" adds it here.
        </p>
      ) : null}
      {projects.filter((p) => p.grants.length > 0).map((project) => (
        <div key={project.folder} className="project-grants-project">
          {all ? <code className="project-grants-folder">{project.folder}</code> : null}
          <ul className="project-grants-list" aria-label={all ? `Allowed in ${project.folder}` : "Allowed in this project"}>
            {project.grants.map((g) => (
              <li key={g.grant} className="project-grant" data-testid="project-grant">
                <span className="project-grant-kind">{KIND[g.kind]}</span>
                <code dir="ltr" className="project-grant-label"><VisibleText text={g.label} /></code>
                <button type="button" className="link-button" onClick={() => remove(project.folder, g.grant)}
                  aria-label={`Remove ${g.label}`} data-testid="project-grant-remove">Remove</button>
              </li>
            ))}
          </ul>
        </div>
      ))}
      {failure ? <div className="notice notice-error" role="alert">{failure}</div> : null}
    </div>
  );
}
