import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from "react";
import type { ChatExportFormat, SessionSummary } from "../../../shared/protocol/app-api";
import { popoverTrigger, usePopoverDismiss } from "../common/use-popover-dismiss";
import { matchesChord, shortcut } from "../../../shared/shortcuts";

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
 * Rename happens in place (double-click, F2 or the menu); Enter keeps the new title, Esc cancels, and either gives
 * the focus back to the chat's button.
 */
export function SessionItem({ session, active, onOpen, onRename, onDelete, onExport }: SessionItemProps) {
  const [editing, setEditing] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const openButton = useRef<HTMLButtonElement>(null);
  /** Rename ended from the keyboard: the chat's button takes the focus back once it shows again. */
  const refocus = useRef(false);
  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    openButton.current?.focus();
  }, [editing]);

  const open = (e: MouseEvent) => onOpen(e.ctrlKey || e.metaKey || e.shiftKey ? "new-window" : "this-window");
  const onKeyDown = (e: KeyboardEvent) => {
    if (matchesChord(shortcut("rename-chat").keys, e)) {
      e.preventDefault();
      setEditing(true);
    } else if (matchesChord(shortcut("delete-chat").keys, e)) {
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
        <RenameInput initial={session.title} onDone={(title, byKey) => {
          if (byKey) refocus.current = true; // a blur as the input goes away must not undo it
          setEditing(false);
          if (title !== null && title.trim() && title.trim() !== session.title) onRename(title.trim());
        }} />
      ) : (
        <button ref={openButton} type="button" className="session-open" onClick={open} onDoubleClick={() => setEditing(true)}
          onKeyDown={onKeyDown} aria-current={active ? "page" : undefined} title={session.title}>
          <SessionState session={session} />
          <span className="session-title" dir="auto">{session.title || "New chat"}</span>
          {session.worktree ? <span className="session-worktree" title={`Works in a worktree: ${session.worktree.branch}`} data-testid="session-worktree">worktree</span> : null}
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

/** `onDone` gets the title (null: cancelled) and whether a key ended the rename (Enter, Esc) rather than a blur. */
function RenameInput({ initial, onDone }: { initial: string; onDone(title: string | null, byKey: boolean): void }) {
  const [value, setValue] = useState(initial);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  return (
    <input ref={input} className="rename-input" dir="auto" aria-label="Session title" value={value} data-testid="rename-input"
      onChange={(e) => setValue(e.target.value)}
      onBlur={() => onDone(value, false)}
      onKeyDown={(e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          onDone(value, true);
        } else if (e.key === "Escape") {
          e.preventDefault(); // keeps the chat's Esc-to-abort out of it
          onDone(null, true);
        }
      }} />
  );
}

/**
 * A small menu: arrow keys move, Enter picks, Esc or a click elsewhere closes. Picking an item or Esc gives the
 * focus back to the menu's button first, so an item that moves the focus (Rename, Find) takes it from there and
 * one that does not (Export) leaves the keyboard user where they were.
 */
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
            popoverTrigger(menu.current)?.focus();
            onClose();
            run();
          }}>
          {label}
        </button>
      ))}
    </div>
  );
}
