/**
 * The checkpoints each session keeps: one small JSON file per checkpoint, `<store>/sessions/<session>/<id>.json`,
 * naming the workspace and the root tree. A file per checkpoint so that several processes add, and the clean-up
 * drops, checkpoints without a lock and without rewriting anything: adding is a temporary file renamed into place,
 * dropping is an unlink, removing a session removes its folder.
 *
 * Ids sort by creation time (`<ms, 12 hex>-<counter>-<random>`), so a folder listing is the session's history.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface CheckpointRecord {
  v: 1;
  id: string;
  session: string;
  /** The workspace's real path, and its key (workspace-state.ts). */
  workspace: string;
  workspaceKey: string;
  /** The root tree's id. */
  root: string;
  createdAt: number;
  /** The paths this checkpoint re-examined (absent: a full scan). */
  paths?: string[];
}

const ID = /^[0-9a-f]{12}-[0-9a-f]{6}-[0-9a-f]{8}$/;
const SESSION = /^[A-Za-z0-9._-]{1,200}$/;
let counter = 0;

export function newCheckpointId(now = Date.now()): string {
  counter = (counter + 1) % 0x1000000;
  return `${now.toString(16).padStart(12, "0")}-${counter.toString(16).padStart(6, "0")}-${randomBytes(4).toString("hex")}`;
}

export function isCheckpointId(id: string): boolean {
  return ID.test(id);
}

/** A session id safe as a folder name (ids are uuids and the like); anything else is refused. */
export function checkSessionId(session: string): string {
  if (!SESSION.test(session) || session === "." || session === "..") throw new Error(`checkpoints: unusable session id: ${session}`);
  return session;
}

export function sessionsDir(storeRoot: string): string {
  return join(storeRoot, "sessions");
}

export function writeCheckpoint(storeRoot: string, tempPath: string, record: CheckpointRecord): void {
  const dir = join(sessionsDir(storeRoot), checkSessionId(record.session));
  mkdirSync(dir, { recursive: true });
  writeFileSync(tempPath, JSON.stringify(record), { flag: "wx" });
  renameSync(tempPath, join(dir, `${record.id}.json`));
}

export function readCheckpoint(storeRoot: string, session: string, id: string): CheckpointRecord | null {
  if (!isCheckpointId(id)) return null;
  try {
    return JSON.parse(readFileSync(join(sessionsDir(storeRoot), checkSessionId(session), `${id}.json`), "utf8")) as CheckpointRecord;
  } catch {
    return null;
  }
}

/** A session's checkpoints, oldest first. */
export function listCheckpoints(storeRoot: string, session: string): CheckpointRecord[] {
  let names: string[];
  try {
    names = readdirSync(join(sessionsDir(storeRoot), checkSessionId(session)));
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith(".json") && isCheckpointId(n.slice(0, -5)))
    .sort()
    .map((n) => readCheckpoint(storeRoot, session, n.slice(0, -5)))
    .filter((r): r is CheckpointRecord => r !== null);
}

export function listSessions(storeRoot: string): string[] {
  try {
    return readdirSync(sessionsDir(storeRoot)).filter((n) => SESSION.test(n));
  } catch {
    return [];
  }
}

export function dropCheckpoint(storeRoot: string, session: string, id: string): void {
  if (!isCheckpointId(id)) return;
  rmSync(join(sessionsDir(storeRoot), checkSessionId(session), `${id}.json`), { force: true });
}

export function dropSession(storeRoot: string, session: string): void {
  rmSync(join(sessionsDir(storeRoot), checkSessionId(session)), { recursive: true, force: true });
}
