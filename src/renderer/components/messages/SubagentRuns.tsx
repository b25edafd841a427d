import { memo, useCallback, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { AgentMessage } from "../../../shared/agent/types";
import { isFailedRun, type SubagentDetails, type SubagentRun } from "../../../shared/protocol/subagent-details";
import type { ApprovalRequest } from "../../../shared/protocol/session-protocol";
import { useServices } from "../../context/ServicesContext";
import { useSessionHandle } from "../../store/useSessionHandle";
import { frameCoalesced } from "../../store/frame-coalesced";
import type { SessionHandle } from "../../services/app-services";
import { ApprovalPanel } from "./ApprovalPanel";
import { ApprovalsContext, type Approvals } from "./approvals";
import { buildTranscript, formatTokens, spentCost, streamingItem } from "./chatItems";
import { MessageRow } from "./MessageRow";
import { WorktreeActions } from "../worktrees/WorktreeActions";
import { Markdown } from "../markdown/Markdown";
import { ToolOutputContext } from "./tool-output";

interface SubagentRunsProps {
  details: SubagentDetails | undefined;
  /** The chat's waiting questions that this call's subagents asked (the card found them: it shows them as asking). */
  questions: readonly ApprovalRequest[];
}

/**
 * Every subagent of one `subagent` call, live: folded, each shows its status, model, usage and latest activity;
 * unfolded, its own transcript streams through a mirror of its session, as any chat's does. Each opens in a window
 * of its own, where Stop works. Questions a subagent's tool calls ask show here, labelled with its name.
 */
export const SubagentRuns = memo(function SubagentRuns({ details, questions }: SubagentRunsProps) {
  const approvals = useContext(ApprovalsContext);
  const runs = details?.runs ?? [];
  return (
    <div className="subagents" data-testid="subagents">
      {questions.map((q) => (
        <ApprovalPanel key={q.toolCallId} request={q} focus={[...approvals.pending.keys()][0] === q.toolCallId}
          answer={(answer, reason) => approvals.answer(q.toolCallId, answer, reason)} />
      ))}
      {runs.length === 0 ? <div className="muted subagent-none">Starting…</div> : null}
      {runs.map((run, i) => (run ? <SubagentRow key={run.sessionId ?? `${i}`} run={run} index={i} asking={questions.some((q) => q.from?.sessionId === run.sessionId)} /> : null))}
    </div>
  );
});

/** pi 1.6.0's statuses, as words. */
const STATUS_LABEL: Record<SubagentRun["status"], string> = { pending: "pending", running: "running", completed: "completed", failed: "failed", aborted: "aborted" };

/** What the folded line says: the question waiting, what went wrong, what it is doing, or its task. */
function headline(run: SubagentRun, asking: boolean): string {
  if (asking) return "waiting for you";
  if (isFailedRun(run)) return run.errorMessage ?? STATUS_LABEL[run.status];
  if (run.status === "pending") return `waiting its turn: ${firstLine(run.task)}`;
  return run.latest ?? firstLine(run.task);
}

function SubagentRow({ run, index, asking }: { run: SubagentRun; index: number; asking: boolean }) {
  const services = useServices();
  const [watching, setWatching] = useState(false);
  const tokens = run.usage.input + run.usage.output;
  const status = asking ? "asking" : run.status;
  return (
    <div className={`subagent subagent-${status}`} data-testid="subagent" data-status={status}>
      <div className="subagent-head">
        <span className={`subagent-dot dot-${status}`} aria-hidden="true" />
        <span className="subagent-name">{run.agent}</span>
        <span className="subagent-step muted">#{index + 1}</span>
        <span className="subagent-latest" title={run.latest ?? run.task}>
          {headline(run, asking)}
        </span>
        <span className="subagent-meta muted">
          {run.model ? <span>{run.model.id}</span> : null}
          {tokens > 0 ? <span> · {formatTokens(tokens)} tok · {spentCost(run.usage.cost)}</span> : null}
          <span className="subagent-status" data-testid="subagent-status"> · {STATUS_LABEL[run.status]}</span>
        </span>
        {run.sessionId ? (
          <span className="subagent-actions">
            <button type="button" className="link-button" aria-expanded={watching} data-testid="subagent-watch"
              onClick={() => setWatching(!watching)}>{watching ? "Hide" : "Watch"}</button>
            <button type="button" className="link-button" data-testid="subagent-open"
              onClick={() => void services.app.openSession(run.sessionId!, "new-window")}>Open</button>
          </span>
        ) : null}
      </div>
      {run.notice ? <div className="subagent-notice">{run.notice}</div> : null}
      {run.worktree && run.sessionId ? (
        // An isolated task's changes are on its branch until applied: the user applies, keeps or discards them here.
        <div className="subagent-worktree" data-testid="subagent-worktree">
          <span className="muted">Worktree <strong>{run.worktree.branch}</strong>:</span>
          <WorktreeActions sessionId={run.sessionId} branch={run.worktree.branch} askStatus
            counts={{ files: run.worktree.files.length, added: run.worktree.added, removed: run.worktree.removed }} />
        </div>
      ) : null}
      {watching && run.sessionId ? <SubagentTranscript sessionId={run.sessionId} /> : null}
      {run.output?.trim() && run.status !== "running" && run.status !== "pending" ? (
        // What it answered (or, stopped, what it had said so far), as the markdown it is.
        <div className="subagent-output" data-testid="subagent-output">
          <Markdown text={run.output} />
        </div>
      ) : null}
    </div>
  );
}

/** Nothing to answer inside a subagent's own view: its questions are asked in the parent's card, above. */
const NO_APPROVALS: Approvals = { pending: new Map<string, ApprovalRequest>(), answer: async () => {} };

/** A subagent's transcript, live, in a box of bounded height that follows the end while the reader is there. */
function SubagentTranscript({ sessionId }: { sessionId: string }) {
  const services = useServices();
  const handle = useSessionHandle(services, sessionId);
  return (
    <div className="subagent-transcript" data-testid="subagent-transcript">
      {handle ? <LiveTranscript handle={handle} /> : <div className="muted">Connecting…</div>}
    </div>
  );
}

/** How many of a subagent's newest rows the nested view shows (its own window shows them all). */
const NESTED_ROWS = 40;

/**
 * A peek needs no more than 20 updates a second: several of them stream at once inside the parent's page, which
 * must keep its own frame rate (each would otherwise re-render every frame).
 */
const PEEK_INTERVAL_MS = 50;

function LiveTranscript({ handle }: { handle: SessionHandle }) {
  const peeked = useMemo(() => frameCoalesced(handle, (run) => void setTimeout(run, PEEK_INTERVAL_MS)), [handle]);
  const view = useSyncExternalStore(peeked.subscribe, peeked.getView);
  const { state } = view;
  const transcript = useMemo(() => buildTranscript(state.messages, view.historyStart ?? 0), [state.messages, view.historyStart]);
  const streaming = streamingItem(peek(state.streamingMessage), (view.historyStart ?? 0) + state.messages.length);
  const items = streaming ? [...transcript.items, streaming] : transcript.items;
  const shown = items.slice(-NESTED_ROWS);
  const box = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);
  const readOutput = useCallback((toolCallId: string) => handle.commands.toolOutput(toolCallId), [handle]);
  useEffect(() => {
    const el = box.current;
    if (el && stuck.current) el.scrollTop = el.scrollHeight;
  });
  return (
    <div className="subagent-scroll" ref={box}
      onScroll={() => {
        const el = box.current;
        if (el) stuck.current = el.scrollHeight - el.scrollTop - el.clientHeight < 32;
      }}>
      {items.length > shown.length ? <div className="muted subagent-more">{items.length - shown.length} earlier messages: Open shows them all.</div> : null}
      {shown.length === 0 ? <div className="muted">{view.connection === "ready" ? "No messages yet." : "Connecting…"}</div> : null}
      <ApprovalsContext.Provider value={NO_APPROVALS}>
        <ToolOutputContext.Provider value={readOutput}>
          {shown.map((item) => (
            <MessageRow key={item.key} item={item} toolRuns={view.toolRuns} toolResults={transcript.toolResults} />
          ))}
        </ToolOutputContext.Provider>
      </ApprovalsContext.Provider>
    </div>
  );
}

/** How much of a streaming reply the nested view shows: its end, which is what is new (its own window shows all). */
const PEEK_CHARS = 1_500;

/**
 * The streaming message with only the end of its last text: re-rendering four long replies in full every frame
 * would cost the parent's page its frame rate, and a peek box shows the end anyway.
 */
function peek(message: AgentMessage | undefined): AgentMessage | undefined {
  if (!message || message.role !== "assistant") return message;
  const last = message.content.length - 1;
  const block = message.content[last];
  if (block?.type !== "text" || block.text.length <= PEEK_CHARS) return message;
  const cut = block.text.slice(block.text.length - PEEK_CHARS);
  const content = [...message.content.slice(0, last), { ...block, text: `…${cut.slice(cut.indexOf(" ") + 1)}` }];
  return { ...message, content };
}

function firstLine(text: string): string {
  const line = text.split("\n")[0];
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}
