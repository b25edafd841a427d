import { useState } from "react";
import type { McpServerConfig } from "../../../../shared/mcp/server-config";
import type { McpServerStatus } from "../../../../shared/protocol/mcp-status";
import { missingSecrets, stateLabel, transportSummary } from "./mcp-server-text";

interface McpServerCardProps {
  server: McpServerConfig;
  status: McpServerStatus | undefined;
  /** Names of its secrets that are set. */
  secretsSet: readonly string[] | undefined;
  /** Names of its secrets saved for its earlier address or program: not sent, to be entered again. */
  savedElsewhere: readonly string[];
  busy: boolean;
  onEdit(): void;
  onToggle(patch: { enabled?: boolean; trusted?: boolean }): void;
  onRestart(): void;
  onRemove(): void;
}

/**
 * One server in Settings: name, state, what it runs, its switches, and (unfolded) its tools with their descriptions,
 * or why it failed with the tail of its stderr.
 */
export function McpServerCard({ server, status, secretsSet, savedElsewhere, busy, onEdit, onToggle, onRestart, onRemove }: McpServerCardProps) {
  const [confirmRemove, setConfirmRemove] = useState(false);
  const state = stateLabel(server, status);
  const tools = status?.tools ?? [];
  const missing = missingSecrets(server, secretsSet);
  const moved = missing.filter((name) => savedElsewhere.includes(name));
  const unset = missing.filter((name) => !savedElsewhere.includes(name));
  const headingId = `mcp-server-${server.id}`;
  return (
    <article className="mcp-server" data-testid="mcp-server" data-server-id={server.id} aria-labelledby={headingId}>
      <div className="mcp-server-head">
        <h4 id={headingId} className="mcp-server-name">{server.name}</h4>
        <span className={`mcp-state mcp-state-${state.tone}`} data-testid="mcp-state" role="status">{state.text}</span>
        <span className="mcp-spacer" />
        {confirmRemove ? (
          <>
            <span className="mcp-confirm">Remove {server.name} and its stored secrets?</span>
            <button type="button" className="btn btn-danger" onClick={onRemove} disabled={busy} data-testid="mcp-remove-confirm">Remove</button>
            <button type="button" className="btn btn-ghost" onClick={() => setConfirmRemove(false)}>Keep</button>
          </>
        ) : (
          <>
            <button type="button" className="btn btn-secondary" onClick={onRestart} disabled={busy || !server.enabled} data-testid="mcp-restart"
              title={server.enabled ? "Stop the server and start it afresh" : "Enable the server first"}>Restart</button>
            <button type="button" className="btn btn-secondary" onClick={onEdit} disabled={busy} data-testid="mcp-edit">Edit</button>
            <button type="button" className="btn btn-ghost danger" onClick={() => setConfirmRemove(true)} disabled={busy} data-testid="mcp-remove">Remove</button>
          </>
        )}
      </div>
      <code className="mcp-server-target" title={transportSummary(server)}>
        {server.transport.type === "http" ? "HTTP · " : ""}{transportSummary(server)}
      </code>
      <div className="mcp-server-switches">
        <label className="inline-check">
          <input type="checkbox" checked={server.enabled} disabled={busy} data-testid="mcp-enabled"
            onChange={(e) => onToggle({ enabled: e.target.checked })} />
          <span>Enabled <span className="field-hint">· when off, it is not started and no chat gets its tools</span></span>
        </label>
        <label className="inline-check">
          <input type="checkbox" checked={server.trusted} disabled={busy} data-testid="mcp-trusted-toggle"
            onChange={(e) => onToggle({ trusted: e.target.checked })} />
          <span>Trusted <span className="field-hint">· its read-only tools run without asking; the others always ask</span></span>
        </label>
      </div>
      {moved.length > 0 ? (
        <p className="mcp-warning" data-testid="mcp-moved-secrets">
          {moved.join(", ")} {moved.length === 1 ? "was" : "were"} saved for this server's earlier {server.transport.type === "http" ? "address" : "program"},
          so Paddock does not send {moved.length === 1 ? "it" : "them"} here. Edit the server to enter {moved.length === 1 ? "it" : "them"} again.
        </p>
      ) : null}
      {unset.length > 0 ? (
        <p className="mcp-warning" data-testid="mcp-missing-secrets">
          Not set: {unset.join(", ")}. Edit the server to enter {unset.length === 1 ? "it" : "them"}.
        </p>
      ) : null}
      {status?.error && status.state !== "ready" ? <p className="mcp-error" data-testid="mcp-error">{status.error}</p> : null}
      {status?.stderrTail && status.state !== "ready" ? (
        <details className="mcp-stderr" open={status.state === "failed" || status.state === "restarting"}>
          <summary>What the server printed last</summary>
          <pre data-testid="mcp-stderr">{status.stderrTail}</pre>
        </details>
      ) : null}
      {tools.length > 0 ? (
        <details className="mcp-tools" data-testid="mcp-tools">
          <summary>{tools.length} {tools.length === 1 ? "tool" : "tools"}</summary>
          <ul>
            {tools.map((tool) => (
              <li key={tool.name} data-testid="mcp-tool">
                <code className="mcp-tool-name" title={`The model calls it ${tool.agentName}`}>{tool.name}</code>
                {tool.readOnly ? <span className="mcp-badge">{server.trusted ? "read-only · runs without asking" : "read-only"}</span> : null}
                {tool.description ? <span className="mcp-tool-description">{tool.description}</span> : null}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </article>
  );
}
