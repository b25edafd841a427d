import type { AppApi, SessionSummary } from "../../shared/protocol/app-api";
import { emptyChatToReuse, isUntouchedChat } from "../../shared/protocol/empty-chat";
import type { SessionView } from "../store/session-view";
import { projectFolder } from "../components/sidebar/groupSessions";

/**
 * Which chat "New chat" opens instead of creating one, or undefined to create one: the chat shown now if it is
 * untouched, else the newest untouched chat in the list (see isUntouchedChat), so that empty chats never pile up.
 * The chat shown now is judged by its live view where that is loaded (the list learns of a first message only when
 * the worker reports it), so a chat whose first prompt is on its way is never taken for an empty one. In a project
 * (`project`, a folder), a chat already empty there comes first (the chat shown, then the newest), then an untouched
 * one without a folder, which the caller gives the project's.
 */
export function chatForNewChat(sessions: readonly SessionSummary[], activeId: string | undefined, view: SessionView | undefined, project?: string): string | undefined {
  const current = activeId === undefined ? undefined : sessions.find((s) => s.id === activeId);
  const liveEmpty = current !== undefined && !(view !== undefined && view.sessionId === activeId && touched(view));
  if (project !== undefined) {
    if (current && liveEmpty && emptyIn(current, project)) return current.id;
    const there = sessions.filter((s) => s.id !== activeId && emptyIn(s, project)).sort((a, b) => b.updated - a.updated)[0];
    if (there) return there.id;
  }
  if (current && liveEmpty && isUntouchedChat(current)) return current.id;
  return emptyChatToReuse(sessions, activeId)?.id;
}

/** An untouched chat already given `project`'s folder (not a worktree chat: that one has its own). */
function emptyIn(session: SessionSummary, project: string): boolean {
  return session.worktree === undefined && session.workspace !== undefined && projectFolder(session) === project
    && isUntouchedChat({ ...session, workspace: undefined });
}

/** Whether the live view shows anything in the chat: a message, a run, or queued messages. */
function touched(view: SessionView): boolean {
  return view.historyStart > 0 || view.state.messages.length > 0 || view.state.isStreaming
    || view.steering.length > 0 || view.followUp.length > 0 || (view.held?.length ?? 0) > 0;
}

/**
 * The project "New chat" starts in when no project is named: the chat shown's (its workspace; a worktree chat's
 * repository folder, projectFolder), or none when it has none or is not listed (a subagent's chat).
 */
export function projectForNewChat(sessions: readonly SessionSummary[], activeId: string | undefined): string | undefined {
  const current = activeId === undefined ? undefined : sessions.find((s) => s.id === activeId);
  return current === undefined ? undefined : projectFolder(current);
}

/**
 * Gives the chat `id` the project's folder. The folder is a project's already (the user chose it, and insisted where
 * main asked why not), so main is not made to ask again; main still checks it is a folder there. Rejects with main's
 * reason (a folder since deleted).
 */
export async function inProject(app: Pick<AppApi, "setWorkspace">, id: string, folder: string): Promise<SessionSummary> {
  const answer = await app.setWorkspace(id, folder, true);
  if ("refused" in answer) throw new Error(`${answer.refused.folder}: ${answer.refused.reason}`);
  return answer;
}
