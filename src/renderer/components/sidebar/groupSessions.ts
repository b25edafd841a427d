import type { SessionSummary } from "../../../shared/protocol/app-api";

export interface SessionGroup {
  label: string;
  sessions: SessionSummary[];
}

const DAY = 86_400_000;

/** The sidebar's order: the most recently updated first (ties: the newer chat, then by id, so it never flickers). */
export function newestFirst(a: SessionSummary, b: SessionSummary): number {
  return b.updated - a.updated || b.created - a.created || a.id.localeCompare(b.id);
}

/** Newest first, grouped as Today / Yesterday / Previous 7 days / Older, relative to `now`. Empty groups are left out. */
export function groupSessions(sessions: readonly SessionSummary[], now: number): SessionGroup[] {
  const startOfToday = new Date(now).setHours(0, 0, 0, 0);
  const bounds: [string, number][] = [
    ["Today", startOfToday],
    ["Yesterday", startOfToday - DAY],
    ["Previous 7 days", startOfToday - 7 * DAY],
    ["Older", -Infinity],
  ];
  const groups = bounds.map(([label]) => ({ label, sessions: [] as SessionSummary[] }));
  for (const s of [...sessions].sort(newestFirst)) {
    const i = bounds.findIndex(([, from]) => s.updated >= from);
    groups[i].sessions.push(s);
  }
  return groups.filter((g) => g.sessions.length > 0);
}
