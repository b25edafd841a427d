import { useEffect, useRef, useState, type FocusEvent } from "react";
import type { Settings } from "../../../../shared/settings/schema";
import {
  draftProblems,
  draftToConfig,
  hasProblems,
  looksSecret,
  secretsTargetMoved,
  serverIdFrom,
  type McpEntryDraft,
  type McpServerDraft,
} from "../../../../shared/mcp/server-fields";
import { errorText } from "../../../../shared/error-text";
import { useServices } from "../../../context/ServicesContext";

interface McpServerEditorProps {
  initial: McpServerDraft;
  /** A server not saved yet: its id is made from its name on save, and its kind can still change. */
  isNew: boolean;
  /** The other servers' names (unique) and every id in use. */
  otherNames: readonly string[];
  takenIds: readonly string[];
  onSaved(settings: Settings): void;
  onCancel(): void;
}

type FieldKey = "name" | "command" | "args" | "cwd" | "url";

/**
 * Adds or edits one server. Each field says what is wrong with it in words once it was left (or Save was tried);
 * Save is refused until nothing is. Secret values are typed here and sent once to main, which stores them encrypted:
 * a stored secret is never shown, only "set", and an empty field keeps it.
 */
export function McpServerEditor({ initial, isNew, otherNames, takenIds, onSaved, onCancel }: McpServerEditorProps) {
  const { app } = useServices();
  const [draft, setDraft] = useState(initial);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [tried, setTried] = useState(false);
  // Each refused Save: focus goes to the first field that says what is wrong.
  const [refusals, setRefusals] = useState(0);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (refusals > 0) form.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
  }, [refusals]);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // Rows whose "secret" box the user set: typing their name no longer guesses it.
  const [secretChosen, setSecretChosen] = useState<ReadonlySet<number>>(new Set());

  // Stored secrets stay with the address or program they were saved for: one moved elsewhere asks for them again.
  const moved = !isNew && secretsTargetMoved(initial, draft) && draft.entries.some((e) => e.stored);
  const shownDraft = moved ? { ...draft, entries: draft.entries.map((e) => ({ ...e, stored: false })) } : draft;
  const problems = draftProblems(shownDraft, otherNames);
  const shown = (key: string) => tried || touched.has(key);
  const touch = (key: string) => setTouched((t) => new Set(t).add(key));
  // Leaving a field for Save or Cancel marks nothing: a problem appearing above would move the button mid-click.
  const leave = (key: string) => (e: FocusEvent<HTMLElement>) => {
    if (!(e.relatedTarget instanceof HTMLElement && e.relatedTarget.closest(".mcp-editor-actions"))) touch(key);
  };
  const set = (patch: Partial<McpServerDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const setEntry = (i: number, patch: Partial<McpEntryDraft>) =>
    setDraft((d) => ({ ...d, entries: d.entries.map((e, j) => (j === i ? { ...e, ...patch } : e)) }));
  const prefix = `mcp-edit-${initial.id || "new"}`;
  const entryWord = draft.type === "stdio" ? "variable" : "header";

  const save = async () => {
    setTried(true);
    setFailure(null);
    if (hasProblems(problems)) return setRefusals((n) => n + 1);
    const { server, secrets } = draftToConfig(isNew ? { ...draft, id: serverIdFrom(draft.name, takenIds) } : draft);
    setSaving(true);
    try {
      onSaved(await app.saveMcpServer(server, secrets));
    } catch (e) {
      setFailure(errorText(e));
    } finally {
      setSaving(false);
    }
  };

  const fieldProblem = (key: FieldKey) => (shown(key) && problems[key] ? (
    <span className="mcp-problem" id={`${prefix}-${key}-problem`} role="alert">{problems[key]}</span>
  ) : null);
  const describedBy = (key: FieldKey) => (shown(key) && problems[key] ? `${prefix}-${key}-problem` : undefined);

  return (
    <form ref={form} className="mcp-editor" data-testid="mcp-editor" aria-label={isNew ? "New MCP server" : `Edit ${initial.name}`} noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}>
      {isNew ? (
        <div className="segmented" role="radiogroup" aria-label="How Paddock reaches the server">
          {([["stdio", "Runs on this computer (stdio)"], ["http", "Web address (Streamable HTTP)"]] as const).map(([type, label]) => (
            <label key={type} className={draft.type === type ? "selected" : undefined}>
              <input type="radio" name={`${prefix}-type`} checked={draft.type === type} data-testid={`mcp-type-${type}`}
                onChange={() => set({ type, entries: [] })} />
              {label}
            </label>
          ))}
        </div>
      ) : null}
      <label className="mcp-edit-field">
        <span>Name</span>
        <input value={draft.name} onChange={(e) => set({ name: e.target.value })} onBlur={leave("name")} autoFocus={isNew}
          placeholder={draft.type === "stdio" ? "GitHub" : "My server"} data-testid="mcp-name" aria-invalid={describedBy("name") ? true : undefined}
          aria-describedby={describedBy("name")} />
        {fieldProblem("name")}
      </label>
      {draft.type === "stdio" ? (
        <>
          <label className="mcp-edit-field">
            <span>Command</span>
            <input value={draft.command} spellCheck={false} placeholder="npx" data-testid="mcp-command"
              onChange={(e) => set({ command: e.target.value })} onBlur={leave("command")}
              aria-invalid={describedBy("command") ? true : undefined} aria-describedby={describedBy("command")} />
            {fieldProblem("command") ?? <span className="field-hint">The program only: a name found on PATH (npx, uvx, node) or a full path.</span>}
          </label>
          <label className="mcp-edit-field">
            <span>Arguments</span>
            <textarea value={draft.args} rows={3} spellCheck={false} placeholder={"-y\n@modelcontextprotocol/server-github"} data-testid="mcp-args"
              onChange={(e) => set({ args: e.target.value })} onBlur={leave("args")}
              aria-invalid={describedBy("args") ? true : undefined} aria-describedby={describedBy("args")} />
            {fieldProblem("args") ?? <span className="field-hint">One per line, exactly as the program should get it (no quotes needed).</span>}
          </label>
          <label className="mcp-edit-field">
            <span>Working folder (optional)</span>
            <input value={draft.cwd} spellCheck={false} placeholder="Paddock's own" data-testid="mcp-cwd"
              onChange={(e) => set({ cwd: e.target.value })} onBlur={leave("cwd")}
              aria-invalid={describedBy("cwd") ? true : undefined} aria-describedby={describedBy("cwd")} />
            {fieldProblem("cwd")}
          </label>
        </>
      ) : (
        <label className="mcp-edit-field">
          <span>Address</span>
          <input value={draft.url} spellCheck={false} placeholder="https://example.com/mcp" data-testid="mcp-url" type="url"
            onChange={(e) => set({ url: e.target.value })} onBlur={leave("url")}
            aria-invalid={describedBy("url") ? true : undefined} aria-describedby={describedBy("url")} />
          {fieldProblem("url") ?? <span className="field-hint">The server's Streamable HTTP endpoint (the older SSE transport is not supported).</span>}
        </label>
      )}
      <fieldset className="mcp-entries">
        <legend>{draft.type === "stdio" ? "Environment variables" : "Headers"}</legend>
        <p className="field-hint">
          Mark a value secret to keep it out of the settings file: it is stored encrypted, like API keys, and never shown again.
        </p>
        {moved ? (
          <p className="mcp-warning" data-testid="mcp-secrets-moved">
            The secret values were saved for the {draft.type === "http" ? "earlier address" : "earlier program"}: Paddock
            sends them only there, so enter them again for this one.
          </p>
        ) : null}
        {shownDraft.entries.map((entry, i) => {
          const problem = shown(`entry-${i}`) ? problems.entries?.[i] : undefined;
          const onValue = problem !== undefined && (problems.entryValues ?? []).includes(i);
          return (
            <div key={i} className="mcp-entry" data-testid="mcp-entry">
              <input className="mcp-entry-name" value={entry.name} spellCheck={false} aria-label={`${entryWord} ${i + 1} name`}
                placeholder={draft.type === "stdio" ? "NAME" : "Header-Name"} data-testid="mcp-entry-name"
                onChange={(e) => setEntry(i, { name: e.target.value, ...(secretChosen.has(i) || entry.stored ? {} : { secret: looksSecret(e.target.value) }) })}
                onBlur={leave(`entry-${i}`)} aria-invalid={problem && !onValue ? true : undefined} />
              <input className="mcp-entry-value" value={entry.value} spellCheck={false} autoComplete="off" type={entry.secret ? "password" : "text"}
                aria-label={`${entryWord} ${i + 1} value`} data-testid="mcp-entry-value"
                placeholder={entry.secret ? (entry.stored ? "Set · type to replace" : "Secret value") : "value"}
                onChange={(e) => setEntry(i, { value: e.target.value })} onBlur={leave(`entry-${i}`)}
                aria-invalid={onValue ? true : undefined} />
              <label className="inline-check mcp-entry-secret">
                <input type="checkbox" checked={entry.secret} data-testid="mcp-entry-secret"
                  onChange={(e) => {
                    setSecretChosen((s) => new Set(s).add(i));
                    setEntry(i, { secret: e.target.checked, ...(e.target.checked ? {} : { stored: false }) });
                  }} />
                Secret
              </label>
              {entry.secret ? <span className={`key-status${entry.stored ? " key-settings" : ""}`}>{entry.stored ? "set" : "not set"}</span> : null}
              <button type="button" className="btn btn-ghost mcp-entry-remove" aria-label={`Remove ${entryWord} ${entry.name || i + 1}`}
                onClick={() => {
                  setSecretChosen((s) => new Set([...s].filter((j) => j !== i).map((j) => (j > i ? j - 1 : j))));
                  set({ entries: draft.entries.filter((_, j) => j !== i) });
                }}>×</button>
              {problem ? <span className="mcp-problem mcp-entry-problem" role="alert">{problem}</span> : null}
            </div>
          );
        })}
        <button type="button" className="btn btn-ghost" data-testid="mcp-entry-add"
          onClick={() => set({ entries: [...draft.entries, { name: "", value: "", secret: false, stored: false }] })}>
          + Add {entryWord}
        </button>
      </fieldset>
      <label className="inline-check mcp-trust">
        <input type="checkbox" checked={draft.trusted} onChange={(e) => set({ trusted: e.target.checked })} data-testid="mcp-trusted" />
        <span>
          Trusted
          <span className="field-hint"> · tools this server marks read-only run without asking. Every other tool still asks first. Trust only servers you know.</span>
        </span>
      </label>
      <label className="inline-check">
        <input type="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} data-testid="mcp-enabled-draft" />
        <span>Enabled <span className="field-hint">· a disabled server is not started and no chat gets its tools.</span></span>
      </label>
      {failure ? <div className="notice notice-error" role="alert">{failure}</div> : null}
      {tried && hasProblems(problems) ? <p className="mcp-problem" role="status">Fix the fields marked above, then save again.</p> : null}
      <div className="row-actions mcp-editor-actions">
        <button type="button" className="btn btn-ghost" onClick={onCancel}>Cancel</button>
        <button type="submit" className="btn btn-primary" disabled={saving} data-testid="mcp-save">{isNew ? "Add server" : "Save"}</button>
      </div>
    </form>
  );
}
