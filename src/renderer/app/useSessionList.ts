import { useCallback, useEffect, useState } from "react";
import type { AppApi, AppEvent, SessionSummary } from "../../shared/protocol/app-api";
import { planDelete, upsertSession, withTitle, withoutActivity, withoutSession, type UndoDelete } from "./session-list";

/** How long "Deleted …" offers Undo. */
export const UNDO_MS = 8000;

export interface SessionList {
  /** The chats the sidebar lists (subagents' chats are not among them). */
  sessions: SessionSummary[];
  /** The list as main has it now (after the window had the focus back, after a failed rename). */
  refresh(): Promise<void>;
  /** The list as a (re)load found it. */
  replace(list: SessionSummary[]): void;
  /** A chat this page created: added once, whether or not main's push about it came first. */
  add(created: SessionSummary): void;
  /** Main's push about a chat: changed, or removed. Other events are not the list's business. */
  onEvent(event: AppEvent): void;
  /** The host went away: nothing shows as running meanwhile. */
  clearActivity(): void;
  /** Shows the new title at once; a rename main refuses is reported and the list read again. */
  rename(id: string, title: string): void;
  /**
   * Deletes the chat `id`, offering Undo for `UNDO_MS`. When it is the open chat (`activeId`), `open` moves the
   * window to its neighbour first, or, when it was the only one, `newChat` runs once main has deleted it.
   */
  remove(id: string, activeId: string | undefined, then: { open(next: string): void; newChat(): void }): void;
  /** The deleted chat Undo would bring back, while its toast shows. */
  undo: UndoDelete | null;
  /** Undo: main restores the chat and the list is read again. */
  restore(id: string): void;
  dismissUndo(): void;
}

/**
 * The sidebar's chat list: what main says it is (loaded, then kept by main's pushes: the sidebar never polls), and
 * the user's rename and delete with undo. Failures go to `report`.
 */
export function useSessionList(app: AppApi, report: (error: unknown) => void): SessionList {
  const [sessions, setSessions] = useState<SessionSummary[]>([]);
  const [undo, setUndo] = useState<UndoDelete | null>(null);

  const refresh = useCallback(() => app.listSessions().then(setSessions, report), [app, report]);
  const add = useCallback((created: SessionSummary) => setSessions((old) => upsertSession(old, created)), []);
  const clearActivity = useCallback(() => setSessions(withoutActivity), []);
  const onEvent = useCallback((event: AppEvent) => {
    if (event.type === "session") setSessions((old) => upsertSession(old, event.session));
    else if (event.type === "session-removed") setSessions((old) => withoutSession(old, event.id));
  }, []);

  useEffect(() => {
    if (!undo) return;
    const timer = setTimeout(() => setUndo(null), UNDO_MS);
    return () => clearTimeout(timer);
  }, [undo]);

  const rename = (id: string, title: string) => {
    setSessions((old) => withTitle(old, id, title));
    app.renameSession(id, title).catch((e: unknown) => {
      report(e);
      void refresh();
    });
  };

  const remove: SessionList["remove"] = (id, activeId, then) => {
    const plan = planDelete(sessions, id, activeId);
    if (plan.next) then.open(plan.next);
    app.deleteSession(id).then(() => {
      setSessions((old) => withoutSession(old, id));
      setUndo(plan.undo);
      if (plan.newChatAfter) then.newChat();
    }, report);
  };

  const restore = (id: string) => {
    setUndo(null);
    app.restoreSession(id).then(() => refresh(), report);
  };

  return {
    sessions, refresh, replace: setSessions, add, onEvent, clearActivity, rename, remove, undo, restore,
    dismissUndo: () => setUndo(null),
  };
}
