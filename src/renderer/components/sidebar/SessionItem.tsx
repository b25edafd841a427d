import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from "react";
import type { ChatExportFormat, SessionSummary } from "../../../shared/protocol/app-api";
import { usePopoverDismiss } from "../common/use-popover-dismiss";

interface SessionItemProps {
  session: SessionSummary;
  active: boolean;
  onOpen(where: "this-window" | "new-window"): void;
  onRename(title: string): void;
  onDelete(): void;
  onExport(format: ChatExportFormat): void;
}

/**
 * A session in the sidebar. Click opens it here; Ctrl/Cmd/Shift-click or the menu opens it in a new window.
 * Rename happens in place (double-click, F2 or the menu); Enter keeps the new title, Esc cancels.
 */
export function SessionItem({ session, active, onOpen, onRename, onDelete, onExport }: SessionItemProps) {
  const [editing, setEditing] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);

  const open = (e: MouseEvent) => onOpen(e.ctrlKey || e.metaKey || e.shiftKey ? "new-window" : "this-window");
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "F2") {
      e.preventDefault();
      setEditing(true);
    } else if (e.key === "Delete") {
      e.preventDefault();
      onDelete();
    }
  };

  return (
    <li className={`session-item${active ? " active" : ""}${session.unread ? " unread" : ""}`} data-testid="session-item"
      data-session-id={session.id} data-state={sessionState(session)}
      onContextMenu={(e) => {
        e.preventDefault();
        setMenuOpen(true);
      }}>
      {editing ? (
        <RenameInput initial={session.title} onDone={(title) => {
          setEditing(false);
          if (title !== null && title.trim() && title.trim() !== session.title) onRename(title.trim());
        }} />
      ) : (
        <button type="button" className="session-open" onClick={open} onDoubleClick={() => setEditing(true)}
          onKeyDown={onKeyDown} aria-current={active ? "page" : undefined} title={session.title}>
          <SessionState session={session} />
          <span className="session-title">{session.title || "New chat"}</span>
        </button>
      )}
      {!editing ? (
        <button type="button" className="icon-button session-menu-button" aria-label={`Actions for ${session.title}`}
          aria-haspopup="menu" aria-expanded={menuOpen} onClick={() => setMenuOpen((o) => !o)}>⋯</button>
      ) : null}
      {menuOpen ? (
        <SessionMenu
          onClose={() => setMenuOpen(false)}
          items={[
            ["Open in new window", () => onOpen("new-window")],
            ["Rename", () => setEditing(true)],
            ["Export as Markdown", () => onExport("markdown")],
            ["Export as JSON", () => onExport("json")],
            ["Delete", onDelete],
          ]}
        />
      ) : null}
    </li>
  );
}

type StateName = "running" | "waiting" | "failed" | "unread" | "idle";

/** What the chat's marker says: working or waiting now wins over how a run ended unseen. */
function sessionState(session: SessionSummary): StateName {
  if (session.activity) return session.activity;
  if (session.unread === "failed") return "failed";
  if (session.unread === "done") return "unread";
  return "idle";
}

const STATE_LABELS: Record<Exclude<StateName, "idle">, string> = {
  running: "Working",
  waiting: "Waiting for you",
  failed: "Failed — not seen yet",
  unread: "Finished — not seen yet",
};

/** The marker before the title; screen readers hear its label, everyone sees it as a tooltip. */
function SessionState({ session }: { session: SessionSummary }) {
  const state = sessionState(session);
  if (state === "idle") return null;
  return <span className={`state-dot state-${state}`} role="img" aria-label={STATE_LABELS[state]} title={STATE_LABELS[state]} />;
}

function RenameInput({ initial, onDone }: { initial: string; onDone(title: string | null): void }) {
  const [value, setValue] = useState(initial);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  return (
    <input ref={input} className="rename-input" aria-label="Session title" value={value} data-testid="rename-input"
      onChange={(e) => setValue(e.target.value)}
      onBlur={() => onDone(value)}
      onKeyDown={(e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          onDone(value);
        } else if (e.key === "Escape") {
          e.preventDefault(); // keeps the chat's Esc-to-abort out of it
          onDone(null);
        }
      }} />
  );
}

/** A small menu: arrow keys move, Enter picks, Esc or a click elsewhere closes. */
export function SessionMenu({ items, onClose }: { items: [string, () => void][]; onClose(): void }) {
  const menu = useRef<HTMLDivElement>(null);
  useEffect(() => {
    menu.current?.querySelector<HTMLButtonElement>("button")?.focus();
  }, []);
  const dismiss = usePopoverDismiss(true, menu, onClose);
  const onKeyDown = (e: KeyboardEvent) => {
    const buttons = [...(menu.current?.querySelectorAll<HTMLButtonElement>("button") ?? [])];
    const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === "Escape") {
      dismiss(e);
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const next = (i + (e.key === "ArrowDown" ? 1 : buttons.length - 1)) % buttons.length;
      buttons[next]?.focus();
    }
  };
  return (
    <div className="menu" role="menu" ref={menu} onKeyDown={onKeyDown}>
      {items.map(([label, run]) => (
        <button key={label} type="button" role="menuitem" className={label === "Delete" ? "danger" : undefined}
          onClick={() => {
            onClose();
            run();
          }}>
          {label}
        </button>
      ))}
    </div>
  );
}
