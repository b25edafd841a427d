import { useCallback, useEffect, useState } from "react";
import type { McpSecretStatus } from "../../../../shared/mcp/config-api";
import type { McpServerStatus } from "../../../../shared/protocol/mcp-status";
import { errorText } from "../../../../shared/error-text";
import { useServices } from "../../../context/ServicesContext";

export interface McpServerState {
  /** Main's status of each server by id; empty until it answers (or where it cannot). */
  statuses: ReadonlyMap<string, McpServerStatus>;
  /** Why statuses are unknown, when main could not say. */
  statusError: string | null;
  /** Per server id, the names of its secrets that are set. */
  secretsSet: ReadonlyMap<string, readonly string[]>;
  /** Per server id, the names of its secrets saved for its earlier address or program (to be entered again). */
  secretsElsewhere: ReadonlyMap<string, readonly string[]>;
  /** Asks main again for which secrets are set (after a save). */
  refreshSecrets(): void;
}

/**
 * What Settings shows beside each server's config: its status, kept current by main's `mcp-status` events (pages
 * never poll), and which of its secrets are set. `configVersion` changes whenever the server list does, so both are
 * asked again then.
 */
export function useMcpServerState(configVersion: unknown): McpServerState {
  const services = useServices();
  const [statuses, setStatuses] = useState<ReadonlyMap<string, McpServerStatus>>(new Map());
  const [statusError, setStatusError] = useState<string | null>(null);
  const [secretsSet, setSecretsSet] = useState<ReadonlyMap<string, readonly string[]>>(new Map());
  const [secretsElsewhere, setSecretsElsewhere] = useState<ReadonlyMap<string, readonly string[]>>(new Map());
  const [secretsAsked, setSecretsAsked] = useState(0);

  useEffect(() => services.onEvent((event) => {
    if (event.type !== "mcp-status") return;
    setStatuses(byId(event.servers));
    setStatusError(null);
  }), [services]);

  // Asked inside a promise: a host without the MCP calls (an old fixture) is then a refusal, not a crash.
  useEffect(() => {
    let live = true;
    Promise.resolve().then(() => services.app.mcpStatus()).then(
      (list) => {
        if (!live) return;
        setStatuses(byId(list));
        setStatusError(null);
      },
      (e: unknown) => {
        if (live) setStatusError(errorText(e));
      },
    );
    return () => {
      live = false;
    };
  }, [services, configVersion]);

  useEffect(() => {
    let live = true;
    Promise.resolve().then(() => services.app.mcpSecretStatus()).then(
      (list: McpSecretStatus[]) => {
        if (!live) return;
        setSecretsSet(new Map(list.map((s) => [s.id, s.set])));
        setSecretsElsewhere(new Map(list.map((s) => [s.id, s.savedElsewhere ?? []])));
      },
      () => undefined, // Shown as "not set"; saving tells the real problem.
    );
    return () => {
      live = false;
    };
  }, [services, configVersion, secretsAsked]);

  const refreshSecrets = useCallback(() => setSecretsAsked((n) => n + 1), []);
  return { statuses, statusError, secretsSet, secretsElsewhere, refreshSecrets };
}

function byId(list: readonly McpServerStatus[]): Map<string, McpServerStatus> {
  return new Map(list.map((s) => [s.id, s]));
}
