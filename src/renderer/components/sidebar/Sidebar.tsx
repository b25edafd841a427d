import { useCallback, useMemo, useRef, useState, type Ref } from "react";
import type { ChatExportFormat, MessageHit, SessionSummary } from "../../../shared/protocol/app-api";
import { SessionItem } from "./SessionItem";
import { groupByProject, groupSessions, projectFolder, type ProjectGroup } from "./groupSessions";
import { MessageSearchResults } from "./MessageSearchResults";
import { FolderIcon, GearIcon, PlusIcon, SidebarIcon } from "../common/icons";
import { chordText } from "../common/Keys";
import { shortcut } from "../../../shared/shortcuts";
import { useServices } from "../../context/ServicesContext";
import { importChatFile, saveChatExport } from "../common/chat-files";
import { useFocusAfterDelete } from "./useFocusAfterDelete";
import { ScheduledSection } from "../schedules/ScheduledSection";

interface SidebarProps {
  /** Hides the sidebar (App's useSidebarHidden; a narrow window's drawer closes); absent: no button. */
  onHide?(): void;
  sessions: readonly SessionSummary[];
  activeId: string | undefined;
  settingsOpen: boolean;
  /**
   * "New chat": with no argument, in the current project (the App knows the chat shown); from a project's `+`, in
   * that project's folder (null: "No project", a chat without a workspace).
   */
  onNewChat(project?: string | null): void;
  /** "New chat in a worktree": the page asks for a repository's folder (components/worktrees). */
  onNewWorktreeChat?(): void;
  onOpen(id: string, where: "this-window" | "new-window"): void;
  /** Opens a chat at a message a search found. */
  onOpenMessage(hit: MessageHit): void;
  /** Opens a chat with its Changes panel on a span (a scheduled run's changes, from the Scheduled list). */
  onOpenChanges(chatId: string, span: { from: string; to: string; label: string }): void;
  onRename(id: string, title: string): void;
  onDelete(id: string): void;
  onOpenSettings(): void;
  /** Something the user asked for failed (an export, an import): the App shows it. */
  onError(error: unknown): void;
  /** The `<nav>` element (the narrow window's drawer manages focus in it). */
  navRef?: Ref<HTMLElement>;
  /** Out of reach of focus and assistive technology (the narrow window's drawer while it is closed). */
  inert?: boolean;
}

/**
 * Sessions with new chat, import and the way to settings. Once a chat has a workspace the chats are grouped by
 * project (groupByProject: its folder, "No project" for the others), each group collapsible and with its own New
 * chat; before that, newest first by date. The search box filters the list by title and, below it, finds messages
 * across every chat (main's index).
 */
export function Sidebar(props: SidebarProps) {
  const { sessions, activeId, settingsOpen, onNewChat, onNewWorktreeChat, onOpen, onOpenMessage, onOpenChanges, onRename, onDelete, onOpenSettings, onError, navRef, inert, onHide } = props;
  const services = useServices();
  const [query, setQuery] = useState("");
  const fileInput = useRef<HTMLInputElement>(null);
  const [collapsed, toggleProject] = useCollapsedProjects();
  const byProject = !query.trim() && sessions.some((s) => projectFolder(s) !== undefined);
  const groups = useMemo((): SidebarGroup[] => {
    const q = query.trim().toLowerCase();
    if (!q) {
      if (byProject) return groupByProject(sessions);
      return groupSessions(sessions, Date.now()).map((g) => ({ ...g, key: g.label }));
    }
    // While searching: chats whose title matches, newest first, then the messages (below).
    const matching = sessions.filter((s) => (s.title || "New chat").toLowerCase().includes(q));
    return matching.length > 0 ? [{ key: "Chats", label: "Chats", sessions: matching }] : [];
  }, [sessions, query, byProject]);
  const shown = (g: SidebarGroup) => !(byProject && collapsed.has(g.key));
  const list = useRef<HTMLDivElement>(null);
  const order = useMemo(() => groups.filter((g) => !(byProject && collapsed.has(g.key))).flatMap((g) => g.sessions.map((s) => s.id)), [groups, collapsed, byProject]);
  const deleteChat = useFocusAfterDelete(list, order, sessions, onDelete);

  const exportChat = (id: string, format: ChatExportFormat) => void saveChatExport(services, id, format).catch(onError);
  const importChat = (file: File | undefined) => {
    if (!file) return;
    importChatFile(services, file).then((created) => onOpen(created.id, "this-window"), onError);
  };

  return (
    <nav className="sidebar" aria-label="Sessions" ref={navRef} inert={inert}>
      <div className="sidebar-top">
        <div className="brand"><span className="brand-mark" aria-hidden="true">P</span> Paddock
          {onHide ? (
            <button type="button" className="icon-button sidebar-hide" onClick={onHide} aria-label="Hide chats" data-testid="hide-sidebar"
              title={`Hide chats (${chordText(shortcut("toggle-sidebar").keys).label})`} aria-keyshortcuts={chordText(shortcut("toggle-sidebar").keys).aria}>
              <SidebarIcon />
            </button>
          ) : null}
        </div>
        <button type="button" className="btn btn-secondary new-chat" onClick={() => onNewChat()} data-testid="new-chat">
          <PlusIcon /> New chat
        </button>
        {onNewWorktreeChat ? (
          <button type="button" className="btn btn-ghost new-worktree-chat" onClick={onNewWorktreeChat} data-testid="new-worktree-chat"
            title="A chat whose agent works on a git branch of its own, in a worktree outside your folder">
            <PlusIcon /> New chat in a worktree
          </button>
        ) : null}
        <input type="search" className="search" dir="auto" placeholder="Search chats and messages" aria-label="Search chats and messages" value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Escape" && query) {
              e.preventDefault(); // keeps the chat's Esc-to-abort out of it
              setQuery("");
            }
          }}
          data-testid="session-search" />
      </div>
      <div className="session-scroll" data-testid="session-list" ref={list}>
        {groups.length === 0 ? (
          query ? null : <p className="muted sidebar-empty">No chats yet.</p>
        ) : (
          groups.map((g) => (
            <div key={g.key} className={`session-group${byProject ? " project-group" : ""}`} data-testid={byProject ? "project-group" : undefined}
              data-project={byProject ? g.folder ?? "" : undefined}>
              {byProject ? (
                <div className="project-header">
                  <button type="button" className="project-toggle" aria-expanded={shown(g)} onClick={() => toggleProject(g.key)}
                    title={g.folder ?? "Chats without a workspace"} data-testid="project-toggle">
                    <svg className="project-chevron" viewBox="0 0 12 12" aria-hidden="true"><path d="M3 4.5l3 3 3-3" /></svg>
                    {g.folder !== undefined ? <FolderIcon /> : <span className="project-no-folder" aria-hidden="true" />}
                    <h2 className="project-name">{g.label}</h2>
                    {!shown(g) ? <span className="project-count" aria-label={`${g.sessions.length} chats`}>{g.sessions.length}</span> : null}
                  </button>
                  <button type="button" className="icon-button project-new-chat" onClick={() => onNewChat(g.folder ?? null)}
                    aria-label={`New chat in ${g.label}`} title={g.folder ? `New chat in ${g.folder}` : "New chat without a workspace"} data-testid="project-new-chat">
                    <PlusIcon />
                  </button>
                </div>
              ) : <h2 className="group-label">{g.label}</h2>}
              {shown(g) ? <ul>
                {g.sessions.map((s) => (
                  <SessionItem key={s.id} session={s} active={s.id === activeId && !settingsOpen}
                    onOpen={(where) => onOpen(s.id, where)}
                    onRename={(title) => onRename(s.id, title)}
                    onDelete={() => deleteChat(s.id)}
                    onExport={(format) => exportChat(s.id, format)} />
                ))}
              </ul> : null}
            </div>
          ))
        )}
        <MessageSearchResults query={query} chats={sessions} onOpen={onOpenMessage} />
      </div>
      <ScheduledSection chat={scheduleChat(sessions, activeId)} onOpen={(id) => onOpen(id, "this-window")} onOpenChanges={onOpenChanges} onError={onError} />
      <div className="sidebar-bottom">
        <button type="button" className={`btn btn-ghost settings-button${settingsOpen ? " active" : ""}`}
          onClick={onOpenSettings} data-testid="open-settings" aria-pressed={settingsOpen}>
          <GearIcon /> Settings
        </button>
        <button type="button" className="btn btn-ghost import-button" onClick={() => fileInput.current?.click()}
          title="Import a chat exported from Paddock as JSON" data-testid="import-chat">
          Import chat…
        </button>
        <input ref={fileInput} type="file" accept=".json,application/json" hidden data-testid="import-file"
          onChange={(e) => {
            importChat(e.target.files?.[0]);
            e.target.value = ""; // the same file can be picked again
          }} />
      </div>
    </nav>
  );
}

/** The chat shown, as "Schedule…" offers to continue it and starts in its workspace. */
function scheduleChat(sessions: readonly SessionSummary[], activeId: string | undefined): { id: string; title: string; workspace?: string } | undefined {
  const chat = sessions.find((s) => s.id === activeId);
  if (!chat) return undefined;
  return { id: chat.id, title: chat.title || "New chat", ...(chat.workspace ? { workspace: chat.workspace } : {}) };
}

/** A group of the list: a project's (its folder, "No project"), a date's, or the search's. */
type SidebarGroup = Pick<ProjectGroup, "key" | "folder" | "label" | "sessions">;

/** Where the sidebar keeps which projects are collapsed (this page's storage; a project is its folder's key). */
const COLLAPSED_KEY = "paddock.sidebar.collapsedProjects";

/** The collapsed projects, kept across reloads (a storage that refuses simply forgets). */
function useCollapsedProjects(): [ReadonlySet<string>, (key: string) => void] {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => {
    try {
      const saved: unknown = JSON.parse(localStorage.getItem(COLLAPSED_KEY) ?? "[]");
      return new Set(Array.isArray(saved) ? saved.filter((k): k is string => typeof k === "string") : []);
    } catch {
      return new Set();
    }
  });
  const toggle = useCallback((key: string) => {
    setCollapsed((old) => {
      const next = new Set(old);
      if (!next.delete(key)) next.add(key);
      try {
        localStorage.setItem(COLLAPSED_KEY, JSON.stringify([...next]));
      } catch {
        // kept for this page only
      }
      return next;
    });
  }, []);
  return [collapsed, toggle];
}
