import { memo, useEffect, useRef, useState } from "react";
import {
  hasChatOptions,
  MAX_INSTRUCTIONS_CHARS,
  MAX_OUTPUT_TOKENS,
  MAX_TEMPERATURE,
  MIN_TEMPERATURE,
  type ChatOptions,
} from "../../../shared/protocol/chat-options";
import { errorText } from "../../../shared/error-text";
import { SlidersIcon } from "../common/icons";
import { usePopoverDismiss } from "../common/use-popover-dismiss";
import { ChatMcpServers, type ChatMcpServer } from "./ChatMcpServers";
import { AgentBriefingDialog } from "./AgentBriefingDialog";
import type { AgentBriefing } from "../../../shared/protocol/agent-briefing";

interface ChatSettingsProps {
  options: ChatOptions | undefined;
  /** Settings' default instructions ("" for none). */
  defaultInstructions: string;
  /** The chat works in a folder: its instructions are added to Paddock's for working there. */
  inWorkspace: boolean;
  /** The chat's model's own limit on output tokens, when known. */
  modelMaxTokens?: number;
  /** Saves the whole set; rejects with the reason (the panel stays open with the draft). */
  onSave(options: ChatOptions): Promise<void>;
  /** Settings' MCP servers, for choosing which this chat uses (none configured: the choice is not shown). */
  mcpServers?: readonly ChatMcpServer[];
  /** "What the agent was told" (the chat's `agentBriefing`); absent: not offered. */
  loadBriefing?(): Promise<AgentBriefing>;
}

const DEFAULT_TEMPERATURE = 1;

/**
 * The chat's own instructions and parameters, from the header: a button (marked when the chat differs from the
 * defaults) opens a panel of drafts; Save sends the whole set, Reset returns every field to the defaults.
 */
export const ChatSettings = memo(function ChatSettings({ options, defaultInstructions, inWorkspace, modelMaxTokens, onSave, mcpServers = [], loadBriefing }: ChatSettingsProps) {
  const [open, setOpen] = useState(false);
  const [briefingOpen, setBriefingOpen] = useState(false);
  const [instructions, setInstructions] = useState("");
  const [temperature, setTemperature] = useState<number | undefined>();
  const [maxTokens, setMaxTokens] = useState("");
  const [mcpChoice, setMcpChoice] = useState<string[] | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const onPanelKey = usePopoverDismiss(open, root, () => setOpen(false));

  useEffect(() => {
    if (!open) return;
    setInstructions(options?.systemPrompt ?? "");
    setTemperature(options?.temperature);
    setMaxTokens(options?.maxTokens === undefined ? "" : String(options.maxTokens));
    setMcpChoice(options?.mcpServers);
    setFailure(null);
    // Drafts start from the chat's options each time the panel opens, not as they change while it is open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  // The chat's budget is the Budget dialog's (BudgetMeter.tsx): saved here as it is, Reset included.
  const keptBudget = options?.budget ? { budget: options.budget } : {};
  const save = (next: ChatOptions) => {
    setSaving(true);
    setFailure(null);
    // The permission profile is the header's (ProfilePicker): kept as it is, also by "Reset to defaults".
    onSave({ ...next, ...(options?.profile ? { profile: options.profile } : {}) }).then(
      () => setOpen(false),
      (e: unknown) => setFailure(errorText(e)),
    ).finally(() => setSaving(false));
  };

  const submit = () => {
    const tokens = maxTokens.trim() === "" ? undefined : Number(maxTokens);
    if (tokens !== undefined && !(Number.isInteger(tokens) && tokens >= 1 && tokens <= MAX_OUTPUT_TOKENS)) {
      setFailure(`Max output tokens must be a whole number from 1 to ${MAX_OUTPUT_TOKENS.toLocaleString()}, or empty for the model's default.`);
      return;
    }
    save({
      ...(instructions.trim() ? { systemPrompt: instructions } : {}),
      ...(temperature !== undefined ? { temperature } : {}),
      ...(tokens !== undefined ? { maxTokens: tokens } : {}),
      ...(mcpChoice !== undefined ? { mcpServers: mcpChoice } : {}),
      ...keptBudget,
    });
  };

  // The profile and the budget have their own header buttons: this one shows only its own choices as changed.
  const custom = hasChatOptions({ ...options, profile: undefined, budget: undefined });
  const fallback = defaultInstructions.trim()
    ? `Settings' default: ${defaultInstructions.trim()}`
    : inWorkspace ? "None: Paddock's instructions for working in the folder only" : "None: the model's own behaviour";
  const capped = modelMaxTokens !== undefined && Number(maxTokens) > modelMaxTokens;
  return (
    <div className="chat-settings" ref={root}>
      <button type="button" className={`icon-button chat-settings-button${custom ? " chat-settings-custom" : ""}`} onClick={() => setOpen((o) => !o)}
        aria-expanded={open} aria-haspopup="dialog" aria-label="Chat settings" data-testid="chat-settings-button"
        title={custom ? "Chat settings (this chat has its own)" : "Chat settings: instructions, temperature, max output tokens"}>
        <SlidersIcon />
        {custom ? <span className="chat-settings-dot" aria-hidden="true" /> : null}
      </button>
      {open ? (
        <form className="chat-settings-panel" role="dialog" aria-label="Chat settings" data-testid="chat-settings"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
          onKeyDown={onPanelKey}>
          <label className="chat-settings-field">
            <span className="chat-settings-label">Instructions for this chat</span>
            <textarea value={instructions} rows={7} maxLength={MAX_INSTRUCTIONS_CHARS} placeholder={fallback} autoFocus dir="auto"
              onChange={(e) => setInstructions(e.target.value)} data-testid="chat-instructions" />
            <span className="field-hint">
              {inWorkspace ? "Added to Paddock's instructions for working in the folder (its tools, its rules, the project's AGENTS.md). " : ""}
              Empty: the default. {instructions.length > 0 ? `${instructions.length.toLocaleString()} / ${MAX_INSTRUCTIONS_CHARS.toLocaleString()}` : ""}
            </span>
          </label>
          {loadBriefing ? (
            <button type="button" className="link-button chat-settings-briefing" data-testid="open-agent-briefing"
              onClick={() => {
                setOpen(false);
                setBriefingOpen(true);
              }}>
              What the agent was told…
            </button>
          ) : null}
          <div className="chat-settings-field">
            <span className="chat-settings-label">Temperature</span>
            <div className="chat-settings-row">
              <label className="inline-check">
                <input type="checkbox" checked={temperature === undefined} data-testid="temperature-default"
                  onChange={(e) => setTemperature(e.target.checked ? undefined : DEFAULT_TEMPERATURE)} /> Model default
              </label>
              <input type="range" min={MIN_TEMPERATURE} max={MAX_TEMPERATURE} step={0.05} aria-label="Temperature"
                value={temperature ?? DEFAULT_TEMPERATURE} disabled={temperature === undefined}
                onChange={(e) => setTemperature(Number(e.target.value))} />
              <input type="number" className="chat-settings-number" min={MIN_TEMPERATURE} max={MAX_TEMPERATURE} step={0.05}
                aria-label="Temperature value" data-testid="temperature-input" disabled={temperature === undefined}
                value={temperature ?? ""} onChange={(e) => {
                  const value = Number(e.target.value);
                  if (e.target.value !== "" && Number.isFinite(value)) setTemperature(Math.min(MAX_TEMPERATURE, Math.max(MIN_TEMPERATURE, value)));
                }} />
            </div>
            <span className="field-hint">Lower is steadier, higher more varied. Some models (reasoning ones) ignore it or refuse it.</span>
          </div>
          <label className="chat-settings-field">
            <span className="chat-settings-label">Max output tokens</span>
            <input type="number" className="chat-settings-number chat-settings-number-wide" min={1} max={MAX_OUTPUT_TOKENS} step={1} value={maxTokens}
              placeholder="Model default" onChange={(e) => setMaxTokens(e.target.value)} data-testid="max-tokens-input" />
            <span className="field-hint">
              {modelMaxTokens ? `This model allows up to ${modelMaxTokens.toLocaleString()}${capped ? ": larger values are capped to it" : ""}.` : "Empty: the model's default."}
            </span>
          </label>
          {mcpServers.length > 0 ? <ChatMcpServers servers={mcpServers} choice={mcpChoice} onChange={setMcpChoice} /> : null}
          {failure ? <div className="notice notice-error" role="alert">{failure}</div> : null}
          <div className="chat-settings-actions">
            <button type="button" className="link-button" disabled={saving} onClick={() => save({ ...keptBudget })} data-testid="chat-settings-reset">Reset to defaults</button>
            <span className="chat-settings-spacer" />
            <button type="button" className="btn btn-ghost" onClick={() => setOpen(false)}>Cancel</button>
            <button type="submit" className="btn btn-primary" disabled={saving} data-testid="chat-settings-save">Save</button>
          </div>
        </form>
      ) : null}
      {briefingOpen && loadBriefing ? <AgentBriefingDialog load={loadBriefing} onClose={() => setBriefingOpen(false)} /> : null}
    </div>
  );
});
