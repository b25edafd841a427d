import { useState, type ReactNode } from "react";
import { AgentsList } from "../components/settings/AgentsList";
import type { ModelOption, ProviderStatus } from "../../shared/protocol/app-api";
import type { CustomProvider, Settings, SettingsPatch, ToolPolicy } from "../../shared/settings/schema";
import { THINKING_LEVELS, type ThinkingLevel } from "../../shared/agent/types";
import { useServices } from "../app/ServicesContext";
import { CustomProvidersEditor } from "../components/settings/CustomProvidersEditor";
import { ApiKeyRow } from "../components/settings/ApiKeyRow";
import { customProviderId } from "../../shared/providers/custom-provider";
import { MIN_REQUEST_TIMEOUT_MS } from "../../shared/settings/limits";
import { errorText } from "../../shared/error-text";
import { MAX_INSTRUCTIONS_CHARS } from "../../shared/protocol/chat-options";

interface SettingsViewProps {
  settings: Settings;
  models: readonly ModelOption[];
  providerStatus: readonly ProviderStatus[];
  onSettings(settings: Settings): void;
  /** Keys or endpoints changed: the caller reloads provider status and models. */
  onProvidersChanged(): void;
  onClose(): void;
}


/** Every setting, saved as soon as it changes (main validates; a rejected change is shown and not applied). */
export function SettingsView(props: SettingsViewProps) {
  const { settings, models, providerStatus, onSettings, onProvidersChanged, onClose } = props;
  const { app } = useServices();
  const [error, setError] = useState<string | null>(null);
  const [timeoutDraft, setTimeoutDraft] = useState<string | null>(null);
  const [idleDraft, setIdleDraft] = useState<string | null>(null);
  const [approvalDraft, setApprovalDraft] = useState<string | null>(null);
  const [domainsDraft, setDomainsDraft] = useState<string | null>(null);
  const [subagentsDraft, setSubagentsDraft] = useState<string | null>(null);
  const [instructionsDraft, setInstructionsDraft] = useState<string | null>(null);

  const save = async (patch: SettingsPatch): Promise<boolean> => {
    setError(null);
    try {
      onSettings(await app.updateSettings(patch));
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    }
  };

  const modelKey = settings.defaultModel ? JSON.stringify([settings.defaultModel.provider, settings.defaultModel.id]) : "";
  const timeoutSeconds = timeoutDraft ?? String(Math.round(settings.abort.requestTimeoutMs / 1000));

  return (
    <section className="settings" data-testid="settings-view" aria-labelledby="settings-title">
      <header className="settings-header">
        <h1 id="settings-title">Settings</h1>
        <button type="button" className="btn btn-secondary" onClick={onClose}>Done</button>
      </header>
      {error ? <div className="notice notice-error" role="alert">{error}</div> : null}
      <div className="settings-body">
        <Group title="Appearance">
          <Field label="Theme" htmlFor="set-theme">
            <div className="segmented" role="radiogroup" aria-label="Theme" id="set-theme">
              {(["system", "light", "dark"] as const).map((t) => (
                <label key={t} className={settings.theme === t ? "selected" : undefined}>
                  <input type="radio" name="theme" value={t} checked={settings.theme === t}
                    onChange={() => void save({ theme: t })} data-testid={`theme-${t}`} />
                  {t[0].toUpperCase() + t.slice(1)}
                </label>
              ))}
            </div>
          </Field>
        </Group>

        <Group title="Model">
          <Field label="Default model for new chats" htmlFor="set-model">
            <select id="set-model" value={modelKey} onChange={(e) => {
              const m = models.find((o) => JSON.stringify([o.provider, o.id]) === e.target.value);
              void save({ defaultModel: m ? { provider: m.provider, id: m.id } : null });
            }}>
              <option value="">None (choose per chat)</option>
              {settings.defaultModel && !models.some((o) => o.provider === settings.defaultModel!.provider && o.id === settings.defaultModel!.id)
                ? <option value={modelKey}>{settings.defaultModel.provider}/{settings.defaultModel.id} (unavailable)</option> : null}
              {models.map((m) => (
                <option key={`${m.provider}/${m.id}`} value={JSON.stringify([m.provider, m.id])}>{m.provider} · {m.name}</option>
              ))}
            </select>
          </Field>
          <Field label="Default thinking level" htmlFor="set-thinking" hint="Used by reasoning models; others ignore it.">
            <select id="set-thinking" value={settings.thinkingLevel}
              onChange={(e) => void save({ thinkingLevel: e.target.value as ThinkingLevel })}>
              {THINKING_LEVELS.map((l) => <option key={l} value={l}>{l}</option>)}
            </select>
          </Field>
          <div className="field field-wide">
            <div className="field-label">
              <label htmlFor="set-instructions">Default instructions</label>
              <div className="field-hint">
                The system prompt of every chat without instructions of its own (a chat's settings, in its header, can
                give it others). In a chat with a workspace they replace Paddock's instructions for working there.
              </div>
            </div>
            <div className="field-control">
              <textarea id="set-instructions" rows={4} maxLength={MAX_INSTRUCTIONS_CHARS} data-testid="default-instructions"
                value={instructionsDraft ?? settings.defaultSystemPrompt} placeholder="None"
                onChange={(e) => setInstructionsDraft(e.target.value)}
                onBlur={() => {
                  if (instructionsDraft === null) return;
                  void save({ defaultSystemPrompt: instructionsDraft }).then((ok) => ok && setInstructionsDraft(null));
                }} />
            </div>
          </div>
        </Group>

        <Group title="Agent">
          <Field label="Steering messages" htmlFor="set-steering" hint="Sent while the agent works, delivered before its next step.">
            <select id="set-steering" value={settings.steeringMode}
              onChange={(e) => void save({ steeringMode: e.target.value as Settings["steeringMode"] })}>
              <option value="one-at-a-time">One at a time</option>
              <option value="all">All at once</option>
            </select>
          </Field>
          <Field label="Follow-up messages" htmlFor="set-followup" hint="Queued for when the agent would otherwise stop.">
            <select id="set-followup" value={settings.followUpMode}
              onChange={(e) => void save({ followUpMode: e.target.value as Settings["followUpMode"] })}>
              <option value="one-at-a-time">One at a time</option>
              <option value="all">All at once</option>
            </select>
          </Field>
          <Field label="Tool execution" htmlFor="set-tools">
            <select id="set-tools" value={settings.toolExecution}
              onChange={(e) => void save({ toolExecution: e.target.value as Settings["toolExecution"] })}>
              <option value="parallel">Parallel</option>
              <option value="sequential">Sequential</option>
            </select>
          </Field>
        </Group>

        <Group title="Stopping and timeouts">
          <Field label="Esc while the agent runs" htmlFor="set-esc">
            <select id="set-esc" value={settings.abort.escAction}
              onChange={(e) => void save({ abort: { escAction: e.target.value as Settings["abort"]["escAction"] } })}>
              <option value="abort">Stop the agent</option>
              <option value="abort-and-clear-queues">Stop and clear queued messages</option>
              <option value="nothing">Do nothing</option>
            </select>
          </Field>
          <Check label="Stop also clears queued messages" checked={settings.abort.clearQueuesOnAbort}
            onChange={(v) => void save({ abort: { clearQueuesOnAbort: v } })} />
          <Check label="Ask before quitting while agents are working" checked={settings.abort.confirmCloseWhileRunning}
            onChange={(v) => void save({ abort: { confirmCloseWhileRunning: v } })} />
          <Field label="Request timeout (seconds)" htmlFor="set-timeout" hint={`How long the provider may stay silent, before it answers or mid-reply. At least ${MIN_REQUEST_TIMEOUT_MS / 1000} seconds.`}>
            <input id="set-timeout" type="number" min={MIN_REQUEST_TIMEOUT_MS / 1000} step={1} value={timeoutSeconds}
              onChange={(e) => setTimeoutDraft(e.target.value)}
              onBlur={() => {
                const seconds = Number(timeoutDraft);
                if (timeoutDraft === null) return;
                if (!Number.isFinite(seconds) || seconds * 1000 < MIN_REQUEST_TIMEOUT_MS) {
                  setError(`The request timeout must be at least ${MIN_REQUEST_TIMEOUT_MS / 1000} seconds.`);
                  return;
                }
                void save({ abort: { requestTimeoutMs: Math.round(seconds * 1000) } }).then((ok) => ok && setTimeoutDraft(null));
              }} />
          </Field>
        </Group>

        <Group title="Background" description="A chat's agent keeps working when you switch chats or close its window.">
          <Check label="Notify me when a chat I am not looking at finishes, fails or needs me" checked={settings.background.notifications}
            onChange={(v) => void save({ background: { notifications: v } })} />
          {settings.background.notifications ? <BrowserNotificationPermission /> : null}
          <Field label="Stop an idle chat's agent process after (minutes)" htmlFor="set-idle"
            hint="Once no window shows the chat and its agent has nothing to do. Opening the chat again starts it in a moment.">
            <input id="set-idle" type="number" min={0} max={1440} step={1} value={idleDraft ?? String(settings.background.idleStopMinutes)}
              onChange={(e) => setIdleDraft(e.target.value)}
              onBlur={() => {
                if (idleDraft === null) return;
                const minutes = Number(idleDraft);
                if (!Number.isInteger(minutes) || minutes < 0 || minutes > 1440) {
                  setError("The idle time must be a whole number of minutes from 0 to 1440.");
                  return;
                }
                void save({ background: { idleStopMinutes: minutes } }).then((ok) => ok && setIdleDraft(null));
              }} />
          </Field>
        </Group>

        <Group title="Tools" description="What an agent may do in its chat's workspace folder without asking you first. Anything else waits for your answer in the chat.">
          {WORKSPACE_TOOLS.map(([tool, what]) => (
            <Field key={tool} label={tool} htmlFor={`set-tool-${tool}`} hint={what}>
              <select id={`set-tool-${tool}`} value={settings.tools.approval[tool] ?? "ask"} data-testid={`tool-policy-${tool}`}
                onChange={(e) => void save({ tools: { approval: { [tool]: e.target.value as ToolPolicy } } })}>
                <option value="allow">Runs without asking</option>
                <option value="ask">Asks first</option>
              </select>
            </Field>
          ))}
          <Field label="Unanswered questions are denied after (minutes)" htmlFor="set-approval-timeout"
            hint="Only while no window shows the chat: the agent is told nobody answered.">
            <input id="set-approval-timeout" type="number" min={1} max={1440} step={1}
              value={approvalDraft ?? String(settings.tools.approvalTimeoutMinutes)}
              onChange={(e) => setApprovalDraft(e.target.value)}
              onBlur={() => {
                if (approvalDraft === null) return;
                const minutes = Number(approvalDraft);
                if (!Number.isInteger(minutes) || minutes < 1 || minutes > 1440) {
                  setError("The time to answer must be a whole number of minutes from 1 to 1440.");
                  return;
                }
                void save({ tools: { approvalTimeoutMinutes: minutes } }).then((ok) => ok && setApprovalDraft(null));
              }} />
          </Field>
          <Field label="Hosts shell commands may reach" htmlFor="set-domains"
            hint="One per line (*.example.com for its subdomains). Commands run in a sandbox with no other network access.">
            <textarea id="set-domains" rows={3} value={domainsDraft ?? settings.tools.allowedDomains.join("\n")}
              placeholder="registry.npmjs.org" spellCheck={false} data-testid="allowed-domains"
              onChange={(e) => setDomainsDraft(e.target.value)}
              onBlur={() => {
                if (domainsDraft === null) return;
                const domains = domainsDraft.split(/\s+/).map((d) => d.trim()).filter(Boolean);
                void save({ tools: { allowedDomains: domains } }).then((ok) => ok && setDomainsDraft(null));
              }} />
          </Field>
        </Group>

        <Group title="Subagents" description="Agents a chat's agent can hand tasks to (the subagent tool, in chats with a workspace). Each runs in a process of its own, under the same approval rules.">
          <Field label="Subagents running at once, across all chats" htmlFor="set-max-subagents"
            hint="Each chat runs at most 4 at once; more wait their turn.">
            <input id="set-max-subagents" type="number" min={1} max={32} step={1} data-testid="max-subagents"
              value={subagentsDraft ?? String(settings.tools.maxSubagents)}
              onChange={(e) => setSubagentsDraft(e.target.value)}
              onBlur={() => {
                if (subagentsDraft === null) return;
                const count = Number(subagentsDraft);
                if (!Number.isInteger(count) || count < 1 || count > 32) {
                  setError("Subagents at once must be a whole number from 1 to 32.");
                  return;
                }
                void save({ tools: { maxSubagents: count } }).then((ok) => ok && setSubagentsDraft(null));
              }} />
          </Field>
          <AgentsList />
        </Group>

        <Group title="API keys" description="Keys are stored encrypted by Paddock and never shown again. Keys from environment variables are used when none is set here.">
          {providerStatus.filter((p) => customProviderId(p.provider) === undefined).map((p) => (
            <ApiKeyRow key={p.provider} status={p} onChanged={onProvidersChanged} onError={setError} />
          ))}
        </Group>

        <Group title="Custom endpoints" description="OpenAI-compatible servers such as Ollama, LM Studio or vLLM.">
          <CustomProvidersEditor
            providers={settings.customProviders}
            providerStatus={providerStatus}
            onSave={async (list: CustomProvider[]) => {
              const ok = await save({ customProviders: list });
              if (ok) onProvidersChanged();
              return ok;
            }}
            onKeyChanged={onProvidersChanged}
            onError={setError}
          />
        </Group>

        <Group title="First-run setup">
          <Check label="Setup finished (uncheck to see the welcome setup again)" checked={settings.onboarded}
            onChange={(v) => void save({ onboarded: v })} />
        </Group>
      </div>
    </section>
  );
}

/** The workspace tools, as Settings list them: name and what it does. */
const WORKSPACE_TOOLS: [string, string][] = [
  ["read", "Reads a file."],
  ["ls", "Lists a folder."],
  ["find", "Finds files by name."],
  ["grep", "Searches file contents."],
  ["write", "Creates or overwrites a file."],
  ["edit", "Changes part of a file."],
  ["bash", "Runs a shell command (in a sandbox where the system has one; elsewhere it always asks)."],
];

/**
 * Where the page shows notifications itself (the browser host), the browser must allow them first; it asks only
 * after a click. Nothing to show in the desktop app, or once decided.
 */
function BrowserNotificationPermission() {
  const { notifications } = useServices();
  const [permission, setPermission] = useState(() => notifications?.permission());
  if (!notifications || permission === "granted") return null;
  if (permission === "denied" || permission === "unsupported") {
    return <p className="muted field-note" data-testid="notification-permission">This browser does not allow notifications from this page: they show inside Paddock instead.</p>;
  }
  return (
    <div className="field-note" data-testid="notification-permission">
      <button type="button" className="btn btn-secondary" onClick={() => void notifications.requestPermission().then(setPermission)}>
        Allow browser notifications
      </button>
      <span className="muted"> Otherwise they show inside Paddock.</span>
    </div>
  );
}

function Group({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <section className="settings-group">
      <h2>{title}</h2>
      {description ? <p className="muted group-description">{description}</p> : null}
      <div className="settings-card">{children}</div>
    </section>
  );
}

function Field({ label, htmlFor, hint, children }: { label: string; htmlFor: string; hint?: string; children: ReactNode }) {
  return (
    <div className="field">
      <div className="field-label">
        <label htmlFor={htmlFor}>{label}</label>
        {hint ? <div className="field-hint">{hint}</div> : null}
      </div>
      <div className="field-control">{children}</div>
    </div>
  );
}

function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange(v: boolean): void }) {
  return (
    <label className="field check">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>{label}</span>
    </label>
  );
}
