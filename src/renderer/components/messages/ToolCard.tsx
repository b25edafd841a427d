import { Fragment, memo, useContext, useEffect, useRef, useState } from "react";
import type { ToolCall, ToolResultMessage } from "@earendil-works/pi-ai";
import type { ToolRun } from "../../../shared/agent/tool-runs";
import { ToolIcon } from "../common/icons";
import { contentText } from "../../../shared/agent/content-text";
import { ApprovalPanel } from "./ApprovalPanel";
import { ApprovalsContext } from "./approvals";
import type { ApprovalRequest } from "../../../shared/protocol/session-protocol";
import { DiffView } from "./DiffView";
import { SubagentRuns } from "./SubagentRuns";
import { subagentDetails } from "../../../shared/protocol/subagent-details";
import { toolSummary } from "./tool-summary";
import { VisibleText } from "../common/VisibleText";
import { ChangeStat } from "../changes/ChangeStat";
import { changeCountsOf } from "../changes/chat-changes";
import { ChangesOpenContext } from "../changes/useChatChanges";
import { changeSummary } from "../../../shared/changes/summary";
import { REVEAL_EVENT } from "../find/reveal-hidden";

interface ToolCardProps {
  call: ToolCall;
  run?: ToolRun;
  result?: ToolResultMessage;
  /** True while the assistant message carrying the call is still streaming (arguments may be partial). */
  argsStreaming: boolean;
}

type Status = "pending" | "running" | "done" | "error";

const NO_QUESTIONS: readonly ApprovalRequest[] = [];

/**
 * One tool call: name, arguments, streamed partial output, then the result or the error. The final toolResult
 * message wins over the live run (it is what the model saw); the run fills in while the tool executes.
 */
export const ToolCard = memo(function ToolCard({ call, run, result, argsStreaming }: ToolCardProps) {
  const status: Status = result
    ? result.isError ? "error" : "done"
    : run ? (run.status === "running" ? "running" : run.status) : "pending";
  const approvals = useContext(ApprovalsContext);
  const request = approvals.pending.get(call.id);
  const isSubagent = call.name === "subagent";
  // A subagent's question shows inside this card (labelled), so the card counts as asking too.
  const childQuestions = isSubagent ? [...approvals.pending.values()].filter((q) => q.from?.parentToolCallId === call.id) : NO_QUESTIONS;
  const asking = request !== undefined || childQuestions.length > 0;
  const [choice, setChoice] = useState<boolean | null>(null);
  const open = asking || (choice ?? (status !== "done"));
  // Find in chat (or a search result) landing on this call's output opens the card: see find/useRevealRow.ts.
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const card = root.current;
    const reveal = () => setChoice(true);
    card?.addEventListener(REVEAL_EVENT, reveal);
    return () => card?.removeEventListener(REVEAL_EVENT, reveal);
  }, []);
  const output = result ? resultContentText(result.content) : run?.result !== undefined ? resultText(run.result) :
    run?.partialResult !== undefined ? resultText(run.partialResult) : "";
  const details = result?.details ?? (run?.result as { details?: unknown } | undefined)?.details;
  const diff = diffOf(details);
  // What the call changed on disk (a subagent call: its whole task), a link to the Changes panel at its turn.
  const changed = changeCountsOf(details);
  const changes = useContext(ChangesOpenContext);
  const subagents = isSubagent ? subagentDetails(result ?? run?.result ?? run?.partialResult) : undefined;
  const statusLabel = asking ? "waiting for you" : { pending: argsStreaming ? "preparing" : "waiting", running: "running", done: "done", error: "error" }[status];
  return (
    <div ref={root} className={`tool-card tool-${status}${asking ? " tool-asking" : ""}`} data-testid="tool-card" data-status={asking ? "asking" : status}
      data-tool-call={call.id}>
      <button type="button" className="tool-header" aria-expanded={open} onClick={() => setChoice(!open)}>
        <span className="chevron" aria-hidden="true">{open ? "▾" : "▸"}</span>
        <span className="tool-icon"><ToolIcon /></span>
        <span className="tool-name">{call.name || "tool"}</span>
        <span className="tool-summary" dir="ltr"><VisibleText text={toolSummary(call.name, call.arguments)} /></span>
        <span className={`tool-status status-${status}`}>
          {status === "running" || (status === "pending" && argsStreaming) ? <span className="spinner" aria-hidden="true" /> : null}
          {statusLabel}
        </span>
      </button>
      {changed ? (
        <div className="tool-changes">
          {changes ? (
            <button type="button" className="tool-changes-button" onClick={() => changes.openAtCall(call.id, call.name, call.arguments)}
              title="Show in the Changes panel" aria-label={`${changeSummary(changed)}: show in the Changes panel`} data-testid="tool-changes">
              <ChangeStat counts={changed} />
            </button>
          ) : <ChangeStat counts={changed} />}
        </div>
      ) : null}
      {open ? (
        <div className="tool-body">
          {request ? (
            <ApprovalPanel request={request} focus={[...approvals.pending.keys()][0] === call.id}
              answer={(answer, reason) => approvals.answer(call.id, answer, reason)} />
          ) : null}
          {isSubagent && (subagents || status === "running") ? <SubagentRuns details={subagents} questions={childQuestions} /> : null}
          {isSubagent ? (
            // The runs above show each task; the raw arguments (long prompts) stay folded.
            <details className="tool-args-fold">
              <summary className="tool-section-label">Arguments</summary>
              <ToolArguments args={call.arguments} />
            </details>
          ) : (
            <>
              <div className="tool-section-label">Arguments</div>
              <ToolArguments args={call.arguments} />
            </>
          )}
          {diff && !request ? (
            <>
              <div className="tool-section-label">Changes</div>
              <DiffView diff={diff} />
            </>
          ) : null}
          {!request && (output || status === "running") ? (
            <>
              <div className="tool-section-label">{status === "error" ? "Error" : status === "running" ? "Output so far" : "Result"}</div>
              <pre className={`tool-pre${status === "error" ? " tool-error-text" : ""}`} data-testid="tool-output" data-find-output="">
                {output || "…"}
              </pre>
            </>
          ) : null}
        </div>
      ) : null}
    </div>
  );
});

/**
 * The call's arguments as JSON, every character that does not show as itself shown (JSON escapes the controls, not
 * U+202E or U+200B). JSON has no raw newline inside a string, so its own line breaks are plain ones, not markers.
 */
function ToolArguments({ args }: { args: ToolCall["arguments"] | undefined }) {
  const lines = JSON.stringify(args ?? {}, null, 2).split("\n");
  return (
    <pre className="tool-pre" dir="ltr" data-testid="tool-args">
      {lines.map((line, i) => <Fragment key={i}>{i > 0 ? "\n" : null}<VisibleText text={line} /></Fragment>)}
    </pre>
  );
}

/**
 * The diff a file-changing tool puts in its result's details, if any: the standard unified `patch` Paddock's edit
 * adds, else pi's numbered `diff` (results of agents written for pi).
 */
function diffOf(details: unknown): string | undefined {
  const { patch, diff } = (details ?? {}) as { patch?: unknown; diff?: unknown };
  if (typeof patch === "string" && patch.length > 0) return patch;
  return typeof diff === "string" && diff.length > 0 ? diff : undefined;
}

/** A tool result's content as the card shows it: text parts on their own lines, images by type. */
function resultContentText(content: ToolResultMessage["content"]): string {
  return contentText(content, "\n", (image) => `[image ${image.mimeType}]`);
}

/** Tool results travel as `{ content, details }` (AgentToolResult); anything else is shown as JSON. */
function resultText(value: unknown): string {
  if (value && typeof value === "object" && Array.isArray((value as { content?: unknown }).content)) {
    return resultContentText((value as { content: ToolResultMessage["content"] }).content);
  }
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}
