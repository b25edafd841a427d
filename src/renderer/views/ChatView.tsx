import { titleFrom } from "../../shared/agent/chat-title";
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { AssistantMessage } from "@earendil-works/pi-ai";
import type { ThinkingLevel } from "../../shared/agent/types";
import type { ModelOption, ModelRef } from "../../shared/protocol/app-api";
import { closestModel } from "../../shared/providers/closest-model";
import { currentProviderId } from "../../shared/providers/renamed-providers";
import type { AbortSettings } from "../../shared/settings/schema";
import type { SessionNotice } from "../store/session-view";
import type { SessionHandle } from "../services/app-services";
import { useSessionView } from "../store/useSessionHandle";
import { MessageList } from "../components/messages/MessageList";
import { buildTranscript, messageRowKey, streamingItem, type ChatItem } from "../components/messages/chatItems";
import { sumUsage } from "../../shared/agent/usage";
import { Composer } from "../components/composer/Composer";
import { QueueStrip } from "../components/composer/QueueStrip";
import { ErrorBanner } from "../components/common/ErrorBanner";
import { RetryBanner } from "../components/common/RetryBanner";
import { NoticeBanner, NoticeStack } from "../components/common/NoticeBanner";
import { ChatBody } from "../components/common/LayoutFrameScope";
import { groupNotices, noticeLevel } from "../components/common/notice-groups";
import { ModelPicker, ThinkingPicker } from "../components/common/ModelPicker";
import { effectiveThinkingLevel } from "../components/common/model-picker-items";
import { EmptyChat } from "./EmptyChat";
import { useChatFind, type MessageTarget } from "../components/find/useChatFind";
import { ChatMenu } from "../components/common/ChatMenu";
import { MenuIcon } from "../components/common/icons";
import { WorkspaceButton } from "../components/common/WorkspaceButton";
import { WorktreeStrip } from "../components/worktrees/WorktreeStrip";
import type { WorktreeRecord } from "../../shared/protocol/worktrees";
import { ApprovalsContext } from "../components/messages/approvals";
import { useMessageActions } from "../components/messages/useMessageActions";
import { MessageActionsContext } from "../components/messages/message-actions-context";
import type { ApprovalAnswer } from "../../shared/protocol/session-protocol";
import { isModelChosen } from "../../shared/agent/state";
import { errorText } from "../../shared/error-text";
import { hasTextToContinue, isInterruptedReply } from "../../shared/agent/unfinished-reply";
import { attachmentKind, imagesRefused, readsImages, type AttachmentRef } from "../../shared/protocol/attachments";
import type { ChatOptions } from "../../shared/protocol/chat-options";
import { base64Blob, uploadAttachments, type PendingAttachment } from "../components/attachments/attachment-files";
import type { WorkspaceFileSource } from "../components/composer/useMentionMenu";
import { attachmentLoader, AttachmentsContext } from "../components/attachments/attachment-loader";
import { ProfilePicker } from "../components/chat-settings/ProfilePicker";
import { PlanCard } from "../components/messages/PlanCard";
import { composerMode, composerModeLabel, composerModeTitle, inPlanMode, messageContract, modeLabel, nextComposerMode, pendingPlan, planInstruction, withPlan } from "../../shared/agent/plan-mode";
import { effectiveProfile } from "../../shared/protocol/permission-profiles";
import type { PermissionProfile } from "../../shared/protocol/permission-profiles";
import { ChatSettings } from "../components/chat-settings/ChatSettings";
import type { ChatMcpServer } from "../components/chat-settings/ChatMcpServers";
import { ContextMeter } from "../components/common/ContextMeter";
import { BudgetMeter } from "../components/chat-settings/BudgetMeter";
import type { BudgetCaps, ChatBudget } from "../../shared/agent/budget";
import { chordLabel, matchesChord, shortcut } from "../../shared/shortcuts";
import { contextFigures, transcriptTokens } from "../components/common/context-meter-figures";
import { focusQuestion } from "../components/messages/approval-focus";
import { chordText, onMac } from "../components/common/Keys";
import { visibleText } from "../../shared/security/hidden-characters";
import { ChangesOpenContext, useChatChanges } from "../components/changes/useChatChanges";
import { ToolOutputContext } from "../components/messages/tool-output";
import { SubagentBanner } from "../components/messages/SubagentBanner";

interface ChatViewProps {
  handle: SessionHandle;
  /** The sidebar's title; absent for a chat it does not list (then the first message names it). */
  title?: string;
  models: readonly ModelOption[];
  abortSettings: AbortSettings;
  /** The host (main, the browser host) does not answer: nothing can be sent or stopped until it is back. */
  hostDown?: boolean;
  /** Open at this message (a search result), once it has loaded. */
  target?: MessageTarget;
  /** Open the Changes panel on this span (a scheduled run's, from the sidebar's "3 files changed"); a new nonce opens it again. */
  changesSpan?: { from: string; to: string; label: string; nonce: number };
  /** Settings' default instructions, shown where a chat has none of its own. */
  defaultInstructions?: string;
  /** Settings' default permission profile, for a chat that chose none. */
  defaultProfile?: PermissionProfile;
  /** Settings' caps for each run of a chat that has none of its own (Settings → Budgets). */
  runBudget?: BudgetCaps;
  /** A worktree chat's worktree (its sidebar entry's): the strip under the header says so and offers its actions. */
  worktree?: Pick<WorktreeRecord, "branch" | "repositoryRoot" | "base">;
  /** Settings' MCP servers, for the chat's choice of them. */
  mcpServers?: readonly ChatMcpServer[];
  /** Shows the sidebar where it is hidden (a narrow window's drawer, or hidden by the user); absent while it shows. */
  onToggleSidebar?(): void;
  /** The app's own notices (main's, the last failure), floated with the chat's. */
  appNotices?: ReactNode;
  /** Adds a model id a built-in provider's catalogue lacks (settings' added models) and lists it; absent: not offered. */
  onAddModel?(model: ModelRef): Promise<void>;
  /** Opens Settings (the composer links there: no model set up, a model that does not read images). */
  onOpenSettings?(): void;
  /** Opens another chat in this window (a subagent's banner links to its parent); absent: main is asked to. */
  onOpenChat?(sessionId: string): void;
}

/** One session: header with model controls and cost, the transcript, banners, the queue and the composer. */
export function ChatView({ handle, title: listedTitle, models, abortSettings, hostDown = false, defaultInstructions = "", defaultProfile, runBudget, mcpServers, target, changesSpan, onToggleSidebar, onAddModel, onOpenSettings, worktree, appNotices, onOpenChat }: ChatViewProps) {
  const view = useSessionView(handle);
  const state = view.state;
  const commands = handle.commands;
  // A run waiting to retry is at work too, also in the moment between the failed attempt's run and the retry's.
  const running = state.isStreaming || view.retry !== undefined;
  const [recovering, setRecovering] = useState<"retry" | "continue" | null>(null);
  /** Counts the user's sends: sending brings the list back to the newest message. */
  const [sent, setSent] = useState(0);
  const [actionError, setActionError] = useState<string | null>(null);

  const historyStart = view.historyStart;
  const find = useChatFind({ messages: state.messages, historyStart, target });
  const transcript = useMemo(() => buildTranscript(state.messages, historyStart), [state.messages, historyStart]);
  const usage = useMemo(() => sumUsage(state.messages), [state.messages]);
  const inContext = useMemo(() => transcriptTokens(state.messages, historyStart), [state.messages, historyStart]);
  // Memoized so the (memo) meter re-renders only when its figures change, not with every render of the view.
  const contextMeterFigures = useMemo(() => contextFigures(inContext, state.streamingMessage, state.model.contextWindow),
    [inContext, state.streamingMessage, state.model.contextWindow]);
  const items = useMemo(() => {
    const next = historyStart + state.messages.length;
    // While a retry waits its banner says what happens; the "thinking" row comes back as the retry asks.
    const tail = streamingItem(state.streamingMessage, next) ?? waitingItem(state, running && !view.retry, next);
    const head: ChatItem[] = historyStart > 0 ? [{ kind: "history", key: "history", count: historyStart }] : [];
    return head.length > 0 || tail ? [...head, ...transcript.items, ...(tail ? [tail] : [])] : transcript.items;
  }, [transcript, state, running, historyStart, view.retry]);

  const title = listedTitle || titleFrom(state.messages) || "New chat";
  const currentModel = models.find((m) => m.provider === state.model.provider && m.id === state.model.id);
  const failure = running ? null : lastFailure(state.messages, state.errorMessage);

  // Stable callbacks: the header, queue strip and composer are memoized and must not re-render with every
  // streamed frame (ChatView itself does, as the view changes).
  const act = useCallback((p: Promise<void>) => {
    setActionError(null);
    p.catch((e: unknown) => setActionError(errorText(e)));
  }, []);

  const stop = useCallback((clearQueues: boolean) => {
    // Queues are cleared first so a queued follow-up cannot start as the aborted run ends.
    const cleared = clearQueues ? commands.clearQueues() : Promise.resolve();
    cleared.then(() => commands.abort()).catch((e: unknown) => setActionError(errorText(e)));
  }, [commands]);

  const disconnected = connectionProblem(view.connection, hostDown);
  const escAction = abortSettings.escAction;
  useEffect(() => {
    if (!running || escAction === "nothing" || disconnected) return;
    const onKey = (e: KeyboardEvent) => {
      if (!matchesChord(shortcut("stop").keys, e) || e.defaultPrevented) return;
      e.preventDefault();
      // The worker itself clears the queues on abort when `clearQueuesOnAbort` is set; this is Esc's own choice.
      stop(escAction === "abort-and-clear-queues");
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [running, escAction, stop, disconnected]);

  /** Retry asks again in place of the failed reply; Continue has the model go on from an interrupted one. */
  const recover = (how: "retry" | "continue") => {
    setRecovering(how);
    setActionError(null);
    const done = how === "retry" ? commands.continue() : commands.continueReply();
    done.catch((e: unknown) => setActionError(errorText(e))).finally(() => setRecovering(null));
  };
  const lastMessage = state.messages[state.messages.length - 1];
  const continuable = !running && isInterruptedReply(lastMessage) && hasTextToContinue(lastMessage);

  const approvals = useMemo(
    () => ({
      pending: new Map(view.approvals.map((a) => [a.toolCallId, a])),
      answer: (id: string, answer: ApprovalAnswer, reason?: string) => commands.answerApproval(id, answer, reason),
    }),
    [view.approvals, commands],
  );
  // A question does not take the focus from the message box (approval-focus.ts): this key goes to the oldest one,
  // bringing the list back to the newest messages first if its card is not on screen.
  const oldestQuestion = view.approvals[0]?.toolCallId;
  const [questionJumps, setQuestionJumps] = useState(0);
  useEffect(() => {
    if (oldestQuestion === undefined) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.repeat || !matchesChord(shortcut("go-to-question").keys, e)) return;
      e.preventDefault();
      if (!document.querySelector(`[data-approval-id="${CSS.escape(oldestQuestion)}"]`)) setQuestionJumps((n) => n + 1);
      focusQuestion(oldestQuestion);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [oldestQuestion]);

  const onModelChange = useCallback((m: ModelOption) => act(commands.setModel({ provider: m.provider, id: m.id })), [act, commands]);
  // A typed id: main must know it (settings' added models) before the worker asks main to resolve it.
  const onUseTyped = useMemo(() => (onAddModel ? (ref: ModelRef) => act(onAddModel(ref).then(() => commands.setModel(ref))) : undefined), [act, commands, onAddModel]);
  /** The retired-model notice's one-click fix: the listed model of the same provider closest to the one gone. */
  const replacementFor = useCallback((gone: ModelRef) => {
    const provider = currentProviderId(gone.provider);
    return closestModel(gone.id, models.filter((m) => m.provider === provider));
  }, [models]);
  const onThinkingChange = useCallback((level: ThinkingLevel) => act(commands.setThinkingLevel(level)), [act, commands]);
  const onRemoveQueued = useCallback(
    (queue: "steering" | "followUp", index: number) => act(commands.removeQueued(queue, index)),
    [act, commands],
  );
  const onSendHeld = useCallback((index: number) => act(commands.sendHeld(index)), [act, commands]);
  const onDiscardHeld = useCallback((index: number) => act(commands.discardHeld(index)), [act, commands]);
  // The chat's attachments for showing, fetched once each while the chat is open.
  const attachments = useMemo(() => attachmentLoader((id) => commands.getAttachment(id)), [commands]);
  useEffect(() => () => attachments.dispose(), [attachments]);
  const imagesRefusal = readsImages(state.model) ? undefined : imagesRefused(currentModel?.name ?? (state.model.name || "This model"));
  /** Stores the files, then hands their refs on; images for a model that cannot read them are refused first. */
  const withFiles = useCallback(async (files: PendingAttachment[], send: (refs: AttachmentRef[]) => Promise<void>) => {
    if (imagesRefusal && files.some((f) => f.kind === "image")) throw new Error(imagesRefusal);
    return send(await uploadAttachments(files, (name, mime, data) => commands.putAttachment(name, mime, data), attachments.seed));
  }, [commands, attachments, imagesRefusal]);
  // The composer's `@`: the worker lists and reads the workspace's files; an image's bytes come back for its thumbnail.
  const hasWorkspace = view.workspace !== undefined && !view.workspace.problem;
  const workspaceFiles = useMemo<WorkspaceFileSource | undefined>(() => hasWorkspace ? {
    list: (query) => commands.listWorkspaceFiles(query),
    attach: async (path) => {
      const ref = await commands.attachWorkspaceFile(path);
      if (attachmentKind(ref) !== "image") return { ref, file: new Blob([], { type: ref.mimeType }) };
      const { data, mimeType } = await commands.getAttachment(ref.id);
      return { ref, file: base64Blob(data, mimeType) };
    },
  } : undefined, [commands, hasWorkspace]);
  // Plan for the next message only (plan-mode.ts, ComposerMode "once"): the composer's, never the chat's options; a
  // chat opened anew starts in its act mode.
  const [planOnce, setPlanOnce] = useState(false);
  useEffect(() => setPlanOnce(false), [view.sessionId]);
  // The composer's mode a message sent now goes in (its run's contract: Plan for this message, the chat staying in its
  // act profile).
  const sendMode = composerMode(inPlanMode(view.chatOptions), planOnce);
  const onSend = useCallback((text: string, files: PendingAttachment[]) => withFiles(files, async (refs) => {
    setSent((n) => n + 1);
    const contract = messageContract(sendMode);
    // Resolves once the worker has the message (journaled): a rejection means it was not sent, so the composer keeps
    // the text (and its mode); a connection lost later, while the reply streams, does not reach this call.
    await (contract ? commands.prompt(text, refs, contract) : commands.prompt(text, refs));
    // Sent: the one-message plan is spent, the composer is back to act.
    if (contract) setPlanOnce(false);
  }), [commands, withFiles, sendMode]);
  const onSteer = useCallback((text: string, files: PendingAttachment[]) => withFiles(files, (refs) => commands.steer(text, refs)), [commands, withFiles]);
  const onFollowUp = useCallback((text: string, files: PendingAttachment[]) => withFiles(files, (refs) => commands.followUp(text, refs)), [commands, withFiles]);
  /** The draft's files are kept in the chat's attachment folder, as a sent message's are (reached once connected). */
  const draftFiles = useMemo(() => ({
    put: (name: string, mimeType: string, data: string) => commands.putAttachment(name, mimeType, data),
    get: (id: string) => commands.getAttachment(id),
  }), [commands]);
  const readToolOutput = useCallback((toolCallId: string) => commands.toolOutput(toolCallId), [commands]);
  const onChatOptions = useCallback((options: ChatOptions) => commands.setChatOptions(options), [commands]);
  const chatOptions = view.chatOptions;
  // The header's profile: the chat's other options kept as they are (the worker journals and enforces it).
  // Choosing a profile there also ends Plan mode: the chat acts under it from its next run.
  const onProfile = useCallback((profile: PermissionProfile) => commands.setChatOptions(withPlan({ ...(chatOptions ?? {}), profile }, false)), [commands, chatOptions]);
  // Plan mode (plan-mode.ts): Shift+Tab in the composer cycles it; the header's picker shows and sets it too.
  const plan = inPlanMode(chatOptions);
  const onPlan = useCallback((on: boolean) => {
    setPlanOnce(false);
    return commands.setChatOptions(withPlan(chatOptions, on));
  }, [commands, chatOptions]);
  const actProfile = effectiveProfile(chatOptions?.profile, defaultProfile, view.workspace?.sandboxed).profile;
  const actLabel = modeLabel(false, actProfile);
  // Shift+Tab: act → Plan (this message, the composer's) → Plan mode (the chat's option) → act.
  const current = composerMode(plan, planOnce);
  const onCycleMode = useCallback(() => {
    const next = nextComposerMode(current);
    setPlanOnce(next === "once");
    if ((next === "plan") !== plan) act(commands.setChatOptions(withPlan(chatOptions, next === "plan")));
  }, [act, commands, chatOptions, current, plan]);
  const mode = useMemo(() => ({
    mode: current, label: composerModeLabel(current, actProfile), title: composerModeTitle(current, actProfile), onCycle: onCycleMode,
  }), [current, actProfile, onCycleMode]);
  const awaiting = pendingPlan(state.messages, plan, running);
  const [plansSetAside, setPlansSetAside] = useState<string | null>(null);
  const planKey = awaiting ? `${view.sessionId ?? ""}:${historyStart + awaiting.index}` : null;
  // Approving: back to the act profile, then the plan as the instruction; a send that fails puts Plan mode back. A
  // message's own plan left the chat in its act profile: the plan is sent, nothing else changes.
  // The list follows to the instruction as a send's does (told first: a reader scrolled up is brought down to it).
  const onApprovePlan = useCallback(async (text: string) => {
    if (!plan) {
      setSent((n) => n + 1);
      await commands.prompt(planInstruction(text));
      setPlanOnce(false);
      return;
    }
    await commands.setChatOptions(withPlan(chatOptions, false));
    setSent((n) => n + 1);
    try {
      await commands.prompt(planInstruction(text));
    } catch (error) {
      await commands.setChatOptions(withPlan(chatOptions, true)).catch(() => undefined);
      throw error;
    }
  }, [commands, chatOptions, plan]);
  // A plan card appearing takes room from the list: the list follows to the reply it is about.
  const [planShown, setPlanShown] = useState(0);
  const cardShown = planKey !== null && planKey !== plansSetAside;
  useEffect(() => {
    if (cardShown) setPlanShown((n) => n + 1);
  }, [cardShown, planKey]);
  // Keep planning: a message's own plan arms the next message to plan too (the chat's Plan mode simply goes on).
  const onKeepPlanning = useCallback(() => {
    setPlansSetAside(planKey);
    if (!plan) setPlanOnce(true);
    document.getElementById("composer-input")?.focus();
  }, [planKey, plan]);
  // The Budget dialog saves the chat's budget with the rest of its options as they are.
  const onBudget = useCallback((budget: ChatBudget | undefined) => {
    const { budget: _old, ...rest } = chatOptions ?? {};
    return commands.setChatOptions({ ...rest, ...(budget ? { budget } : {}) });
  }, [commands, chatOptions]);
  const onBriefing = useCallback(() => commands.agentBriefing(), [commands]);
  const onStop = useCallback(() => stop(false), [stop]);
  const onCompact = useCallback(() => commands.compact(), [commands]);

  const changes = useChatChanges({ commands, messages: state.messages, historyStart, running,
    checkpointsOff: view.workspace?.checkpointsOff, setError: setActionError, worktree });
  // The panel opens once per request (its nonce), once the chat's worker is connected (it asks it for the changes).
  const { openSpan } = changes;
  const span = useRef(changesSpan);
  span.current = changesSpan;
  const spanOpened = useRef<number>(undefined);
  const spanNonce = changesSpan?.nonce;
  const connected = view.connection === "ready";
  useEffect(() => {
    if (!connected || spanNonce === undefined || spanOpened.current === spanNonce || !span.current) return;
    spanOpened.current = spanNonce;
    openSpan(span.current);
  }, [connected, spanNonce, openSpan]);
  const rowActions = useMessageActions({ commands, state, historyStart, disconnected, setError: setActionError });
  const messageActions = useMemo(() => ({ ...rowActions, rewind: changes.rewind }), [rowActions, changes.rewind]);

  const noModel = !isModelChosen(state.model) && !currentModel;
  const noticeGroups = useMemo(() => groupNotices(view.notices, (n) => `${n.kind}\u0000${n.text}\u0000${n.model ? `${n.model.provider}/${n.model.id}` : ""}`), [view.notices]);

  const blockedReason = disconnected ?? (noModel ? "Choose a model above to start" : undefined);

  return (
    <section className="chat" aria-label={`Chat: ${title}`}>
      <header className="chat-header"><div className="chat-header-row">
        {onToggleSidebar ? (
          <button type="button" className="icon-button sidebar-toggle" onClick={onToggleSidebar} aria-label="Show chats"
            title={`Show chats (${chordText(shortcut("toggle-sidebar").keys).label})`} aria-keyshortcuts={chordText(shortcut("toggle-sidebar").keys).aria}
            data-testid="show-sidebar"><MenuIcon /></button>
        ) : null}
        <h1 className="chat-title" title={title} dir="auto" tabIndex={-1}>{title}</h1>
        <WorkspaceButton sessionId={view.sessionId} workspace={view.workspace} />
        {changes.button}
        <ChatMenu sessionId={view.sessionId} title={title} workspace={view.workspace?.folder} onFind={find.openFind} onError={(e) => setActionError(errorText(e))} />
        {disconnected ? (
          <span className={`pill pill-${hostDown ? "offline" : view.connection}`} role="status" title={disconnected} data-testid="connection-pill">
            {PILL_LABELS[hostDown ? "offline" : view.connection]}
          </span>
        ) : null}
        <div className="chat-controls">
          <ProfilePicker chosen={view.chatOptions?.profile} settingsDefault={defaultProfile} sandboxed={view.workspace?.sandboxed} onChange={onProfile}
            plan={plan} onPlan={onPlan} />
          <ChatSettings options={view.chatOptions} defaultInstructions={defaultInstructions} inWorkspace={view.workspace !== undefined}
            modelMaxTokens={state.model.maxTokens > 0 ? state.model.maxTokens : undefined} onSave={onChatOptions} mcpServers={mcpServers} loadBriefing={onBriefing} />
          {isModelChosen(state.model) ? (
            <ContextMeter figures={contextMeterFigures} usage={usage} running={running}
              blocked={disconnected} onCompact={onCompact} />
          ) : null}
          <BudgetMeter meter={view.budget} budget={view.chatOptions?.budget} runDefaults={runBudget} running={running} onSave={onBudget} />
          {currentModel?.reasoning ? (
            <ThinkingPicker levels={currentModel.thinkingLevels} current={effectiveThinkingLevel(state.thinkingLevel, currentModel.thinkingLevels)}
              onChange={onThinkingChange} />
          ) : null}
          {/* Last: neither the meter's figures nor the thinking level coming and going with the model move the picker
              (the header's right end holds it). */}
          <ModelPicker models={models} current={state.model} onChange={onModelChange} onUseTyped={onUseTyped} />
        </div>
      </div></header>
      {worktree ? <WorktreeStrip sessionId={view.sessionId} worktree={worktree} /> : null}
      {find.bar}
      <SubagentBanner commands={commands} connected={view.connection === "ready"} onOpenParent={onOpenChat} />
      <ChatBody>
      {/* Notices float over the chat's top, identical ones merged with a count (notice-groups.ts). */}
      {noticeGroups.length > 0 || appNotices || view.retry || failure || actionError || changes.notice || view.failure ? (
        <NoticeStack>
          {appNotices}
          {view.connection === "failed" && view.failure ? (
            <WorkerFailureBanner text={view.failure} onRetry={() => commands.retryWorker?.().catch((e: unknown) => setActionError(errorText(e)))} />
          ) : null}
          {noticeGroups.map(({ key, first: n, all, count }) => (
            <NoticeBanner key={key} level={noticeLevel(n.kind)} text={n.text} count={count} onDismiss={() => all.forEach((o) => commands.dismissNotice(o.id))}
              action={noticeAction(n, replacementFor, (m) => {
                all.forEach((o) => commands.dismissNotice(o.id));
                onModelChange(m);
              })} />
          ))}
          {view.retry ? <RetryBanner key={view.retry.until} wait={view.retry} onStop={onStop} disabled={disconnected !== undefined} /> : null}
          {failure ? (
            <ErrorBanner message={failure} busy={recovering} onRetry={() => recover("retry")}
              onContinue={continuable ? () => recover("continue") : undefined} />
          ) : null}
          {actionError ? (
            <NoticeBanner level="error" text={actionError} onDismiss={() => setActionError(null)} />
          ) : null}
          {changes.notice}
        </NoticeStack>
      ) : null}
      {items.length === 0 ? (
        <EmptyChat modelName={currentModel?.name} />
      ) : (
        <ApprovalsContext.Provider value={approvals}>
          <AttachmentsContext.Provider value={attachments}>
            <MessageActionsContext.Provider value={messageActions}>
              <ChangesOpenContext.Provider value={changes.open}>
                <ToolOutputContext.Provider value={readToolOutput}>
                  <MessageList items={items} toolRuns={view.toolRuns} toolResults={transcript.toolResults}
                    tailVersion={state.streamingMessage} followSignal={sent + questionJumps + planShown} reveal={find.reveal} />
                </ToolOutputContext.Provider>
              </ChangesOpenContext.Provider>
            </MessageActionsContext.Provider>
          </AttachmentsContext.Provider>
        </ApprovalsContext.Provider>
      )}
      </ChatBody>
      <div className="chat-bottom">
        <QueueStrip steering={view.steering} followUp={view.followUp} held={view.held} onRemove={onRemoveQueued}
          onSendHeld={onSendHeld} onDiscardHeld={onDiscardHeld} />
        {awaiting && cardShown ? (
          <PlanCard key={planKey} plan={awaiting.text} actLabel={actLabel} once={!plan} blockedReason={blockedReason}
            onApprove={onApprovePlan} onKeepPlanning={onKeepPlanning} />
        ) : null}
        <Composer running={running} blockedReason={blockedReason} focusKey={view.sessionId} imagesRefusal={imagesRefusal}
          sessionId={view.sessionId} workspace={view.workspace?.folder} draftFiles={view.connection === "ready" ? draftFiles : undefined} onOpenSettings={onOpenSettings} workspaceFiles={workspaceFiles}
          mcpServers={view.chatOptions?.mcpServers} mode={mode}
          noModel={noModel && !disconnected}
          onSend={onSend} onSteer={onSteer} onFollowUp={onFollowUp} onStop={onStop} />
      </div>
      {changes.panel}
      {changes.dialog}
      <div className="visually-hidden" role="status" aria-live="polite" data-testid="run-status">
        {running ? (view.retry ? "" : "Assistant is responding…") : failure ? "The reply failed." : ""}
      </div>
      <div className="visually-hidden" role="status" aria-live="polite" data-testid="approval-status">
        {view.approvals.length > 0 ? questionAnnouncement(view.approvals[0].toolName, view.approvals.length) : ""}
      </div>
    </section>
  );
}

/** What a screen reader hears when a question waits: the focus stays where it was, so it says how to get there. */
function questionAnnouncement(toolName: string, count: number): string {
  const keys = chordLabel(shortcut("go-to-question").keys, onMac()).join(onMac() ? "" : "+");
  const more = count > 1 ? ` (${count} questions wait)` : "";
  return `Allow ${visibleText(toolName)}? Waiting for your answer${more}. ${keys} goes to the question.`;
}

/** A placeholder row while the agent works but no message streams yet (waiting for the model's first token). */
function waitingItem(state: ChatViewState, running: boolean, index: number): ChatItem | null {
  if (!running || state.streamingMessage) return null;
  const last = state.messages[state.messages.length - 1];
  if (last && last.role === "assistant") return null; // its tool cards show the progress
  const placeholder: AssistantMessage = {
    role: "assistant", content: [], api: "", provider: state.model.provider, model: state.model.id,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: "stop", timestamp: 0,
  };
  return { kind: "assistant", key: messageRowKey(index), index, message: placeholder, streaming: true };
}

type ChatViewState = ReturnType<typeof useSessionView>["state"];

/** The error to offer Retry for: the last reply failed (not stopped by the user). */
function lastFailure(messages: ChatViewState["messages"], errorMessage: string | undefined): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== "assistant") continue;
    if (m.stopReason === "error") return m.errorMessage ?? errorMessage ?? "Unknown error";
    if (m.stopReason === "aborted") return null;
    break;
  }
  return errorMessage ?? null;
}

/** "Use <closest>" for a notice about a model that is gone, when the page lists one of the same provider. */
function noticeAction(n: SessionNotice, replacementFor: (gone: ModelRef) => ModelOption | undefined, switchTo: (m: ModelOption) => void) {
  const replacement = n.model ? replacementFor(n.model) : undefined;
  return replacement ? { label: `Use ${replacement.name}`, onClick: () => switchTo(replacement), testId: "notice-use-model" } : undefined;
}



/**
 * Main stopped starting this chat's agent process: it kept crashing right after it started. Its words (how often, the
 * last exit) and the process's last stderr lines, and Retry, which has main try again.
 */
function WorkerFailureBanner({ text, onRetry }: { text: string; onRetry: () => void }) {
  const [headline, ...output] = text.split("\n");
  return (
    <div className="notice notice-error worker-failure" role="alert" data-testid="worker-failure">
      <div className="notice-text">
        <div>{headline}</div>
        {output.length > 0 ? <pre className="worker-failure-output" data-testid="worker-failure-output">{output.join("\n")}</pre> : null}
      </div>
      <button type="button" className="btn btn-secondary notice-action" data-testid="worker-failure-retry" onClick={onRetry}>Retry</button>
    </div>
  );
}

/** The header's short word for the link; the composer says the whole reason. */
const PILL_LABELS: Record<ReturnType<typeof useSessionView>["connection"], string> = {
  connecting: "Connecting…",
  ready: "",
  reconnecting: "Reconnecting…",
  offline: "Paddock is not running",
  closed: "Disconnected",
  failed: "Agent keeps crashing",
};

/** Why nothing can be sent or stopped right now, when the link to the agent is down; undefined when it is up. */
function connectionProblem(connection: ReturnType<typeof useSessionView>["connection"], hostDown: boolean): string | undefined {
  if (hostDown || connection === "offline") return "Paddock is not running — reconnecting…";
  switch (connection) {
    case "connecting":
      return "Connecting to the agent…";
    case "reconnecting":
      return "Reconnecting to the agent…";
    case "closed":
      return "Disconnected from the agent — reopen the chat";
    case "failed":
      return "The agent's process keeps crashing — Retry above";
    case "ready":
      return undefined;
  }
}
