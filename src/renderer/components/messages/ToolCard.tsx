import { Fragment, memo, useCallback, useContext, useEffect, useRef, useState } from "react";
import type { ImageContent, TextContent, ToolCall, ToolResultMessage } from "@earendil-works/pi-ai";
import type { ToolRun } from "../../../shared/agent/tool-runs";
import { ToolIcon } from "../common/icons";
import { ApprovalPanel } from "./ApprovalPanel";
import { ApprovalsContext } from "./approvals";
import type { ApprovalRequest } from "../../../shared/protocol/session-protocol";
import { DiffView } from "./DiffView";
import { SubagentRuns } from "./SubagentRuns";
import { subagentDetails } from "../../../shared/protocol/subagent-details";
import {
  commandFacts, commandOutput, diffCounts, endedStatus, formatDuration, lastLines, outputShown, STATUS_ICONS, STATUS_WORDS, toolSummary,
  type CardStatus,
} from "./tool-summary";
import { VisibleText } from "../common/VisibleText";
import { ChangeStat } from "../changes/ChangeStat";
import { changeCountsOf } from "../changes/chat-changes";
import { ChangesOpenContext } from "../changes/useChatChanges";
import { changeSummary } from "../../../shared/changes/summary";
import { REVEAL_EVENT } from "../find/reveal-hidden";
import { ToolOutputContext } from "./tool-output";
import { ToolOutputDialog } from "./ToolOutputDialog";
import { isRecord } from "../../../shared/is-record";

interface ToolCardProps {
  call: ToolCall;
  run?: ToolRun;
  result?: ToolResultMessage;
  /** True while the assistant message carrying the call is still streaming (arguments may be partial). */
  argsStreaming: boolean;
}

const NO_QUESTIONS: readonly ApprovalRequest[] = [];

/** How many of a finished command's last lines its folded card shows. */
const TAIL_LINES = 3;

/**
 * One tool call: name, arguments, streamed partial output, then the result or the error. The final toolResult
 * message wins over the live run (it is what the model saw); the run fills in while the tool executes.
 *
 * A finished card keeps what the call did: an edit's or write's diff folded to "+10 −2 src/csv.ts", a command's exit
 * code, duration and last lines; a long output says how much of it shows, and opens whole. Ended badly, the card says
 * how (stopped, denied, timed out, failed: each its icon, word and colour). The arguments' JSON is folded away.
 */
export const ToolCard = memo(function ToolCard({ call, run, result, argsStreaming }: ToolCardProps) {
  const approvals = useContext(ApprovalsContext);
  const request = approvals.pending.get(call.id);
  const isSubagent = call.name === "subagent";
  const details = result?.details ?? (run?.result as { details?: unknown } | undefined)?.details;
  const subagents = isSubagent ? subagentDetails(result ?? run?.result ?? run?.partialResult) : undefined;
  const ended = result ? { isError: result.isError } : run && run.status !== "running" ? { isError: run.status === "error" } : undefined;
  const status: CardStatus = ended ? endedStatus(ended.isError, details, subagents) : run ? "running" : "pending";
  // A subagent's question shows inside this card (labelled), so the card counts as asking too.
  const childQuestions = isSubagent ? [...approvals.pending.values()].filter((q) => q.from?.parentToolCallId === call.id) : NO_QUESTIONS;
  const asking = request !== undefined || childQuestions.length > 0;
  const [choice, setChoice] = useState<boolean | null>(null);
  // A subagent card stays as the user left it (open, with any Watch view inside, when its run ends); others fold
  // when done.
  const open = asking || (choice ?? (isSubagent || status !== "done"));
  // Find in chat (or a search result) landing on this call's output opens the card: see find/useRevealRow.ts.
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const card = root.current;
    const reveal = () => setChoice(true);
    card?.addEventListener(REVEAL_EVENT, reveal);
    return () => card?.removeEventListener(REVEAL_EVENT, reveal);
  }, []);
  const content = result ? result.content : run?.result !== undefined ? contentOf(run.result) : run?.partialResult !== undefined ? contentOf(run.partialResult) : [];
  const rawOutput = resultContentText(content);
  const images = content.filter((c): c is ImageContent => c.type === "image");
  const isCommand = call.name === "bash";
  const facts = isCommand ? commandFacts(details) : {};
  // A command's card says its status, exit code and where the rest is itself: its output without pi's trailers.
  const output = isCommand && (facts.exitCode !== undefined || facts.durationMs !== undefined) ? commandOutput(rawOutput) : rawOutput;
  const shown = outputShown(details);
  const fullOutput = isRecord(details) && typeof details.fullOutputPath === "string";
  const diff = diffOf(details);
  const finished = ended !== undefined;
  // What the call changed on disk (a subagent call: its whole task), a link to the Changes panel at its turn.
  const changed = changeCountsOf(details);
  const changes = useContext(ChangesOpenContext);
  const readOutput = useContext(ToolOutputContext);
  const [viewing, setViewing] = useState(false);
  const loadOutput = useCallback(() => readOutput!(call.id), [readOutput, call.id]);
  const statusLabel = asking ? "waiting for you" : status === "pending" ? (argsStreaming ? "preparing" : "waiting") : STATUS_WORDS[status];
  const path = typeof call.arguments?.path === "string" ? call.arguments.path : "";
  return (
    <div ref={root} className={`tool-card tool-${status}${asking ? " tool-asking" : ""}`} data-testid="tool-card" data-status={asking ? "asking" : status}
      data-tool-call={call.id}>
      <button type="button" className="tool-header" aria-expanded={open} onClick={() => setChoice(!open)}>
        <span className="chevron" aria-hidden="true">{open ? "▾" : "▸"}</span>
        <span className="tool-icon"><ToolIcon /></span>
        <span className="tool-name">{call.name || "tool"}</span>
        <span className="tool-summary" dir="ltr"><VisibleText text={toolSummary(call.name, call.arguments)} /></span>
        <span className={`tool-status status-${asking ? "asking" : status}`} data-testid="tool-status">
          {status === "running" || (status === "pending" && argsStreaming) ? <span className="spinner" aria-hidden="true" /> : null}
          {!asking && STATUS_ICONS[status] ? <span className="status-icon" aria-hidden="true">{STATUS_ICONS[status]}</span> : null}
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
      {finished && diff ? <FoldedDiff diff={diff} path={path} /> : null}
      {finished && isCommand && (facts.exitCode !== undefined || facts.durationMs !== undefined) ? (
        <div className="tool-facts" data-testid="command-facts">
          {[
            facts.exitCode !== undefined ? <span key="exit" className={`tool-exit${facts.exitCode === 0 ? "" : " tool-exit-bad"}`}>exit {facts.exitCode}</span> : null,
            facts.durationMs !== undefined ? <span key="time">{formatDuration(facts.durationMs)}</span> : null,
            shown ? <span key="shown">{shown}</span> : null,
          ].filter(Boolean).map((part, i) => <Fragment key={i}>{i > 0 ? " \u00b7 " : null}{part}</Fragment>)}
        </div>
      ) : null}
      {finished && isCommand && !open && output.trim() ? (
        <pre className="tool-pre tool-tail" data-testid="tool-tail" dir="ltr">{lastLines(output, TAIL_LINES)}</pre>
      ) : null}
      {finished && images.length > 0 && !open ? <ToolImages images={images} /> : null}
      {open ? (
        <div className="tool-body">
          {request ? (
            <ApprovalPanel request={request} focus={[...approvals.pending.keys()][0] === call.id}
              answer={(answer, reason) => approvals.answer(call.id, answer, reason)} />
          ) : null}
          {isSubagent && (subagents || status === "running") ? <SubagentRuns details={subagents} questions={childQuestions} /> : null}
          <details className="tool-args-fold" data-testid="tool-args-fold">
            <summary className="tool-section-label">Arguments</summary>
            <ToolArguments args={call.arguments} />
          </details>
          {diff && !request && !finished ? (
            <>
              <div className="tool-section-label">Changes</div>
              <DiffView diff={diff} />
            </>
          ) : null}
          {!request && isSubagent && finished && subagents && output ? (
            // Each task's answer shows above, as markdown; what the model was told of them stays folded.
            <details className="tool-args-fold" data-testid="tool-result-fold">
              <summary className="tool-section-label">What the model was told</summary>
              <pre className={`tool-pre${status === "failed" ? " tool-error-text" : ""}`} data-testid="tool-output">{output}</pre>
            </details>
          ) : !request && (output || status === "running") ? (
            <>
              <div className="tool-section-label tool-output-label">
                <span>{status === "failed" ? "Error" : status === "running" ? "Output so far" : finished && status !== "done" ? STATUS_WORDS[status] : "Result"}</span>
                {shown ? <span className="tool-shown" data-testid="tool-output-shown">Showing the {shown}</span> : null}
                {shown && fullOutput && readOutput && finished ? (
                  <button type="button" className="link-button tool-open-output" data-testid="tool-open-output" onClick={() => setViewing(true)}>Open full output</button>
                ) : null}
              </div>
              <pre className={`tool-pre${status === "failed" ? " tool-error-text" : ""}`} data-testid="tool-output" data-find-output="">
                {output || "…"}
              </pre>
            </>
          ) : null}
          {images.length > 0 ? <ToolImages images={images} /> : null}
        </div>
      ) : null}
      {viewing && readOutput ? <ToolOutputDialog title={toolSummary(call.name, call.arguments)} load={loadOutput} onClose={() => setViewing(false)} /> : null}
    </div>
  );
});

/** A finished file change's diff, folded to "+10 −2 src/csv.ts"; unfolded, the diff. */
function FoldedDiff({ diff, path }: { diff: string; path: string }) {
  const { added, removed } = diffCounts(diff);
  return (
    <details className="tool-diff-fold" data-testid="tool-diff-fold">
      <summary>
        <span className="change-added">+{added}</span> <span className="change-removed">{"\u2212"}{removed}</span>{" "}
        <code className="tool-diff-path" dir="ltr"><VisibleText text={path} /></code>
      </summary>
      <DiffView diff={diff} />
    </details>
  );
}

/** Image types a card shows, and the most of one it shows (base64 characters: ~3 MB of image). */
const SHOWN_IMAGE_TYPES: ReadonlySet<string> = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const MAX_IMAGE_CHARS = 4 * 1024 * 1024;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Images a tool returned (an MCP tool's screenshot, say), as images: data URLs of known types only, size-capped. */
function ToolImages({ images }: { images: readonly ImageContent[] }) {
  return (
    <div className="tool-images" data-testid="tool-images">
      {images.map((image, i) => {
        const shown = SHOWN_IMAGE_TYPES.has(image.mimeType) && image.data.length <= MAX_IMAGE_CHARS && BASE64.test(image.data);
        return shown ? (
          <img key={i} className="tool-image" src={`data:${image.mimeType};base64,${image.data}`} alt={`Image ${i + 1} the tool returned (${image.mimeType})`} data-testid="tool-image" />
        ) : (
          <div key={i} className="muted tool-image-skipped" data-testid="tool-image-skipped">
            [image {image.mimeType}, {Math.round((image.data.length * 3) / 4 / 1024)} KB: {SHOWN_IMAGE_TYPES.has(image.mimeType) ? "too large to show" : "not a type shown here"}]
          </div>
        );
      })}
    </div>
  );
}

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
 * and write add, else pi's numbered `diff` (results of agents written for pi).
 */
function diffOf(details: unknown): string | undefined {
  const { patch, diff } = (details ?? {}) as { patch?: unknown; diff?: unknown };
  if (typeof patch === "string" && patch.length > 0) return patch;
  return typeof diff === "string" && diff.length > 0 ? diff : undefined;
}

/** A tool result's text parts on their own lines (its images show as images, below). */
function resultContentText(content: readonly (TextContent | ImageContent)[]): string {
  return content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
}

/** Tool results travel as `{ content, details }` (AgentToolResult); anything else is shown as JSON text. */
function contentOf(value: unknown): (TextContent | ImageContent)[] {
  if (value && typeof value === "object" && Array.isArray((value as { content?: unknown }).content)) {
    return (value as { content: (TextContent | ImageContent)[] }).content;
  }
  if (typeof value === "string") return [{ type: "text", text: value }];
  try {
    return [{ type: "text", text: JSON.stringify(value, null, 2) }];
  } catch {
    return [{ type: "text", text: String(value) }];
  }
}
