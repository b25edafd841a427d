import { createContext, useCallback, useEffect, useMemo, useRef, useState, type ContextType, type ReactNode } from "react";
import type { AgentMessage } from "../../../shared/agent/types";
import type { ChangeConflict, ConflictAnswer, RevertResult, RewindScope } from "../../../shared/protocol/changes";
import type { ChangesApi } from "../../../shared/protocol/session-protocol";
import { errorText } from "../../../shared/error-text";
import { NoticeBanner } from "../common/NoticeBanner";
import { DiffIcon } from "../common/icons";
import { ChatChanges, type ChangesTarget } from "./ChatChanges";
import { sinceKey } from "./changes-panel";
import { ConflictDialog } from "./ConflictDialog";
import { anyChangeCounts, doneText, pathOfCall, REWIND_LABELS, turnOfCall, userMessagePoints } from "./chat-changes";

/** A tool card's way to the Changes panel: opens it at the call's turn, on the file it wrote. */
export const ChangesOpenContext = createContext<{ openAtCall(toolCallId: string, toolName: string, args: unknown): void } | null>(null);

interface ChatChangesInput {
  commands: ChangesApi;
  messages: readonly AgentMessage[];
  historyStart: number;
  running: boolean;
  /** Why the chat records no checkpoints of its folder (WorkspaceInfo.checkpointsOff): the button says so. */
  checkpointsOff?: string;
  /** Shows a failed command's reason (the chat's error banner); must be stable. */
  setError(text: string | null): void;
  /**
   * A worktree chat's worktree: the panel opens at, and the count is of, everything since the commit the worktree
   * started from (what "Apply to workspace" brings over), not this turn.
   */
  worktree?: { branch: string; base: string };
}

interface ChatChangesParts {
  /** The header's "Changes" button (with the chat's count of changed files once known). */
  button: ReactNode;
  /** The panel, while open. */
  panel: ReactNode;
  /** The conflict dialog of a rewind or redo, and the notice offering Redo after a revert or rewind. */
  dialog: ReactNode;
  notice: ReactNode;
  open: ChangesOpenValue;
  /** Opens the panel on a recorded span of checkpoints (a scheduled run's), named `label` in its chooser. */
  openSpan(span: { from: string; to: string; label: string }): void;
  rewind(index: number, scope: RewindScope): void;
}

type ChangesOpenValue = NonNullable<ContextType<typeof ChangesOpenContext>>;

/**
 * The chat page's changes view (issue 24 §2–§3): the header button and the panel it opens (Esc or Close closes it
 * and the focus goes back where it was), the tool cards' way to open it at a call, rewind from a user message with
 * the conflict dialog, and Redo after a revert or rewind. The panel and the count load again when a run ends and
 * after a revert, rewind or redo.
 */
export function useChatChanges({ commands, messages, historyStart, running, checkpointsOff, setError, worktree }: ChatChangesInput): ChatChangesParts {
  const start = worktree ? "base" : "chat";
  const [target, setTarget] = useState<ChangesTarget & { seq: number }>();
  const [refresh, setRefresh] = useState(0);
  const [count, setCount] = useState<number>();
  const [pending, setPending] = useState<{
    conflicts: ChangeConflict[]; what: string; action: string; redoable: boolean; retry(answer?: ConflictAnswer): Promise<RevertResult>;
  }>();
  const [notice, setNotice] = useState<{ text: string; redo?: string }>();
  const opener = useRef<HTMLElement | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const seq = useRef(0);

  const wasRunning = useRef(running);
  const runningNow = useRef(running);
  runningNow.current = running;
  useEffect(() => {
    if (wasRunning.current && !running) setRefresh((n) => n + 1);
    wasRunning.current = running;
  }, [running]);

  // The count: only once a call said it changed files (a chat without any asks the worker nothing).
  const hasChanges = useMemo(() => anyChangeCounts(messages), [messages]);
  useEffect(() => {
    if ((!hasChanges && refresh === 0) || runningNow.current) return;
    let live = true;
    commands.listChanges({ kind: start }).then(
      (set) => live && setCount(set.totals.files),
      () => live && setCount(undefined),
    );
    return () => {
      live = false;
    };
  }, [commands, hasChanges, refresh, start]);

  const userMessages = useMemo(() => userMessagePoints(messages, historyStart), [messages, historyStart]);

  const openAt = useCallback((at: ChangesTarget) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setTarget({ ...at, seq: ++seq.current });
  }, []);
  const close = useCallback(() => {
    const back = opener.current?.isConnected ? opener.current : button.current;
    back?.focus();
    setTarget(undefined);
  }, []);

  // The messages through a ref: a tool card's context value stays the same while the transcript grows.
  const latest = useRef({ messages, historyStart });
  latest.current = { messages, historyStart };
  const open = useMemo<ChangesOpenValue>(() => ({
    openAtCall: (toolCallId, toolName, args) => {
      const turn = turnOfCall(latest.current.messages, latest.current.historyStart, toolCallId);
      openAt({ since: turn !== undefined ? `message:${turn}` : "chat", path: pathOfCall(toolName, args) });
    },
  }), [openAt]);

  const done = useCallback((what: string, result: Extract<RevertResult, { done: true }>, redoable: boolean) => {
    setRefresh((n) => n + 1);
    setNotice({ text: doneText(what, result), redo: redoable ? result.actionId : undefined });
  }, []);

  /** `what` names it done ("Files rewound"), `action` failing ("Rewind files"). */
  const attempt = useCallback((what: string, action: string, call: (answer?: ConflictAnswer) => Promise<RevertResult>, redoable: boolean, answer?: ConflictAnswer) => {
    setPending(undefined);
    setError(null);
    call(answer).then(
      (result) => (result.done ? done(what, result, redoable) : setPending({ conflicts: result.conflicts, what, action, redoable, retry: call })),
      (e: unknown) => setError(`${action} failed: ${errorText(e)}`),
    );
  }, [done, setError]);

  const rewind = useCallback((index: number, scope: RewindScope) => {
    attempt(REWIND_LABELS[scope].done, REWIND_LABELS[scope].item, (answer) => commands.rewind(index, scope, answer), true);
  }, [attempt, commands]);
  const redo = useCallback((actionId: string) => {
    setNotice(undefined);
    attempt("Redone", "Redo", (answer) => commands.redo(actionId, answer), false);
  }, [attempt, commands]);
  const onReverted = useCallback((result: Extract<RevertResult, { done: true }>) => done("Reverted", result, true), [done]);

  const openSpan = useCallback((span: { from: string; to: string; label: string }) => {
    openAt({ since: sinceKey({ kind: "range", from: span.from, to: span.to }), span });
  }, [openAt]);

  const isOpen = target !== undefined;
  return {
    button: (
      <button ref={button} type="button" className={`btn btn-ghost btn-small changes-button${isOpen ? " active" : ""}`} aria-expanded={isOpen}
        onClick={() => (isOpen ? close() : openAt({ since: worktree ? "base" : "turn" }))} data-testid="changes-button"
        title={checkpointsOff ? `Checkpoints are off: ${checkpointsOff}` : "What the agent changed in the workspace"}
        aria-label={count !== undefined ? `Changes: ${count} ${count === 1 ? "file" : "files"} changed in this chat` : "Changes"}>
        <DiffIcon /><span className="changes-word">Changes</span>{count !== undefined && count > 0 ? <span className="changes-count" aria-hidden="true">{count}</span> : null}
      </button>
    ),
    panel: target ? (
      <ChatChanges key={target.seq} commands={commands} userMessages={userMessages} target={target} worktree={worktree} refresh={refresh}
        onReverted={onReverted} onClose={close} />
    ) : null,
    dialog: pending ? (
      <ConflictDialog conflicts={pending.conflicts} onCancel={() => setPending(undefined)}
        onAnswer={(answer) => attempt(pending.what, pending.action, pending.retry, pending.redoable, answer)} />
    ) : null,
    notice: notice ? (
      <NoticeBanner level="info" text={notice.text} onDismiss={() => setNotice(undefined)}
        action={notice.redo !== undefined ? { label: "Redo", onClick: () => redo(notice.redo as string), testId: "changes-redo" } : undefined} />
    ) : null,
    open,
    openSpan,
    rewind,
  };
}
