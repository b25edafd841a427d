/**
 * Which API-key rows Settings shows, in what order: pure, so unit tests pin it down without a page.
 */
import type { ProviderStatus } from "../../../shared/protocol/app-api";
import { customProviderId } from "../../../shared/providers/custom-provider";
import { providerDisplayName } from "../../../shared/providers/provider-names";

export interface KeyRow {
  status: ProviderStatus;
  /** The provider's display name (shared/providers/provider-names.ts). */
  name: string;
}

export interface KeyRows {
  /** Providers with a key (saved here or from the environment): always shown. */
  configured: KeyRow[];
  /** The rest, behind "Show all providers (N)": what `filter` keeps of them. */
  others: KeyRow[];
  /** How many the rest are before filtering (the N of "Show all providers (N)"). */
  othersTotal: number;
}

/**
 * pi-ai's providers as key rows (custom endpoints are left out: their keys live in the endpoint editor), each part
 * by display name. `filter` narrows `others` to rows whose name or id holds every word of it (case-insensitive);
 * a blank filter keeps them all. Never drops or duplicates a provider otherwise.
 */
export function keyRows(statuses: readonly ProviderStatus[], filter = ""): KeyRows {
  const rows = statuses
    .filter((s) => customProviderId(s.provider) === undefined)
    .map((status): KeyRow => ({ status, name: providerDisplayName(status.provider) }))
    .sort((a, b) => a.name.localeCompare(b.name, "en", { sensitivity: "base" }) || a.status.provider.localeCompare(b.status.provider));
  const configured = rows.filter((r) => r.status.keySource !== "none");
  const rest = rows.filter((r) => r.status.keySource === "none");
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const others = rest.filter((r) => {
    const text = `${r.name} ${r.status.provider}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
  return { configured, others, othersTotal: rest.length };
}
