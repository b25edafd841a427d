import { useMemo, useState } from "react";
import type { SessionSummary } from "../../../shared/protocol/app-api";
import { SessionItem } from "./SessionItem";
import { groupSessions } from "./groupSessions";
import { GearIcon, PlusIcon } from "../common/icons";

interface SidebarProps {
  sessions: readonly SessionSummary[];
  activeId: string | undefined;
  settingsOpen: boolean;
  onNewChat(): void;
  onOpen(id: string, where: "this-window" | "new-window"): void;
  onRename(id: string, title: string): void;
  onDelete(id: string): void;
  onOpenSettings(): void;
}

/** Sessions, newest first, with search, new chat and the way to settings. */
export function Sidebar(props: SidebarProps) {
  const { sessions, activeId, settingsOpen, onNewChat, onOpen, onRename, onDelete, onOpenSettings } = props;
  const [query, setQuery] = useState("");
  const groups = useMemo(() => {
    const q = query.trim().toLowerCase();
    const matching = q ? sessions.filter((s) => (s.title || "New chat").toLowerCase().includes(q)) : sessions;
    return groupSessions(matching, Date.now());
  }, [sessions, query]);

  return (
    <nav className="sidebar" aria-label="Sessions">
      <div className="sidebar-top">
        <div className="brand"><span className="brand-mark" aria-hidden="true">P</span> Paddock</div>
        <button type="button" className="btn btn-secondary new-chat" onClick={onNewChat} data-testid="new-chat">
          <PlusIcon /> New chat
        </button>
        <input type="search" className="search" placeholder="Search chats" aria-label="Search chats" value={query}
          onChange={(e) => setQuery(e.target.value)} data-testid="session-search" />
      </div>
      <div className="session-scroll" data-testid="session-list">
        {groups.length === 0 ? (
          <p className="muted sidebar-empty">{query ? "No chats match." : "No chats yet."}</p>
        ) : (
          groups.map((g) => (
            <div key={g.label} className="session-group">
              <h2 className="group-label">{g.label}</h2>
              <ul>
                {g.sessions.map((s) => (
                  <SessionItem key={s.id} session={s} active={s.id === activeId && !settingsOpen}
                    onOpen={(where) => onOpen(s.id, where)}
                    onRename={(title) => onRename(s.id, title)}
                    onDelete={() => onDelete(s.id)} />
                ))}
              </ul>
            </div>
          ))
        )}
      </div>
      <div className="sidebar-bottom">
        <button type="button" className={`btn btn-ghost settings-button${settingsOpen ? " active" : ""}`}
          onClick={onOpenSettings} data-testid="open-settings" aria-pressed={settingsOpen}>
          <GearIcon /> Settings
        </button>
      </div>
    </nav>
  );
}
