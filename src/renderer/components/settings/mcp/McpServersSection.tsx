import { useState } from "react";
import type { McpServerConfig } from "../../../../shared/mcp/server-config";
import { configToDraft, emptyDraft, type McpServerDraft } from "../../../../shared/mcp/server-fields";
import type { Settings } from "../../../../shared/settings/schema";
import { errorText } from "../../../../shared/error-text";
import { useServices } from "../../../context/ServicesContext";
import { McpImportPanel } from "./McpImportPanel";
import { McpServerCard } from "./McpServerCard";
import { McpServerEditor } from "./McpServerEditor";
import { useMcpServerState } from "./useMcpServerState";
import type { SettingsSectionProps } from "../sections/section-props";

type McpServersSectionProps = Pick<SettingsSectionProps, "settings" | "onSettings" | "onError">;

/** What the section shows below the list: nothing, the editor for a new server, or the import panel. */
type Adding = null | { kind: "new"; draft: McpServerDraft } | { kind: "import" };

/**
 * Settings → MCP servers: the configured servers with their state and tools, switches, restart, edit and remove;
 * adding one by hand or importing Claude Desktop's or Cursor's config. Every change goes to main at once.
 */
export function McpServersSection({ settings, onSettings, onError }: McpServersSectionProps) {
  const { app } = useServices();
  const servers = settings.mcpServers;
  const { statuses, statusError, secretsSet, secretsElsewhere, refreshSecrets } = useMcpServerState(JSON.stringify(servers));
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState<Adding>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const saved = (next: Settings) => {
    onSettings(next);
    refreshSecrets();
    setEditing(null);
    setAdding(null);
  };

  const run = async (id: string, action: () => Promise<unknown>) => {
    setBusy(id);
    try {
      await action();
    } catch (e) {
      onError(errorText(e));
    } finally {
      setBusy(null);
    }
  };

  const toggle = (server: McpServerConfig, patch: { enabled?: boolean; trusted?: boolean }) =>
    run(server.id, async () => onSettings(await app.saveMcpServer({ ...server, ...patch }, {})));

  const otherNames = (id: string) => servers.filter((s) => s.id !== id).map((s) => s.name);
  return (
    <div className="mcp-servers" data-testid="mcp-servers">
      <p className="muted group-description">
        Tools from Model Context Protocol servers, for every chat (a chat's settings can choose fewer). Their tools ask
        before they run, unless the server is trusted and marks the tool read-only.
      </p>
      {statusError && servers.some((s) => s.enabled) ? (
        <p className="mcp-warning" role="status">Paddock cannot tell how the servers are doing right now: {statusError}</p>
      ) : null}
      <div className="settings-card mcp-list">
        {servers.length === 0 && adding === null ? <p className="muted mcp-empty">No MCP servers yet.</p> : null}
        {servers.map((server) => editing === server.id ? (
          <McpServerEditor key={server.id} initial={configToDraft(server, secretsSet.get(server.id) ?? [])} isNew={false}
            otherNames={otherNames(server.id)} takenIds={servers.map((s) => s.id)} onSaved={saved} onCancel={() => setEditing(null)} />
        ) : (
          <McpServerCard key={server.id} server={server} status={statuses.get(server.id)} secretsSet={secretsSet.get(server.id)}
            savedElsewhere={secretsElsewhere.get(server.id) ?? []}
            busy={busy === server.id}
            onEdit={() => setEditing(server.id)}
            onToggle={(patch) => void toggle(server, patch)}
            onRestart={() => void run(server.id, () => app.mcpRestart(server.id))}
            onRemove={() => void run(server.id, async () => saved(await app.removeMcpServer(server.id)))} />
        ))}
        {adding?.kind === "new" ? (
          <McpServerEditor key="new" initial={adding.draft} isNew otherNames={servers.map((s) => s.name)} takenIds={servers.map((s) => s.id)}
            onSaved={saved} onCancel={() => setAdding(null)} />
        ) : null}
        {adding?.kind === "import" ? <McpImportPanel existing={servers} onImported={(next) => {
          onSettings(next);
          refreshSecrets();
        }} onClose={() => setAdding(null)} /> : null}
      </div>
      {adding === null ? (
        <div className="row-actions mcp-add-actions">
          <button type="button" className="btn btn-secondary" data-testid="mcp-add" onClick={() => setAdding({ kind: "new", draft: emptyDraft("stdio") })}>
            Add server
          </button>
          <button type="button" className="btn btn-secondary" data-testid="mcp-import-open" onClick={() => setAdding({ kind: "import" })}>
            Import from Claude Desktop or Cursor…
          </button>
        </div>
      ) : null}
    </div>
  );
}
