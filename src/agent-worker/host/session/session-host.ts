/**
 * One session, hosted: the Agent, its transcript on disk, and the mirrors connected to it.
 *
 * Every state change the Agent makes is encoded at O(delta) and sent to all connected mirrors in numbered batches.
 * The transcript is appended and flushed at every message_end, before the run moves on; queued steering and
 * follow-up messages are journaled too, so a killed worker loses neither. A streaming reply is checkpointed about
 * twice a second, so a killed worker loses at most about a second of it (see journal/session-journal.ts). What
 * differs between a user's chat and a subagent's session is its role (session-role.ts).
 */
import { randomUUID } from "node:crypto";
import { type Message, type Model } from "@earendil-works/pi-ai";
import { streamSimple } from "../../agent/stream-simple";
import { Agent } from "../../agent/agent";
import type { AgentMessage, AgentTool, BeforeToolCallContext, StreamFn } from "../../../shared/agent/types";
import { isModelChosen, type AgentStateData, type AgentStateEvent } from "../../../shared/agent/state";
import { NO_TOOL_RUNS, reduceToolRuns, type ToolRuns } from "../../../shared/agent/tool-runs";
import type {
  FolderIdentity,
  RunOutcome,
  SandboxVerdict,
  SubagentApprovalQuestion,
  SubagentOutcome,
  SubagentProgress,
  WorkerInitOptions,
  WorkerInitResult,
  WorkerSettings,
  WorkerStatus,
} from "../../../shared/protocol/control-protocol";
import type { ModelRef, SessionActivity } from "../../../shared/protocol/app-api";
import {
  MAX_HISTORY_PAGE,
  sessionApiWith,
  type SessionApi,
  type SessionSnapshot,
  type WorkspaceInfo,
} from "../../../shared/protocol/session-protocol";
import { normalizeRunContract, runTerms, type RunContract } from "../../../shared/protocol/run-contract";
import { withStallTimeout } from "../provider/stall-timeout";
import { providerCall } from "../provider/provider-call";
import { HeldQueue } from "./held-queue";
import { RunRetries } from "./run-retries";
import { RunBudget } from "./run-budget";
import type { ChatBudget } from "../../../shared/agent/budget";
import type { Transport } from "../../../shared/transport/transport";
import { customProviderId, KEYLESS_API_KEY } from "../../../shared/providers/custom-provider";
import { subagentResult, subagentUsage } from "./subagent-task";
import type { SessionMain, SessionRole } from "./session-role";
import { ParentRole } from "./parent-role";
import { ChildRole } from "./child-role";
import { WORKSPACE_TOOL_PROMPTS } from "../../tools/workspace/prompt-lines";
import type { WorkspaceFiles } from "../../tools/workspace/workspace-files";
import { ApprovalGate, type GatePolicy } from "../approvals/approval-gate";
import { denied, stoppedBeforeCall, type CallVerdict } from "../approvals/call-decision";
import { ToolCallGuard } from "./tool-call-guard";
import { mcpToolsLeftOutText, SessionMcp, withMcpTools } from "../mcp/session-mcp";
import type { McpCallProgress, McpToolDescriptor } from "../../../shared/protocol/mcp-host-protocol";
import type { SessionWorkspace, WorkspaceSetup } from "../workspace/session-workspace";
import { agentBriefing, chatPrompt, type PromptInputs } from "../prompt/agent-briefing";
import { NO_SKILLS } from "../../../shared/protocol/skills";
import { SessionMirrors } from "../mirror/session-mirrors";
import { loadTranscript, TranscriptWriter } from "../../../shared-node/session-files/transcript-store";
import { SessionJournal } from "../journal/session-journal";
import { ContextCompactor } from "../compaction/context-compactor";
import { compactionRecord } from "../../../shared-node/session-files/compaction-record";
import { attachmentsDir } from "../../../shared-node/session-files/session-folder";
import { summaryForModel, type CompactionMessage } from "../../../shared/agent/compaction";
import { CONTINUE_PROMPT, isUnfinishedReply, unfinishedReplyAsSaid } from "../../../shared/agent/unfinished-reply";
import { titleFrom } from "../../../shared/agent/chat-title";
import { sumUsage } from "../../../shared/agent/usage";
import { errorText } from "../../../shared/error-text";
import { describeToolCall } from "../approvals/call-summary";
import { networkSummary } from "../approvals/network-question";
import { AttachmentStore } from "../attachments/attachment-store";
import { MessageActions } from "./message-actions";
import { ProviderConfigs } from "../provider/provider-config";
import { withAttachments } from "../attachments/attachment-context";
import { chatInstructions, requestParameters } from "../prompt/chat-request";
import { attachmentKind, attachmentMimeType, imagesRefused, readsImages, type AttachmentRef, type UserMessageWithAttachments } from "../../../shared/protocol/attachments";
import { chatOptionsProblem, hasChatOptions, normalizeChatOptions, type ChatOptions } from "../../../shared/protocol/chat-options";
import { callScope, WorkspaceChanges } from "../changes/workspace-changes";
import { TOOL_FILE_CHANGES_FIELD, type ChangeAuthor } from "../../../shared/protocol/changes";
import { withToolEnding } from "../../../shared/protocol/tool-ending";
import { readToolOutput } from "./tool-output";
import { isRecord } from "../../../shared/is-record";
import { filesRestoredForModel, type FilesRestoredMessage } from "../../../shared/agent/files-restored";
import { branchAt } from "../../../shared/agent/branches";
import type { ConflictAnswer, RevertResult, RewindScope } from "../../../shared/protocol/changes";
import { decide, effectiveProfile, toolKind, type PermissionProfile } from "../../../shared/protocol/permission-profiles";
import { sessionProfile } from "./session-profile";
import { latestProfile, profileMarker } from "../../../shared/agent/profile-marker";
import { PLAN_REFUSAL_LABEL } from "../../../shared/agent/plan-mode";


/**
 * How a workspace is opened: `identity` is the one main saw it with (see WorkerInitOptions); `currentSettings`, the
 * settings when a command runs (bash asks them for the shell command prefix, so a change applies to the next command).
 */
function workspaceSetup(
  options: WorkerInitOptions,
  settings: WorkerSettings,
  identity: FolderIdentity | undefined,
  currentSettings: () => WorkerSettings,
  network?: Pick<WorkspaceSetup, "projectHosts" | "askNetwork">,
  readOnlyCommands?: () => boolean,
): WorkspaceSetup {
  return {
    sessionDir: options.sessionDir,
    privateDir: options.privateDir,
    allowedDomains: settings.allowedDomains,
    ...network,
    shellCommandPrefix: () => currentSettings().shellCommandPrefix,
    ...(readOnlyCommands ? { readOnlyCommands } : {}),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    ...(identity ? { identity } : {}),
  };
}

/** The profile a session asks for (see SessionHost.chosenProfile): its run's contract's terms before its options'. */
function chosenProfile(options: WorkerInitOptions, own: ChatOptions | undefined, settings: WorkerSettings = options.settings, run?: RunContract): PermissionProfile {
  const terms = runTerms(own, run);
  return sessionProfile(options.subagent, terms.profile, settings, terms.plan);
}

type NetworkQuestion = Parameters<NonNullable<WorkspaceSetup["askNetwork"]>>[0];

/** How the latest run ended, read from its last assistant message (a failed run ends in one too). */
function lastRunOutcome(messages: readonly AgentMessage[]): RunOutcome | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== "assistant") continue;
    return m.stopReason === "error" ? "failed" : m.stopReason === "aborted" ? "aborted" : "done";
  }
  return undefined;
}

/**
 * The model's view of the transcript: what it understands (as pi's default), with unfinished replies (interrupted
 * or stopped) shown as the text they had said, so Continue can pick up from there (pi-ai would leave them out).
 */
function convertToLlm(messages: AgentMessage[]): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    if (message.role === "assistant") {
      const said = isUnfinishedReply(message) ? unfinishedReplyAsSaid(message) : message;
      if (said) out.push(said);
    } else if (message.role === "user" || message.role === "toolResult") out.push(message);
    // transformContext puts the latest marker first, standing for what it summarised (see context-compactor.ts).
    else if (message.role === "compaction") out.push({ role: "user", content: [{ type: "text", text: summaryForModel(message) }], timestamp: message.timestamp });
    // Files the user took back: a note where the marker is, so the model reads them again (files-restored.ts).
    else if (message.role === "filesRestored") out.push({ role: "user", content: [{ type: "text", text: filesRestoredForModel(message) }], timestamp: message.timestamp });
  }
  return out;
}

/**
 * `openWorkspace`, loaded on first use: the tools and their libraries (jsdiff, picomatch...) cost a worker ~40 ms
 * of start-up and some memory, which a chat without a workspace, and every warm spare, should not pay.
 */
async function openWorkspace(folder: string, setup: WorkspaceSetup, main: Pick<SessionMain, "listSkills">): Promise<SessionWorkspace> {
  // The skills as main finds them now (a chat without them still opens: a failed ask lists none).
  const [{ openWorkspace: open }, skills] = await Promise.all([import("../workspace/session-workspace"), main.listSkills().catch(() => NO_SKILLS)]);
  return open(folder, { ...setup, skills });
}

export class SessionHost {
  readonly agent: Agent;
  /** The pages connected to this session, and what they are sent (session-mirrors.ts). */
  private readonly mirrors: SessionMirrors;
  /** What the transcript is told, and when (session-journal.ts). */
  private readonly journal: SessionJournal;
  /** Keeps the context inside the model's window (transformContext, overflow retry, "Compact now"). */
  private readonly compactor: ContextCompactor;
  /** The cloud providers' settings for each request, asked of main with the key (provider-config.ts). */
  private readonly providerConfigs = new ProviderConfigs(async (provider, modelId) => this.main.getProviderConfig?.(provider, modelId));
  private toolRuns: ToolRuns = NO_TOOL_RUNS;
  private settings: WorkerSettings;
  private modelRef: ModelRef | undefined;
  /** Why the chat's model could not be resolved when it opened (until another is picked): what a prompt is told. */
  private modelProblem: string | undefined;
  private closed = false;
  private readonly approvals: ApprovalGate;
  /** The session's decisions on tool calls, in pi's hooks and a wrapper of each tool (tool-call-guard.ts). */
  private readonly calls = new ToolCallGuard((context, signal) => this.decideCall(context, signal));
  private workspace: SessionWorkspace | undefined;
  /** The identity main handed the current workspace over with (see WorkerInitOptions). */
  private workspaceIdentity: FolderIdentity | undefined;
  /** Counts setWorkspace calls: only the latest one's folder is taken. */
  private workspaceChanges = 0;
  /** A chat of the user's or a subagent's session: what differs between them (session-role.ts). */
  private readonly role: SessionRole;
  /** What this process found about the sandbox, for main. */
  private sandboxVerdict: SandboxVerdict | undefined;
  /** The files this chat's messages carry, in its session folder. */
  private readonly attachments: AttachmentStore;
  /** The chat's own instructions and parameters (journaled in `meta` records). */
  private chatOptions: ChatOptions;
  /**
   * The contract of the run under way (run-contract.ts: `prompt`'s or `runTask`'s), from its message's acceptance until
   * it settles (a retry that takes over is the same run); empty between runs. It binds that run only: the chat's
   * options are never changed by it, and the run's profile marker records it.
   */
  private runContract: RunContract = {};
  /** Edit, Regenerate, versions, Delete. */
  private readonly actions: MessageActions;
  /** The MCP servers' tools this chat uses (session-mcp.ts). */
  private readonly mcp: SessionMcp;
  /** How many of them the last tool list left out (see withMcpTools), so the user is told once. */
  private mcpToolsLeftOut = 0;
  /** Queued messages a Stop or a failed run left behind, until the user sends or discards them. */
  private readonly held: HeldQueue;
  /** Asks again by itself after a rate limit, a server error or a dropped connection (run-retries.ts). */
  private readonly retries: RunRetries;
  /** The chat's caps, enforced around the Agent (run-budget.ts); a subagent's spend counts in its parent's. */
  private readonly budget: RunBudget | undefined;
  /** What this session's replies cost since it opened here, for the month's spending in main (WorkerStatus.spend). */
  private readonly spend = { id: randomUUID(), cost: 0, unpricedTokens: 0 };
  /**
   * The chat's record of its workspace's changes: checkpoints, the changes view, reverts, rewind (workspace-changes.ts).
   * A subagent's session records none: its parent's `subagent` call checkpoints the whole task, attributed to it.
   */
  private readonly changes: WorkspaceChanges | undefined;

  private constructor(
    private readonly options: WorkerInitOptions,
    private readonly main: SessionMain,
    writer: TranscriptWriter,
    loaded: Awaited<ReturnType<typeof loadTranscript>>,
    modelRef: ModelRef | undefined,
    model: Model<any> | undefined,
    workspace: SessionWorkspace | undefined,
  ) {
    this.settings = options.settings;
    this.mirrors = new SessionMirrors({
      sessionId: options.sessionId,
      agent: () => this.agent,
      integrityCheck: options.integrityCheck,
      viewers: (count) => this.approvals.setViewers(count),
    });
    this.workspace = workspace;
    this.workspaceIdentity = options.workspaceIdentity;
    const approvals = () => this.approvals;
    this.role = options.subagent
      ? new ChildRole({
          setup: options.subagent,
          main,
          approvals,
          protection: async (toolCallId, toolName, args) => this.workspace?.protection(toolCallId, toolName, args),
          describeCall: (toolName, args) => this.describeCall(toolName, args),
        })
      : new ParentRole({
          options,
          main,
          approvals,
          modelRef: () => this.modelRef,
          thinkingLevel: () => this.agent.state.thinkingLevel,
          profile: async () => (await this.profileNow()).profile,
          planning: () => this.planning(),
        });
    this.mcp = new SessionMcp({
      main,
      chosenServers: () => this.chatOptions.mcpServers,
      ...(this.role.mcpToolNames ? { subagentTools: [...this.role.mcpToolNames] } : {}),
      changed: () => {
        this.agent.state.tools = this.tools();
        this.agent.state.systemPrompt = this.systemPrompt();
      },
    });
    this.announceSandbox(workspace);
    this.approvals = new ApprovalGate(
      {
        profile: async (tool) => {
          const { profile, sandboxed } = await this.profileNow();
          const label = this.planning() ? PLAN_REFUSAL_LABEL : undefined;
          return decide(profile, toolKind(tool, this.mcp.readOnly(tool)), sandboxed, label);
        },
        policy: (tool) => this.policy(tool),
        describe: (tool, args) => this.describeCall(tool, args),
        protection: async (id, tool, args) => this.workspace?.protection(id, tool, args),
        changed: (pending) => {
          this.mirrors.push({ k: "approvals", pending });
          this.reportStatus();
        },
        saveGrant: (grant) => this.journal.record({ t: "grant", grant }),
        saveProjectGrant: (grant) => this.main.addProjectGrant(grant),
        hasProject: () => this.workspace !== undefined && !this.workspace.info().problem,
        timeoutMs: () => this.settings.approvalTimeoutMs,
      },
      loaded.grants,
    );
    this.approvals.setProjectGrants(options.projectGrants ?? []);
    this.modelRef = modelRef;
    this.attachments = new AttachmentStore(attachmentsDir(options.sessionDir));
    this.chatOptions = loaded.chatOptions ?? {};
    this.journal = new SessionJournal(
      {
        writer,
        agent: () => this.agent,
        held: () => this.held.list(),
        streaming: () => this.mirrors.streamingMessage,
        queuesShown: (queues) => this.mirrors.push({ k: "queues", ...queues }),
        notify: (text) => this.mirrors.push({ k: "notice", kind: "error", text }),
        recorded: () => this.reportStatus(),
      },
      loaded.title ?? titleFrom(loaded.messages),
    );
    const streamFn: StreamFn = (model, context, streamOptions) => {
      const timeoutMs = this.settings.requestTimeoutMs;
      // No silent SDK retries: an error surfaces at once and the user decides (Retry = continue()). The timeout
      // covers a provider that never answers and, through the stall guard, one that stops mid-reply.
      const chosen = requestParameters(this.chatOptions, model);
      // The call's notes (Retry-After, why an address was not reached) complete the SDK's error text.
      const call = providerCall();
      return withStallTimeout(
        (signal) => call.run(() => streamSimple(model, context, this.providerConfigs.options(model, { ...streamOptions, ...chosen, signal, timeoutMs, maxRetries: 0 }))),
        streamOptions?.signal,
        timeoutMs,
        call.explain,
      );
    };
    this.compactor = new ContextCompactor(
      {
        messages: () => this.agent.data.messages,
        model: () => this.agent.state.model,
        thinkingLevel: () => this.agent.state.thinkingLevel,
        apiKey: async (provider) => this.agent.getApiKey?.(provider),
        convertToLlm: (messages) => this.agent.convertToLlm(messages),
        append: (marker) => this.appendCompaction(marker),
        notify: (text) => this.mirrors.push({ k: "notice", kind: "error", text }),
      },
      streamFn,
    );
    this.changes = options.subagent
      ? undefined
      : new WorkspaceChanges(
          {
            sessionId: options.sessionId,
            dataFolder: options.privateDir,
            workspace: () => (this.workspace && !this.workspace.info().problem ? this.workspace.folder : undefined),
            checkpointSettings: () => this.settings.checkpoints,
            ...(options.worktree ? { worktree: options.worktree } : {}),
            messageCount: () => this.agent.state.messages.length,
            userMessageIndexes: () => this.agent.state.messages.flatMap((m, i) => (m.role === "user" ? [i] : [])),
            journal: (checkpoint) => this.journal.record({ t: "workspace-checkpoint", ...checkpoint }),
            off: (text) => {
              // Recording stopped, the chat goes on: a warning.
              this.mirrors.push({ k: "notice", kind: "warning", text });
              if (this.workspace) this.mirrors.push({ k: "workspace", workspace: this.workspaceInfo(this.workspace) });
            },
          },
          loaded.workspaceCheckpoints,
        );
    this.held = new HeldQueue(
      {
        agent: () => this.agent,
        changed: (journal) => this.journal.queuesChanged(journal),
        requireModel: () => this.requireModel(),
        prompt: (message) => this.accept(message),
      },
      loaded.held,
    );
    this.agent = new Agent({
      initialState: {
        messages: loaded.messages,
        branches: loaded.branches,
        tools: this.tools(),
        systemPrompt: this.systemPrompt(),
        thinkingLevel: options.settings.thinkingLevel,
        ...(model ? { model } : {}),
      },
      steeringMode: options.settings.steeringMode,
      followUpMode: options.settings.followUpMode,
      toolExecution: options.settings.toolExecution,
      sessionId: options.sessionId,
      streamFn: this.compactor.guardOverflow(),
      transformContext: this.compactor.transformContext,
      // Attachments are loaded here, as the request is built: the transcript and the mirrors hold only references.
      convertToLlm: (messages) => withAttachments(convertToLlm(messages), this.attachments, readsImages(this.agent.state.model)),
      // Approvals, parked calls and what a result says beyond pi's loop: tool-call-guard.ts.
      beforeToolCall: this.calls.beforeToolCall,
      afterToolCall: async (context, signal) => {
        const { result, isError, ran } = this.calls.restore(context);
        // A call that failed because the user stopped the run says "stopped" on its card, not "error".
        let details = isError && signal?.aborted ? withToolEnding(result.details, "stopped") : result.details;
        // A call that ran may have changed files; a denied one did not.
        if (ran) details = (await this.afterToolCall(context.toolCall.id, context.toolCall.name, context.args, details))?.details ?? details;
        if (details === context.result.details && isError === context.isError) return undefined;
        return { details, isError };
      },
      getApiKey: async (provider) => {
        const model = this.agent.state.model;
        const [key] = await Promise.all([
          this.main.getApiKey(provider).catch(() => undefined),
          this.providerConfigs.refresh(provider, model?.provider === provider ? model.id : ""),
        ]);
        return key ?? (customProviderId(provider) !== undefined ? KEYLESS_API_KEY : undefined);
      },
      onStateEvent: (event, state) => this.onStateEvent(event, state),
      onQueueChange: (change) => this.journal.agentQueueChanged(change),
    });
    // Before the journal's listener: the status sent once a reply is journaled carries its cost.
    this.agent.subscribe((event) => {
      if (event.type === "message_end" && event.message.role === "assistant") {
        const usage = event.message.usage;
        const cost = usage?.cost?.total ?? 0;
        this.spend.cost += cost;
        // A reply at no cost from a model without pricing: its tokens are counted beside the money (cost unknown).
        if (usage && !(cost > 0)) this.spend.unpricedTokens += usage.totalTokens || usage.input + usage.output + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
      }
      if (event.type === "agent_end") this.calls.clear();
    });
    this.journal.follow(this.agent);
    // After the journal's listener: a failed reply is journaled before its retry drops it.
    this.retries = new RunRetries({
      agent: () => this.agent,
      limits: () => this.settings.retry,
      shown: (wait) => this.mirrors.push({ k: "retry", ...(wait ? { wait } : {}) }),
      journal: (record) => this.journal.record(record),
    });
    this.budget = options.subagent
      ? undefined
      : new RunBudget({
          agent: () => this.agent,
          caps: () => this.budgetCaps(),
          stop: () => void this.api.abort(),
          notice: (text, kind) => this.mirrors.push({ k: "notice", kind, text }),
          shown: (meter) => this.mirrors.push({ k: "budget", ...(meter ? { meter } : {}) }),
          journal: (record) => this.journal.record(record),
        });
    this.actions = new MessageActions({
      agent: this.agent,
      requireModel: () => this.requireModel(),
      userMessage: async (text, attachments) => (attachments.length > 0 ? this.messageWith(text, attachments) : this.userMessage(text)),
      journal: (record) => this.journal.record(record),
      prompt: (message, contract) => this.accept(message, contract),
      termsAt: (index) => this.againTerms(index),
      runStarting: (contract) => {
        this.startRun(contract);
        return { undo: () => (this.agent.state.isStreaming ? undefined : this.endRun()) };
      },
      changed: () => this.reportStatus(),
    });
    this.journal.restoreQueues(loaded.steering, loaded.followUp);
  }

  /** Loads the session's transcript and starts hosting it. */
  static async open(options: WorkerInitOptions, main: SessionMain): Promise<{ host: SessionHost; result: WorkerInitResult }> {
    // A model that is gone (an endpoint removed from Settings, a model pi-ai's catalogue no longer lists) leaves the
    // chat without one: it opens all the same, and says why and what to pick (main's text names the closest model).
    const resolve = (ref: ModelRef) =>
      main.resolveModel(ref).then((model) => ({ model, problem: undefined }), (error: unknown) => ({ model: undefined, problem: errorText(error) }));
    // The default is asked for while the transcript loads (a new chat uses it), a chat's own model after.
    const defaultRef = options.settings.defaultModel;
    const defaultModel = defaultRef ? resolve(defaultRef) : Promise.resolve({ model: undefined, problem: undefined });
    const opening = TranscriptWriter.open(options.transcriptFile);
    // A transcript this version cannot read (a newer one's) is refused before anything is appended to it.
    const loaded = await loadTranscript(options.transcriptFile).catch(async (error: unknown) => {
      await opening.then((unused) => unused.close(), () => undefined);
      throw error;
    });
    const writer = await opening;
    const modelRef = loaded.model ?? defaultRef;
    let created: SessionHost | undefined;
    const currentSettings = () => created?.settings ?? options.settings;
    const network: Pick<WorkspaceSetup, "projectHosts" | "askNetwork"> = {
      projectHosts: () => created?.approvals.projectHosts() ?? [],
      askNetwork: async (request) => (created ? created.askNetwork(request) : { allow: false, reason: "the chat is still opening" }),
    };
    const readOnlyCommands = () => (created ? created.chosenProfile() : chosenProfile(options, loaded.chatOptions)) === "read-only";
    const [resolved, workspace] = await Promise.all([
      loaded.model ? resolve(loaded.model) : defaultModel,
      options.workspace
        ? openWorkspace(options.workspace, workspaceSetup(options, options.settings, options.workspaceIdentity, currentSettings, network, readOnlyCommands), main)
        : undefined,
    ]);
    const host = new SessionHost(options, main, writer, loaded, modelRef, resolved.model, workspace);
    created = host;
    // Every page hears of it from its snapshot (`modelProblem`, `unresolvedModel`: the model it names lets the page
    // offer the closest one it lists); no page is connected yet to be told anything else.
    if (resolved.problem) host.modelProblem = resolved.problem;
    await host.mcp.load();
    host.changes?.warm();
    const problems = loaded.problems.map((p) => `line ${p.line}: ${p.kind} (${p.detail})`);
    return { host, result: { problems, messageCount: loaded.messages.length, title: host.journal.title } };
  }

  /** The commands mirrors call, a handler per SESSION_COMMANDS entry; each checks its state, rejecting in words. */
  readonly api: SessionApi = sessionApiWith({
    prompt: async (text, attachments, run) => {
      this.requireModel();
      await this.accept(attachments?.length ? await this.messageWith(text, attachments) : this.userMessage(text), run);
    },
    continue: async () => {
      this.requireModel();
      // Retry after a failed turn: the failed reply is dropped so the model answers the user's message again.
      // (pi's continue() refuses an assistant last message; a failed one carries no content worth keeping.)
      const messages = this.agent.state.messages;
      const last = messages[messages.length - 1];
      if (last?.role === "assistant" && last.stopReason === "error" && !this.agent.state.isStreaming && !this.agent.hasQueuedMessages()) {
        this.agent.dropLastMessages(1);
        await this.journal.record({ t: "drop", count: 1 });
      }
      // Retry answers the same message again, under the terms its run had (a message sent in Plan plans again).
      if (!this.agent.state.isStreaming) this.startRun(this.againTerms());
      // Not after a reply: continuing from one runs the queued messages, which a marker after it would hide.
      if (this.agent.state.messages.at(-1)?.role !== "assistant") await this.recordProfile();
      await this.runOrEnd(this.agent.continue());
    },
    continueReply: async () => {
      this.requireModel();
      if (this.agent.state.isStreaming) throw new Error("The agent is still working: wait for it to finish (or stop it), then Continue.");
      const last = this.agent.state.messages.at(-1);
      if (!isUnfinishedReply(last)) throw new Error("There is no interrupted or stopped reply to continue.");
      if (last?.role === "assistant" && !unfinishedReplyAsSaid(last)) {
        throw new Error("The reply stopped before it said anything: Retry asks again instead.");
      }
      // Said in the chat, not slipped in: the model gets exactly this request, and the user sees what it got. It goes
      // on under the terms the reply's run had.
      this.startRun(this.againTerms());
      await this.runOrEnd(this.agent.prompt(this.userMessage(CONTINUE_PROMPT)));
    },
    // Without attachments the message is queued at once, so quick successive calls keep their order.
    steer: async (text, attachments) => {
      this.agent.steer(attachments?.length ? await this.messageWith(text, attachments) : this.userMessage(text));
      await this.journal.queuesWritten;
    },
    followUp: async (text, attachments) => {
      this.agent.followUp(attachments?.length ? await this.messageWith(text, attachments) : this.userMessage(text));
      await this.journal.queuesWritten;
    },
    putAttachment: (name, mimeType, data) => this.attachments.put(name, mimeType, data),
    listWorkspaceFiles: (query) => this.workspaceFiles().search(query),
    attachWorkspaceFile: async (path) => {
      const read = await this.workspaceFiles().read(path);
      return this.attachments.put(read.name, read.mimeType, read.base64);
    },
    getAttachment: async (id) => {
      const mimeType = attachmentMimeType(id);
      if (!mimeType) throw new Error("Not an attachment id");
      return { mimeType, data: await this.attachments.read(id) };
    },
    toolOutput: (toolCallId) => readToolOutput(this.agent.state.messages, toolCallId, this.options.sessionDir),
    subagentOrigin: async () =>
      this.options.subagent ? { parentSessionId: this.options.subagent.parentSessionId, agent: this.options.subagent.agent } : null,
    setChatOptions: async (options) => {
      const problem = chatOptionsProblem(options);
      if (problem) throw new Error(`Chat settings not saved: ${problem}`);
      this.chatOptions = normalizeChatOptions(options);
      this.agent.state.systemPrompt = this.systemPrompt();
      this.mcp.rebuild(); // the chat's servers may have changed
      this.mirrors.push({ k: "options", options: this.chatOptions });
      this.budget?.capsChanged();
      await this.journal.record({ t: "meta", chatOptions: this.chatOptions });
    },
    abort: async () => {
      if (this.settings.clearQueuesOnAbort) this.agent.clearAllQueues();
      this.held.stopping();
      this.agent.abort();
      this.compactor.abortManual();
    },
    compact: async () => {
      this.requireModel();
      if (this.agent.state.isStreaming) throw new Error("The agent is working: compact once it has finished, or stop it first.");
      await this.compactor.compactNow();
    },
    reset: async () => {
      this.agent.reset();
      this.held.clear();
      this.journal.forgetTitle();
      this.approvals.clearGrants();
      await this.journal.record({ t: "reset" });
    },
    clearQueues: async () => {
      this.agent.clearAllQueues();
      this.held.clear();
      await this.journal.queuesWritten;
    },
    sendHeld: async (index) => {
      await this.held.send(index);
      await this.journal.queuesWritten;
    },
    discardHeld: async (index) => {
      this.held.discard(index);
      await this.journal.queuesWritten;
    },
    removeQueued: async (queue, index) => {
      if (!this.agent.removeQueued(queue, index)) throw new Error(`There is no queued ${queue} message at position ${index}`);
      await this.journal.queuesWritten;
    },
    setModel: async (ref) => {
      this.agent.state.model = await this.main.resolveModel(ref);
      this.modelRef = ref;
      this.modelProblem = undefined;
      await this.journal.record({ t: "meta", model: ref });
      this.reportStatus();
    },
    setThinkingLevel: async (level) => {
      this.agent.state.thinkingLevel = level;
    },
    answerApproval: async (toolCallId, answer, reason) => this.approvals.answer(toolCallId, answer, reason),
    editMessage: (index, text) => this.actions.editMessage(index, text),
    regenerate: () => this.actions.regenerate(),
    switchBranch: (at, version) => this.actions.switchBranch(at, version),
    deleteMessage: (index) => this.actions.deleteMessage(index),
    getSnapshot: async (tailMessages) => this.snapshot(tailMessages),
    getHistory: async (start, end) => {
      if (end - start > MAX_HISTORY_PAGE) throw new Error(`Ask for at most ${MAX_HISTORY_PAGE} messages at a time`);
      this.mirrors.flush();
      return this.agent.data.messages.slice(start, Math.max(start, end));
    },
    // The changes view's commands: served once the chat records checkpoints (issue 24, being wired).
    listChanges: (since) => this.recording().listChanges(since),
    fileDiff: (from, to, path) => this.recording().fileDiff(from, to, path),
    revertTurn: (from, to, answer) => this.takeBack("revert", () => this.recording().revert(from, to, undefined, answer)),
    revertFile: (from, to, path, answer) => this.takeBack("revert", () => this.recording().revert(from, to, [path], answer)),
    revertHunk: (from, to, path, header, answer) => this.takeBack("revert", () => this.recording().revertHunk(from, to, path, header, answer)),
    rewind: (messageIndex, scope, answer) => this.rewind(messageIndex, scope, answer),
    redo: (actionId, answer) => this.redo(actionId, answer),
    agentBriefing: async () => agentBriefing(this.promptInputs()),
  });

  /**
   * A revert, rewind or redo of files: refused while a run is active (its tools may be writing the same files); once
   * done, the chat gets a marker and the model a note in its next request naming the files (files-restored.ts).
   */
  private async takeBack(action: FilesRestoredMessage["action"], run: () => Promise<RevertResult>): Promise<RevertResult> {
    if (this.agent.state.isStreaming) throw new Error("The agent is working: wait for it to finish (or stop it), then take changes back.");
    const result = await run();
    if (result.done && result.reverted.length > 0) await this.appendRestored(action, result.reverted);
    return result;
  }

  private async appendRestored(action: FilesRestoredMessage["action"], paths: string[]): Promise<void> {
    const marker: FilesRestoredMessage = { role: "filesRestored", action, paths, timestamp: Date.now() };
    this.agent.appendMessage(marker);
    this.reportStatus();
    await this.journal.record({ t: "message", message: marker });
  }

  /**
   * Back to before user message `index`: its files (to the checkpoint before it), the chat (the messages from it on
   * kept as a version, as an edit keeps them), or both. The action id names what redo brings back: a files-only
   * rewind's is its revert's; one that rewound the chat is `rewind:<at>.<version>:<files' action id>`, the version
   * of the messages at `at` that was shown before.
   */
  private async rewind(index: number, scope: RewindScope, answer: ConflictAnswer | undefined): Promise<RevertResult> {
    if (this.agent.state.isStreaming) throw new Error("The agent is working: wait for it to finish (or stop it), then rewind.");
    if (this.agent.state.messages[index]?.role !== "user") throw new Error(`Message ${index} is not a message of yours: rewind to one of those.`);
    let files: RevertResult | undefined;
    if (scope !== "chat") {
      files = await this.recording().rewindFiles(index, answer);
      if (!files.done) return files;
    }
    let chat = "";
    if (scope !== "files") {
      chat = `${index}.${branchAt(this.agent.data.branches, index)?.active ?? 0}`;
      this.agent.changePath({ type: "branch", at: index });
      this.reportStatus();
      await this.journal.record({ t: "branch", at: index });
    }
    const done = files?.done ? files : { done: true as const, actionId: "", reverted: [], kept: [], noCopy: [] };
    if (done.reverted.length > 0) await this.appendRestored("rewind", done.reverted);
    return { ...done, actionId: scope === "files" ? done.actionId : `rewind:${chat}:${done.actionId}` };
  }

  /** Brings back what a revert, rewind or redo took away (a rewound chat: the version shown before). */
  private async redo(actionId: string, answer: ConflictAnswer | undefined): Promise<RevertResult> {
    if (!actionId.startsWith("rewind:")) return this.takeBack("redo", () => this.recording().redo(actionId, answer));
    if (this.agent.state.isStreaming) throw new Error("The agent is working: wait for it to finish (or stop it), then redo.");
    const [, chat = "", filesAction = ""] = actionId.split(":");
    const [at, version] = chat.split(".").map(Number);
    let files: RevertResult = { done: true, actionId: "", reverted: [], kept: [], noCopy: [] };
    if (filesAction) {
      files = await this.recording().redo(filesAction, answer);
      if (!files.done) return files;
    }
    let back = "";
    if (chat && Number.isInteger(at) && Number.isInteger(version)) {
      const shown = branchAt(this.agent.data.branches, at);
      if (!shown || version >= shown.count) throw new Error("That version of the chat is no longer there to bring back.");
      back = `${at}.${shown.active}`;
      await this.actions.switchBranch(at, version);
    }
    if (files.done && files.reverted.length > 0) await this.appendRestored("redo", files.reverted);
    return files.done ? { ...files, actionId: `rewind:${back}:${files.actionId}` } : files;
  }

  /** The changes view's commands need the chat's checkpoints; they reject in words where there are none. */
  private recording(): WorkspaceChanges {
    if (!this.changes) throw new Error("A subagent's session does not record its workspace's changes: its parent's chat does.");
    const off = this.changes.off;
    if (off) throw new Error(`Checkpoints are off for this chat: ${off}.`);
    if (!this.workspace) throw new Error("This chat has no workspace folder: there are no changes to show.");
    return this.changes;
  }

  /**
   * The session's word on one of the Agent's calls. The profile's refusal first: a subagent's own (never wider than
   * its parent's) before its parent is asked; then whoever gave the work (see child-role.ts). The run's starting state
   * is recorded before a call may change anything (workspace-changes.ts): at once for a call allowed now, once it is
   * allowed for a parked one, just before it runs.
   */
  private async decideCall(context: BeforeToolCallContext, signal?: AbortSignal): Promise<CallVerdict> {
    if (signal?.aborted) return stoppedBeforeCall();
    const verdict = await this.approvals.profileVerdict(context.toolCall.name);
    if (verdict.decision === "refuse") return denied(verdict.reason);
    const decided = await this.role.decideCall(context, signal);
    if (decided && "parked" in decided) {
      return {
        parked: decided.parked.then(async (d) => {
          if (!d?.block) await this.changes?.beforeCall();
          return d;
        }),
      };
    }
    if (!decided?.block) await this.changes?.beforeCall();
    return decided;
  }

  /**
   * After a call that can change files (write, edit, bash, an MCP tool not marked read-only, a subagent's whole
   * task): the workspace is checkpointed, and the result's details say what the call changed, for its card.
   */
  private async afterToolCall(toolCallId: string, toolName: string, args: unknown, details: unknown): Promise<{ details: unknown } | undefined> {
    if (!this.changes) return undefined;
    const scope = callScope(toolName, args, (name) => this.mcp.readOnly(name));
    if (scope === null) return undefined;
    const agentName = isRecord(args) && typeof args.agent === "string" ? args.agent : undefined;
    const by: ChangeAuthor =
      toolName === "subagent"
        ? { kind: "subagent", id: toolCallId, name: agentName ?? "subagent", label: this.describeLabel(toolName, args) }
        : { kind: "tool", id: toolCallId, name: toolName, label: this.describeLabel(toolName, args) };
    const changed = await this.changes.afterCall(scope, by);
    if (!changed) return undefined;
    return { details: { ...(isRecord(details) ? details : {}), [TOOL_FILE_CHANGES_FIELD]: changed } };
  }

  /** A call's one line, as its card's title shows it. */
  private describeLabel(toolName: string, args: unknown): string {
    return this.mcp.describe(toolName, args)?.summary ?? describeToolCall(this.agent.state.tools.find((t) => t.name === toolName), args, toolName);
  }

  /**
   * Starts a run with `message` and resolves once the message is accepted: in the chat and journaled, so a crash after
   * this cannot lose it. The run goes on; the mirrors report its end (`run_settled`). Rejects, changing nothing, when
   * a run is active (the Agent's Error). The mirrors are sent what happened before the caller hears back.
   */
  private async accept(message: AgentMessage, contract: RunContract = {}): Promise<void> {
    // The run's own terms hold until it settles (onStateEvent); a prompt refused because a run is active changes nothing.
    const starting = !this.agent.state.isStreaming;
    if (starting) this.startRun(contract);
    await this.recordProfile();
    const journaled = this.journal.untilJournaled(message);
    const run = this.agent.prompt(message);
    let accepted = false;
    // The Agent ends a failed run in its transcript; only a listener throwing in its safety net rejects it later.
    run.catch((error: unknown) => {
      if (accepted) console.error("Paddock: a run failed after its message was accepted:", error);
    });
    try {
      await Promise.race([journaled.written, run]);
    } catch (error) {
      // Not accepted, so no run of its: the chat's own terms are back.
      if (starting && !this.agent.state.isStreaming) this.endRun();
      throw error;
    } finally {
      journaled.cancel();
    }
    accepted = true;
    this.mirrors.flush();
  }

  /** A run starts under `contract`: its terms (profile, plan, caps, attendance) take effect for it alone. */
  private startRun(contract: RunContract): void {
    this.runContract = normalizeRunContract(contract);
    this.approvals.setUnattended(this.runContract.unattended === true);
    this.runTermsChanged();
  }

  /**
   * The terms a run asking again goes under (Retry, Continue; an edit of the message at `before`, a new version of
   * the reply starting there): the contract the run it redoes had (the latest marker before it), the user answering
   * for it now (not unattended).
   */
  private againTerms(before?: number): RunContract {
    const messages = before === undefined ? this.agent.state.messages : this.agent.state.messages.slice(0, before);
    const { unattended: _unattended, ...terms } = latestProfile(messages).run ?? {};
    return terms;
  }

  /** A run started directly on the Agent: if it never started (refused), its contract ends at once. */
  private async runOrEnd(run: Promise<void>): Promise<void> {
    try {
      await run;
    } catch (error) {
      if (!this.agent.state.isStreaming) this.endRun();
      throw error;
    }
  }

  /** The run settled (or never started): its contract ends, the chat's own terms are back. */
  private endRun(): void {
    const had = Object.keys(this.runContract).length > 0;
    this.runContract = {};
    this.approvals.setUnattended(false);
    if (had) this.runTermsChanged();
  }

  /** What the run goes under changed: the plan part of the prompt and the caps follow (the gate asks each call). */
  private runTermsChanged(): void {
    if (this.closed) return;
    this.agent.state.systemPrompt = this.systemPrompt();
    this.budget?.capsChanged();
  }

  /** Whether the run under way (else the next) plans: the chat's Plan mode, or the run's contract. */
  private planning(): boolean {
    return runTerms(this.chatOptions, this.runContract).plan;
  }

  /** Serves one mirror on `transport` until it closes. */
  connect(transport: Transport): void {
    if (this.closed) {
      transport.close();
      return;
    }
    this.mirrors.connect(transport, this.api);
  }

  /**
   * New settings from main. A changed default for queue modes or tool execution applies to this live session too;
   * an unchanged one leaves a choice made for this session alone.
   */
  updateSettings(settings: WorkerSettings): void {
    const before = this.settings;
    this.settings = settings;
    if (settings.steeringMode !== before.steeringMode) this.agent.steeringMode = settings.steeringMode;
    if (settings.followUpMode !== before.followUpMode) this.agent.followUpMode = settings.followUpMode;
    if (settings.toolExecution !== before.toolExecution) this.agent.toolExecution = settings.toolExecution;
    if (settings.defaultSystemPrompt !== before.defaultSystemPrompt) this.agent.state.systemPrompt = this.systemPrompt();
    if (JSON.stringify(settings.runBudget) !== JSON.stringify(before.runBudget)) this.budget?.capsChanged();
    const domains = (s: WorkerSettings) => s.allowedDomains.join("\n");
    if (this.workspace && domains(settings) !== domains(before)) void this.setWorkspace(this.workspace.folder, this.workspaceIdentity);
  }

  /**
   * Settings' word on a tool, except that a shell outside any sandbox asks about every command: nothing confines
   * it, so no earlier answer may stand for a later command.
   */
  private async policy(tool: string): Promise<GatePolicy> {
    const mcp = this.mcp.policy(tool, this.settings.toolApproval);
    if (mcp) return mcp;
    if (tool === "bash" && this.workspace && !(await this.workspace.shell).sandboxed) return "every-call";
    return this.settings.toolApproval[tool] ?? "ask";
  }

  /**
   * The profile the chat asks for: its own choice, else Settings' default; a subagent's is never wider than its
   * launch's (its parent's, narrowed by its definition), and its own window may only narrow it.
   */
  chosenProfile(): PermissionProfile {
    return chosenProfile(this.options, this.chatOptions, this.settings, this.runContract);
  }

  /** The profile calls are decided under now, and whether commands run in a sandbox (see effectiveProfile). */
  private async profileNow(): Promise<{ profile: PermissionProfile; wanted: PermissionProfile; sandboxed: boolean; fallback?: string }> {
    const wanted = this.chosenProfile();
    const sandboxed = this.workspace ? await this.workspace.shell.then((s) => s.sandboxed, () => false) : false;
    const { profile, fallback } = effectiveProfile(wanted, undefined, sandboxed);
    return { profile, wanted, sandboxed, ...(fallback ? { fallback } : {}) };
  }

  /**
   * Before a run starts: when the profile it will run under differs from the latest marker's (none: Ask), a marker
   * joins the chat and the transcript (profile-marker.ts), so every run's profile is on record. Not while a run is
   * active (the run it joins already has its marker).
   */
  private async recordProfile(): Promise<void> {
    if (this.agent.state.isStreaming) return;
    const { profile, wanted } = await this.profileNow();
    const marker = profileMarker(this.agent.state.messages, profile, wanted, Date.now(), this.planning(), this.runContract);
    if (!marker || this.agent.state.isStreaming) return;
    this.agent.appendMessage(marker);
    await this.journal.record({ t: "message", message: marker });
  }

  /** What the agent is doing: waiting for the user's answer, running, or nothing. */
  activity(): SessionActivity {
    if (this.approvals.pending().length > 0) return "waiting";
    return this.agent.state.isStreaming ? "running" : "idle";
  }

  /**
   * The chat's workspace changed (main checked the folder; undefined: none). The tools and the instructions follow,
   * from the agent's next step on; the mirrors are told, so the chat shows it.
   */
  async setWorkspace(folder: string | undefined, identity?: FolderIdentity): Promise<void> {
    const change = ++this.workspaceChanges;
    const network = { projectHosts: () => this.approvals.projectHosts(), askNetwork: (request: NetworkQuestion) => this.askNetwork(request) };
    const readOnlyCommands = () => this.chosenProfile() === "read-only";
    const workspace = folder ? await openWorkspace(folder, workspaceSetup(this.options, this.settings, identity, () => this.settings, network, readOnlyCommands), this.main) : undefined;
    if (change !== this.workspaceChanges) return; // a later change overtook this one
    const folderChanged = this.workspace?.folder !== workspace?.folder;
    this.workspace = workspace;
    this.workspaceIdentity = identity;
    if (folderChanged) void this.changes?.workspaceChanged();
    this.agent.state.tools = this.tools();
    this.agent.state.systemPrompt = this.systemPrompt();
    this.mirrors.push({ k: "workspace", workspace: this.workspaceInfo(workspace) });
    this.announceSandbox(workspace);
  }

  /** The workspace's files for the composer's `@`; throws, saying why, when the chat has no usable workspace. */
  private workspaceFiles(): WorkspaceFiles {
    const workspace = this.workspace;
    if (!workspace) throw new Error("This chat has no workspace folder: choose one to attach its files with @.");
    const problem = workspace.info().problem;
    if (problem || !workspace.files) throw new Error(problem ?? `${workspace.folder} cannot be used.`);
    return workspace.files;
  }

  /** What the page is told about a workspace: the folder's info, and whether its changes are recorded. */
  private workspaceInfo(workspace: SessionWorkspace | undefined): WorkspaceInfo | undefined {
    if (!workspace) return undefined;
    const off = this.changes?.off;
    return off ? { ...workspace.info(), checkpointsOff: off } : workspace.info();
  }

  /** Once the workspace knows whether its commands are sandboxed, the mirrors are told (if it is still the one). */
  private announceSandbox(workspace: SessionWorkspace | undefined): void {
    void workspace?.shell.then((choice) => {
      if (choice.verdict && !this.sandboxVerdict) {
        this.sandboxVerdict = choice.verdict;
        if (!this.closed) this.reportStatus(); // main passes it on to the workers it starts next
      }
      if (this.workspace === workspace && !this.closed) this.mirrors.push({ k: "workspace", workspace: this.workspaceInfo(workspace) });
    });
  }

  /**
   * The built-in tools, and with a workspace its file and shell tools and `subagent`; the MCP tools of the chat's
   * servers. A subagent has the workspace and MCP tools its definition names, and never `subagent` (no recursion).
   */
  private tools(): AgentTool<any>[] {
    const own = this.role.tools(this.workspace?.tools ?? [], this.workspace !== undefined);
    const { tools: offered, leftOut } = withMcpTools(own, this.mcp.agentTools());
    const tools = this.calls.wrap(offered);
    if (leftOut > 0 && leftOut !== this.mcpToolsLeftOut) {
      // Called once before the forwarder exists (the Agent's first tool list).
      this.mirrors.push({ k: "notice", kind: "warning", text: mcpToolsLeftOutText(leftOut) });
    }
    this.mcpToolsLeftOut = leftOut;
    return tools;
  }

  /** Main's list of the MCP tools on offer changed. */
  mcpToolsChanged(tools: McpToolDescriptor[]): void {
    if (!this.closed) this.mcp.offer(tools);
  }

  /**
   * Main's models changed: the chat's model is resolved again and, if it differs, replaces the one in use (the page
   * sees it at once; a run uses it from its next request). A model that can no longer be resolved stays in use until
   * the chat opens again, as before; a chat without a model is left to the user's pick.
   */
  async modelsChanged(): Promise<void> {
    const ref = this.modelRef;
    if (!ref || this.modelProblem !== undefined || this.closed) return;
    const model = await this.main.resolveModel(ref).catch(() => undefined);
    if (!model || this.closed || this.modelRef !== ref) return;
    if (JSON.stringify(model) !== JSON.stringify(this.agent.state.model)) this.agent.state.model = model;
  }

  /** Progress of one of this session's MCP calls. */
  mcpProgress(progress: McpCallProgress): void {
    this.mcp.onProgress(progress);
  }

  /** Main passes on a subagent's progress to the tool call that runs it. */
  subagentProgress(progress: SubagentProgress): void {
    this.role.subagentProgress(progress);
  }

  /**
   * A subagent's call, asked in this chat (its card is this chat's `subagent` call). Keyed apart from this chat's own
   * calls, whose ids may be the same. Stop denies it, as it does this chat's own questions.
   */
  /**
   * Main's list of what the project allows changed: it replaces the gate's at once, and the commands running now
   * are given the project's hosts as they are now.
   */
  projectGrantsChanged(grants: string[]): void {
    this.approvals.setProjectGrants(grants);
    if (this.workspace) void import("../../tools/workspace/sandbox").then((m) => m.refreshRunningNetworkLists()).catch(() => undefined);
  }

  /**
   * A sandboxed command of this chat connects to a host no rule allows: the chat asks (in the command's card), one
   * question at a time; a subagent working on its parent's task asks in the parent's chat. Its connection waits.
   */
  private networkQuestions: Promise<unknown> = Promise.resolve();
  private askNetwork(request: NetworkQuestion): Promise<{ allow: boolean; reason?: string }> {
    const run = this.networkQuestions.then(async () => {
      const summary = networkSummary(request);
      const command = request.commands[0];
      const id = command?.callId ?? `network-${request.host}`;
      const args = { host: request.host, ...(request.port !== undefined ? { port: request.port } : {}) };
      const fromParent = this.role.askNetwork?.({ toolCallId: id, toolName: "network", args, summary });
      const decided = await (fromParent ?? this.approvals.ask({ id, toolName: "network", args, described: { summary }, network: true }, this.agent.signal));
      return decided?.block ? { allow: false, reason: decided.reason } : { allow: true };
    });
    this.networkQuestions = run.catch(() => undefined);
    return run;
  }

  async askApproval(from: { agent: string; sessionId: string; parentToolCallId: string }, question: SubagentApprovalQuestion): Promise<{ block: boolean; reason?: string }> {
    const decided = await this.approvals.ask(
      {
        id: `${from.sessionId}:${question.toolCallId}`,
        toolName: question.toolName,
        args: question.args,
        from,
        described: { summary: `${from.agent}: ${question.summary}`, ...(question.diff ? { diff: question.diff } : {}) },
        ...(typeof question.protection === "string" ? { protection: question.protection } : {}),
        ...(question.toolName === "network" ? { network: true } : {}),
      },
      this.agent.signal,
    );
    return decided?.block ? { block: true, ...(decided.reason ? { reason: decided.reason } : {}) } : { block: false };
  }

  /**
   * What an approval question says about a call of this session's (an MCP tool's server, name and arguments; a
   * built-in tool's declared arguments: call-summary.ts), and for a file change its diff. Never rejects.
   */
  private async describeCall(toolName: string, args: unknown): Promise<{ summary: string; diff?: string }> {
    const mcp = this.mcp.describe(toolName, args);
    if (mcp) return mcp;
    const diff = await this.workspace?.preview(toolName, args).catch(() => undefined);
    const tool = this.agent.state.tools.find((t) => t.name === toolName);
    return { summary: describeToolCall(tool, args, toolName), ...(diff ? { diff } : {}) };
  }

  /**
   * One task done as a run with no page needed, under `contract` (see WorkerControlApi.runTask): a subagent's, a
   * schedule's occurrence. Never rejects: a run that could not start is a failed one.
   */
  async runTask(task: string, contract?: RunContract): Promise<Omit<SubagentOutcome, "requestId" | "agent" | "sessionId" | "notice">> {
    const start = this.agent.state.messages.length;
    try {
      await this.role.task(async () => {
        // Its folder is not the one main checked (replaced, say, by a link to `/`): no tools there, and no task.
        const problem = this.workspace?.info().problem;
        if (problem) throw new Error(problem);
        await this.api.prompt(task, [], contract);
        // Accepted: the task's result is its run's, once that has settled (with its retries).
        await this.runsSettled();
      });
    } catch (error) {
      return { ok: false, output: "", stopReason: "error", errorMessage: errorText(error), usage: subagentUsage(sumUsage([])) };
    }
    return { ...subagentResult(this.agent.state.messages.slice(start)), ...(this.modelRef ? { model: this.modelRef } : {}) };
  }

  /**
   * What the system prompt is made of: the chat's own instructions (else Settings' default), added to Paddock's
   * prompt for working in the workspace (as pi's), never in its place; a subagent's definition's instructions appended.
   */
  private promptInputs(): PromptInputs {
    const workspace = this.workspace;
    const { custom, addendum } = this.role.instructions(() => chatInstructions(this.chatOptions, this.settings.defaultSystemPrompt));
    return {
      ...(custom !== undefined ? { instructions: { from: this.chatOptions.systemPrompt?.trim() ? "chat" as const : "settings" as const, text: custom } } : {}),
      ...(addendum !== undefined ? { addendum } : {}),
      ...(this.planning() ? { plan: true } : {}),
      ...(workspace ? {
        parts: {
          tools: this.tools().map((t) => {
            const pi = WORKSPACE_TOOL_PROMPTS[t.name];
            return { name: t.name, snippet: pi?.snippet, guidelines: pi?.guidelines };
          }),
          workspace: workspace.folder,
          contextFiles: workspace.contextFiles,
          skills: workspace.skills,
        },
        contextSkipped: workspace.info().contextSkipped ?? [],
      } : {}),
    };
  }

  private systemPrompt(): string {
    return chatPrompt(this.promptInputs());
  }

  /** Resolves once the Agent is idle and no retry is about to start (one starts as the failed run settles). */
  private async runsSettled(): Promise<void> {
    do {
      await this.agent.waitForIdle();
      await Promise.resolve();
    } while (this.agent.state.isStreaming);
  }

  /** Aborts the run, waits for it to settle, flushes events and the transcript, closes every connection. */
  async shutdown(): Promise<void> {
    if (this.closed) return;
    this.agent.abort();
    await this.agent.waitForIdle();
    await this.close();
  }

  /**
   * The process is about to end without being asked (its parent died): saves the streaming reply as it stands and
   * closes the transcript, leaving the run alone. Aborting would journal the reply as stopped by the user; a reply
   * cut off by a crash loads as interrupted, with Retry and Continue.
   */
  async saveAndClose(): Promise<void> {
    if (this.closed) return;
    this.journal.saveReply();
    await this.close();
  }

  private async close(): Promise<void> {
    this.closed = true;
    this.journal.endReplies();
    this.mirrors.stop();
    await this.changes?.close();
    await this.journal.close();
    this.mirrors.disconnect();
  }

  private onStateEvent(event: AgentStateEvent, state: Readonly<AgentStateData>): void {
    this.toolRuns = reduceToolRuns(this.toolRuns, event);
    this.mirrors.stateEvent(event, state);
    // Once closed (the parent died) the run may go on until the process exits; there is nothing left to write to.
    if (!this.closed) this.journal.stateEvent(event);
    if (event.type === "run_start") {
      this.budget?.runStarted(this.retries.retryStarting, state.messages);
      this.changes?.runStarted();
      this.compactor.runStarted();
      this.held.runStarted();
      this.retries.runStarted();
    }
    // A retry that takes over is no end of the work: nothing is held, and main hears of no end (the retry's start follows).
    const retrying = event.type === "run_settled" && this.retries.takeOver();
    if (event.type === "run_settled" && !retrying) {
      this.endRun();
      this.held.runSettled();
    }
    if (event.type === "run_start" || (event.type === "run_settled" && !retrying)) this.reportStatus();
    // A subagent's parent shows what it is doing: each tool call is news.
    else if (this.role.reportsOn(event)) this.reportStatus();
  }

  private snapshot(tailMessages?: number): SessionSnapshot {
    return this.mirrors.snapshot(tailMessages, () => ({
      ...(this.held.list().length > 0 ? { held: this.held.list() } : {}),
      steeringMode: this.agent.steeringMode,
      followUpMode: this.agent.followUpMode,
      toolExecution: this.agent.toolExecution,
      toolRuns: this.toolRuns,
      approvals: this.approvals.pending(),
      ...(this.workspace ? { workspace: this.workspaceInfo(this.workspace) } : {}),
      ...(hasChatOptions(this.chatOptions) ? { chatOptions: this.chatOptions } : {}),
      ...(this.retries.current ? { retry: this.retries.current } : {}),
      ...(this.budget?.meter() ? { budget: this.budget.meter() } : {}),
      ...(this.modelProblem ? { modelProblem: this.modelProblem, ...(this.modelRef ? { unresolvedModel: this.modelRef } : {}) } : {}),
    }));
  }

  private reportStatus(): void {
    const state = this.agent.state;
    const status: WorkerStatus = {
      sessionId: this.options.sessionId,
      running: state.isStreaming,
      waiting: this.approvals.pending().length > 0,
      lastRun: lastRunOutcome(state.messages),
      title: this.journal.title,
      messageCount: state.messages.length,
      updated: Date.now(),
      model: this.modelRef,
      ...this.role.status(state.messages),
      ...(this.sandboxVerdict ? { sandbox: this.sandboxVerdict } : {}),
      ...(this.spend.cost > 0 || this.spend.unpricedTokens > 0 ? { spend: { ...this.spend } } : {}),
    };
    // Across the control channel the call returns a promise; if main went away (the worker is about to be shut
    // down) it rejects, and that must not become an unhandled rejection.
    void Promise.resolve()
      .then(() => this.main.report(status))
      .catch(() => undefined);
  }

  /** Checked before anything that asks the model: a model is chosen, and no budget (the chat's, the month's) is spent. */
  private requireModel(): void {
    if (!isModelChosen(this.agent.state.model)) {
      throw new Error(this.modelProblem ?? "No model selected. Pick a model (or add an API key or a local endpoint in Settings) first.");
    }
    if (this.settings.monthlyRefusal) throw new Error(this.settings.monthlyRefusal);
    const refusal = this.budget?.refusal(this.agent.state.messages);
    if (refusal) throw new Error(refusal);
  }

  /** The caps now: the chat's own; for its run, the run's contract's, else the chat's, else Settings' defaults. */
  private budgetCaps(): ChatBudget {
    const { chat, run: own } = runTerms(this.chatOptions, this.runContract).budget;
    const run = own ?? this.settings.runBudget;
    return { ...(chat ? { chat } : {}), ...(run ? { run } : {}) };
  }

  /** A compaction's marker joins the transcript: the Agent's state (so every mirror), the status, the journal. */
  private async appendCompaction(marker: CompactionMessage): Promise<void> {
    this.agent.appendMessage(marker);
    this.reportStatus();
    await this.journal.record(compactionRecord(marker));
  }

  private userMessage(text: string): AgentMessage {
    return { role: "user", content: [{ type: "text", text }], timestamp: Date.now() };
  }

  /**
   * A user message carrying attachments stored here before: each must be in this chat's folder, and images need a
   * model that reads them; otherwise rejects with the reason, and nothing is sent.
   */
  private async messageWith(text: string, refs: readonly AttachmentRef[]): Promise<AgentMessage> {
    const attachments = await this.attachments.check(refs);
    const model = this.agent.state.model;
    if (attachments.some((a) => attachmentKind(a) === "image") && !readsImages(model)) throw new Error(imagesRefused(model.name || model.id || "This model"));
    const message: UserMessageWithAttachments = { role: "user", content: text ? [{ type: "text", text }] : [], attachments, timestamp: Date.now() };
    return message;
  }
}
