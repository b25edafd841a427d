import { useMemo, useState } from "react";
import type { McpImportOutcome } from "../../../../shared/mcp/config-api";
import { McpImportError, planMcpImport, type McpImportPlan } from "../../../../shared/mcp/claude-config-import";
import type { McpServerConfig } from "../../../../shared/mcp/server-config";
import type { Settings } from "../../../../shared/settings/schema";
import { errorText } from "../../../../shared/error-text";
import { useServices } from "../../../context/ServicesContext";
import { transportSummary } from "./mcp-server-text";

interface McpImportPanelProps {
  existing: readonly McpServerConfig[];
  onImported(settings: Settings): void;
  onClose(): void;
}

/** The largest file the panel reads (main refuses more anyway). */
const MAX_FILE_BYTES = 1024 * 1024;

/**
 * Import from Claude Desktop or Cursor: paste their `mcpServers` JSON or pick the file; the panel shows, as the text
 * changes, what would be added (and which values go to the secret store) and what would be skipped and why. Import
 * asks main, which reads the text again itself.
 */
export function McpImportPanel({ existing, onImported, onClose }: McpImportPanelProps) {
  const { app } = useServices();
  const [text, setText] = useState("");
  const [importing, setImporting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<McpImportOutcome | null>(null);

  const preview = useMemo((): McpImportPlan | string | null => {
    if (text.trim() === "") return null;
    try {
      return planMcpImport(text, existing);
    } catch (e) {
      return e instanceof McpImportError ? e.message : errorText(e);
    }
  }, [text, existing]);

  const pick = (file: File | undefined) => {
    setFailure(null);
    setOutcome(null);
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) return setFailure(`${file.name} is larger than 1 MB: that is not an MCP config.`);
    file.text().then(setText, (e: unknown) => setFailure(`${file.name} could not be read: ${errorText(e)}`));
  };

  const doImport = async () => {
    setImporting(true);
    setFailure(null);
    try {
      const result = await app.importMcpServers(text);
      setOutcome(result);
      setText("");
      onImported(result.settings);
    } catch (e) {
      setFailure(errorText(e));
    } finally {
      setImporting(false);
    }
  };

  const plan = typeof preview === "object" ? preview : null;
  return (
    <section className="mcp-import" data-testid="mcp-import" aria-label="Import MCP servers">
      <p className="field-hint">
        Paste the JSON from Claude Desktop (<code>claude_desktop_config.json</code>) or Cursor (<code>mcp.json</code>), or choose the
        file. Values of variables and headers that look secret (tokens, keys, passwords) go to the encrypted store, not the settings file.
      </p>
      <textarea value={text} rows={7} spellCheck={false} aria-label="MCP config JSON" data-testid="mcp-import-text"
        placeholder={'Paste here: { "mcpServers": { … } }'}
        onChange={(e) => {
          setText(e.target.value);
          setOutcome(null);
          setFailure(null);
        }} />
      <div className="mcp-import-row">
        <label className="btn btn-secondary mcp-file-button">
          Choose file…
          <input type="file" accept=".json,application/json" data-testid="mcp-import-file"
            onChange={(e) => {
              pick(e.target.files?.[0]);
              e.target.value = "";
            }} />
        </label>
        <span className="mcp-spacer" />
        <button type="button" className="btn btn-ghost" onClick={onClose}>Close</button>
        <button type="button" className="btn btn-primary" data-testid="mcp-import-go" disabled={importing || !plan || plan.add.length === 0}
          onClick={() => void doImport()}>
          {plan && plan.add.length > 0 ? `Import ${plan.add.length} ${plan.add.length === 1 ? "server" : "servers"}` : "Import"}
        </button>
      </div>
      {typeof preview === "string" ? <p className="mcp-problem" role="alert" data-testid="mcp-import-problem">{preview}</p> : null}
      {plan ? <ImportPreview plan={plan} /> : null}
      {failure ? <div className="notice notice-error" role="alert">{failure}</div> : null}
      {outcome ? (
        <p className="mcp-import-outcome" role="status" data-testid="mcp-import-outcome">
          {outcome.added.length > 0 ? `Added ${outcome.added.join(", ")}.` : "Nothing was added."}
          {outcome.skipped.length > 0 ? ` Skipped ${outcome.skipped.map((s) => s.name).join(", ")}.` : ""}
        </p>
      ) : null}
    </section>
  );
}

function ImportPreview({ plan }: { plan: McpImportPlan }) {
  return (
    <div className="mcp-import-preview" data-testid="mcp-import-preview" aria-live="polite">
      {plan.add.length > 0 ? (
        <>
          <h5>Will be added</h5>
          <ul>
            {plan.add.map(({ server, secrets }) => (
              <li key={server.id} data-testid="mcp-import-add">
                <strong>{server.name}</strong> <code>{transportSummary(server)}</code>
                {Object.keys(secrets).length > 0 ? (
                  <span className="field-hint"> · to the secret store: {Object.keys(secrets).join(", ")}</span>
                ) : null}
                {!server.enabled ? <span className="field-hint"> · disabled, as in the file</span> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {plan.skipped.length > 0 ? (
        <>
          <h5>Will be skipped</h5>
          <ul>
            {plan.skipped.map((s, i) => (
              <li key={i} data-testid="mcp-import-skip"><strong>{s.name}</strong>: {s.reason}</li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
