import { useMemo } from "react";
import { errorText } from "../../../shared/error-text";
import type { AgentStateData } from "../../../shared/agent/state";
import { hasTextToContinue, isUnfinishedReply } from "../../../shared/agent/unfinished-reply";
import type { SessionCommands } from "../../store/session-view";
import type { MessageActionsValue } from "./message-actions";

interface MessageActionsInput {
  commands: SessionCommands;
  state: Readonly<AgentStateData>;
  historyStart: number;
  /** Why the link to the agent is down, when it is. */
  disconnected?: string;
  /** Shows (or clears) the chat's error banner; must be stable (a state setter). */
  setError(text: string | null): void;
}

/**
 * The message rows' actions for ChatView. The value changes only when what the bars show changes (a run starting or
 * ending, versions, the last message), not with every streamed frame, so rows in view re-render only then.
 */
export function useMessageActions({ commands, state, historyStart, disconnected, setError }: MessageActionsInput): MessageActionsValue {
  const running = state.isStreaming;
  const messages = state.messages;
  const last = messages[messages.length - 1];
  const lastIndex = historyStart + messages.length - 1;
  const canContinue = !running && isUnfinishedReply(last) && hasTextToContinue(last);
  const blocked = disconnected ?? (running ? "The agent is working: wait for it, or stop it" : undefined);
  const branches = state.branches;
  return useMemo<MessageActionsValue>(
    () => ({
      blocked,
      branches,
      lastIndex,
      canContinue,
      editMessage: (index, text) => commands.editMessage(index, text),
      regenerate: () => commands.regenerate(),
      continueReply: () => commands.continueReply(),
      switchBranch: (at, version) => commands.switchBranch(at, version),
      deleteMessage: (index) => commands.deleteMessage(index),
      onError: (error) => setError(errorText(error)),
    }),
    [blocked, branches, lastIndex, canContinue, commands, setError],
  );
}
