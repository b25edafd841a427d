import { useEffect, useState } from "react";
import { useServices } from "../../context/ServicesContext";
import { errorText } from "../../../shared/error-text";

/**
 * Where Paddock's log file is (main's, the agents' and the MCP servers' output, for a bug report): "Open logs" shows
 * the folder in the system's file manager in the desktop app; the browser host shows its path.
 */
export function LogsFolder() {
  const { app, folderDialog } = useServices();
  const [folder, setFolder] = useState<string | null | undefined>(undefined);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    app.logsFolder().then(setFolder, (e: unknown) => setProblem(errorText(e)));
  }, [app]);
  if (folder === undefined && !problem) return null;
  return (
    <div className="field field-wide" data-testid="logs-folder">
      <div className="field-label">
        <span className="field-label-text">Logs</span>
        <div className="field-hint">
          What Paddock and its agents print, with API keys hidden: attach it to a bug report. Kept to three files of 5 MB.
        </div>
      </div>
      <div className="field-control">
        {folder ? <code data-testid="logs-path">{folder}</code> : folder === null ? <span className="muted">This host keeps no log file.</span> : null}
        {folder && folderDialog ? (
          <button type="button" className="btn btn-secondary" data-testid="open-logs"
            onClick={() => app.openLogsFolder().then(() => setProblem(null), (e: unknown) => setProblem(errorText(e)))}>
            Open logs
          </button>
        ) : null}
        {problem ? <div className="notice notice-error" role="alert">{problem}</div> : null}
      </div>
    </div>
  );
}
