/** A server as the chat's settings list it: Settings' id, name and whether it is on. */
export interface ChatMcpServer {
  id: string;
  name: string;
  enabled: boolean;
}

interface ChatMcpServersProps {
  servers: readonly ChatMcpServer[];
  /** The chat's choice as drafted: undefined for every enabled server (those added later too). */
  choice: string[] | undefined;
  onChange(choice: string[] | undefined): void;
}

/**
 * Which MCP servers' tools the chat gets. By default all enabled ones, including servers added later; unticking
 * "All" turns that into a list of its own. Servers disabled in Settings are shown, but give no chat tools.
 */
export function ChatMcpServers({ servers, choice, onChange }: ChatMcpServersProps) {
  const enabled = servers.filter((s) => s.enabled);
  return (
    <fieldset className="chat-settings-field chat-mcp" data-testid="chat-mcp-servers">
      <legend className="chat-settings-label">MCP servers</legend>
      <label className="inline-check">
        <input type="checkbox" checked={choice === undefined} data-testid="chat-mcp-all"
          onChange={(e) => onChange(e.target.checked ? undefined : enabled.map((s) => s.id))} /> All enabled servers
      </label>
      {choice !== undefined ? (
        <div className="chat-mcp-list">
          {servers.map((server) => (
            <label key={server.id} className="inline-check">
              <input type="checkbox" disabled={!server.enabled} checked={server.enabled && choice.includes(server.id)} data-testid={`chat-mcp-${server.id}`}
                onChange={(e) => onChange(e.target.checked ? [...choice, server.id] : choice.filter((id) => id !== server.id))} />
              {server.name}{server.enabled ? "" : " (disabled in Settings)"}
            </label>
          ))}
        </div>
      ) : null}
      <span className="field-hint">
        {choice === undefined
          ? enabled.length === 0 ? "No server is enabled in Settings: this chat gets their tools once one is."
          : `This chat gets the tools of ${enabled.length === 1 ? enabled[0]!.name : `all ${enabled.length} enabled servers`}, and of servers enabled later.`
          : `Only the servers ticked here; ${choice.filter((id) => enabled.some((s) => s.id === id)).length === 0 ? "none: this chat gets no MCP tools" : "new servers are not added to this chat"}.`}
      </span>
    </fieldset>
  );
}
