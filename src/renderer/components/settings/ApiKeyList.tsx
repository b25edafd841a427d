import { useState } from "react";
import type { ProviderStatus } from "../../../shared/protocol/app-api";
import { ApiKeyRow } from "./ApiKeyRow";
import { keyRows } from "./provider-rows";

interface ApiKeyListProps {
  providerStatus: readonly ProviderStatus[];
  onChanged(): void;
  onError(message: string): void;
}

/**
 * pi-ai's providers' key rows by display name: those with a key first, the rest behind "Show all providers (N)"
 * with a filter box, so the list a newcomer meets is short and the one they need is a few letters away.
 */
export function ApiKeyList({ providerStatus, onChanged, onError }: ApiKeyListProps) {
  const [showAll, setShowAll] = useState(false);
  const [filter, setFilter] = useState("");
  const rows = keyRows(providerStatus, filter);
  const row = (r: (typeof rows.configured)[number]) => (
    <ApiKeyRow key={r.status.provider} name={r.name} status={r.status} onChanged={onChanged} onError={onError} />
  );
  return (
    <>
      {rows.configured.length > 0 ? rows.configured.map(row) : (
        <p className="field key-list-empty muted" data-testid="no-keys">No provider has a key yet.</p>
      )}
      {rows.othersTotal > 0 ? (
        <div className="field key-list-more">
          <button type="button" className="btn btn-secondary" aria-expanded={showAll} aria-controls="key-rows-rest"
            data-testid="show-all-providers" onClick={() => setShowAll((v) => !v)}>
            {showAll ? "Hide providers without a key" : `Show all providers (${rows.othersTotal})`}
          </button>
          {showAll ? (
            <input type="search" className="key-list-filter" aria-label="Filter providers" placeholder="Filter providers"
              value={filter} onChange={(e) => setFilter(e.target.value)} data-testid="provider-filter" />
          ) : null}
        </div>
      ) : null}
      {showAll && rows.othersTotal > 0 ? (
        <div id="key-rows-rest" className="key-rows-rest" data-testid="key-rows-rest">
          {rows.others.map(row)}
          {rows.others.length === 0 ? <p className="field muted">No provider without a key matches “{filter.trim()}”.</p> : null}
        </div>
      ) : null}
    </>
  );
}
