import { useState } from "react";
import type { Settings } from "../../../../shared/settings/schema";
import { MAX_RETRY_ATTEMPTS, MAX_RETRY_WAIT_SECONDS, MIN_REQUEST_TIMEOUT_MS } from "../../../../shared/settings/limits";
import { MAX_INSTRUCTIONS_CHARS } from "../../../../shared/protocol/chat-options";
import { useServices } from "../../../context/ServicesContext";
import { Check, Field, Group, NumberField } from "../fields";
import type { SettingsSectionProps } from "./section-props";
import { LogsFolder } from "../LogsFolder";

/** "Chats & runs": default instructions, queued messages, stopping and timeouts, chats working in the background, logs. */
export function ChatsSection({ settings, save, onError }: SettingsSectionProps) {
  const [instructionsDraft, setInstructionsDraft] = useState<string | null>(null);
  return (
    <>
      <Group>
        <div className="field field-wide">
          <div className="field-label">
            <label htmlFor="set-instructions">Default instructions</label>
            <div className="field-hint">
              The system prompt of every chat without instructions of its own (a chat's settings, in its header, can
              give it others). In a chat with a workspace they are added to Paddock's instructions for working there, which keep
              the agent's tools and the rule to stay in the folder.
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

      <Group title="Messages sent while the agent works">
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
        <NumberField id="set-timeout" label="Request timeout (seconds)" min={MIN_REQUEST_TIMEOUT_MS / 1000}
          hint={`How long the provider may stay silent, before it answers or mid-reply. At least ${MIN_REQUEST_TIMEOUT_MS / 1000} seconds.`}
          value={Math.round(settings.abort.requestTimeoutMs / 1000)} onError={onError}
          check={(seconds) => (Number.isFinite(seconds) && seconds * 1000 >= MIN_REQUEST_TIMEOUT_MS ? null
            : `The request timeout must be at least ${MIN_REQUEST_TIMEOUT_MS / 1000} seconds.`)}
          commit={(seconds) => save({ abort: { requestTimeoutMs: Math.round(seconds * 1000) } })} />
        <NumberField id="set-retries" label="Retries after a rate limit or server error" min={0} max={MAX_RETRY_ATTEMPTS}
          hint="Also after a dropped connection. Each retry waits what the provider asks (Retry-After), else 2, 4, 8… seconds; the chat counts down and Stop ends it. 0: the error shows at once."
          value={settings.abort.retryAttempts} onError={onError}
          invalid={`The number of retries must be a whole number from 0 to ${MAX_RETRY_ATTEMPTS}.`}
          commit={(attempts) => save({ abort: { retryAttempts: attempts } })} />
        <NumberField id="set-retry-wait" label="Longest wait before a retry (seconds)" min={1} max={MAX_RETRY_WAIT_SECONDS}
          hint="A provider that asks to wait longer gets no retry: the error says how long it asked for."
          value={settings.abort.retryMaxWaitSeconds} onError={onError}
          invalid={`The longest wait must be a whole number of seconds from 1 to ${MAX_RETRY_WAIT_SECONDS}.`}
          commit={(seconds) => save({ abort: { retryMaxWaitSeconds: seconds } })} />
      </Group>

      <Group title="Background" description="A chat's agent keeps working when you switch chats or close its window.">
        <Check label="Notify me when a chat I am not looking at finishes, fails or needs me" checked={settings.background.notifications}
          onChange={(v) => void save({ background: { notifications: v } })} />
        {settings.background.notifications ? <BrowserNotificationPermission /> : null}
        <NumberField id="set-idle" label="Stop an idle chat's agent process after (minutes)" min={0} max={1440}
          hint="Once no window shows the chat and its agent has nothing to do. Opening the chat again starts it in a moment."
          value={settings.background.idleStopMinutes} onError={onError}
          invalid="The idle time must be a whole number of minutes from 0 to 1440."
          commit={(minutes) => save({ background: { idleStopMinutes: minutes } })} />
        <Check label="Keep the desktop app running in the tray (menu bar) while schedules exist and no window is open" checked={settings.background.stayInTray}
          onChange={(v) => void save({ background: { stayInTray: v } })} />
      </Group>

      <Group title="Troubleshooting">
        <LogsFolder />
      </Group>
    </>
  );
}

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
