import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import type { ChangeSet, RevertResult } from "../../../shared/protocol/changes";
import type { ChangesApi } from "../../../shared/protocol/session-protocol";
import { errorText } from "../../../shared/error-text";
import { ChangesPanel } from "./ChangesPanel";
import { sinceOptions } from "./changes-panel";
import { sinceOfKey } from "./chat-changes";

/** Where the panel opens: the "since" point's chooser key, and the file shown first. */
export interface ChangesTarget {
  since: string;
  path?: string;
  /** A recorded span to offer (and open at, `since` being its key): a scheduled run's, named by `label`. */
  span?: { from: string; to: string; label: string };
}

interface ChatChangesProps {
  commands: Pick<ChangesApi, "listChanges" | "fileDiff" | "revertTurn" | "revertFile" | "revertHunk">;
  /** The chat's loaded user messages (session-wide index, text): the chooser's points. */
  userMessages: readonly { index: number; text: string }[];
  target: ChangesTarget;
  /** A worktree chat's worktree: the chooser offers (and opens at) the commit it started from. */
  worktree?: { branch: string; base: string };
  /** Changes when the change set may have changed (a run ended; a revert, rewind or redo went through). */
  refresh: number;
  onReverted(result: Extract<RevertResult, { done: true }>): void;
  onClose(): void;
}

/**
 * The chat's Changes panel, over the chat's right side: loads the change set since the chosen point (again whenever
 * `refresh` changes, keeping the one shown until the new one arrives), says in words why it could not. Opens with
 * the focus on its "since" chooser; Esc anywhere in it closes it (the caller gives the focus back).
 */
export function ChatChanges({ commands, userMessages, target, worktree, refresh, onReverted, onClose }: ChatChangesProps) {
  const options = useMemo(() => sinceOptions(userMessages, worktree, target.span), [userMessages, worktree, target.span]);
  const [since, setSince] = useState(() => (options.some((o) => o.key === target.since) ? target.since : "chat"));
  const [loaded, setLoaded] = useState<{ key: string; changes?: ChangeSet; error?: string }>();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let live = true;
    commands.listChanges(sinceOfKey(since)).then(
      (changes) => live && setLoaded({ key: since, changes }),
      (e: unknown) => live && setLoaded({ key: since, error: errorText(e) }),
    );
    return () => {
      live = false;
    };
  }, [commands, since, refresh]);

  useEffect(() => {
    root.current?.querySelector<HTMLElement>("[data-testid=changes-since]")?.focus();
  }, []);

  // A revert reloads the set and the shown diff: the button pressed (a hunk's) goes, and the focus with it. It goes to
  // the file list (the file stays chosen), so the keyboard carries on from the panel, and Esc still closes it.
  useEffect(() => {
    const active = document.activeElement;
    if (loaded && (active === null || active === document.body)) {
      root.current?.querySelector<HTMLElement>("[data-testid=changed-files], [data-testid=changes-since]")?.focus();
    }
  }, [loaded]);

  // Esc from within the panel (not from the conflict dialog, a portal whose events still bubble here: it has its own).
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== "Escape" || e.defaultPrevented || !root.current?.contains(e.target as Node)) return;
    e.preventDefault();
    onClose();
  };

  const shown = loaded?.key === since ? loaded : undefined;
  return (
    <div className="chat-changes" ref={root} onKeyDown={onKeyDown} data-testid="chat-changes">
      <ChangesPanel changes={shown?.changes} error={shown?.error} options={options} since={since} onSinceChange={setSince}
        commands={commands} onReverted={onReverted} onClose={onClose} initialPath={target.path} />
    </div>
  );
}
