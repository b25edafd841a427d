import { useEffect, useRef, useState } from "react";
import type { ProviderStatus } from "../../../shared/protocol/app-api";
import type { CustomProvider } from "../../../shared/settings/schema";
import { useServices } from "../../context/ServicesContext";
import { customProviderName, DEFAULT_CONTEXT_WINDOW, DEFAULT_MAX_TOKENS } from "../../../shared/providers/custom-provider";
import { errorText } from "../../../shared/error-text";
import { KeyStatus } from "./ApiKeyRow";
import { TextField } from "./TextField";
import { EndpointModels } from "./EndpointModels";
import {
  deriveEndpointId, endpointProblems, FIELD_LABELS, newDraft, saveErrorText, toDraft, toEndpoint,
  type EndpointDraft, type EndpointField, type FieldProblems,
} from "./endpoint-draft";
import { useUnsavedPart } from "./unsaved-changes";

interface CustomProvidersEditorProps {
  providers: readonly CustomProvider[];
  providerStatus: readonly ProviderStatus[];
  /** Saves the whole list; rejects with main's Error when main refused it (the editor then keeps the draft). */
  onSave(list: CustomProvider[]): Promise<void>;
  onKeyChanged(): void;
  onError(message: string): void;
}

/** One endpoint being edited: `uid` keeps React's rows and `touched` with it when others are removed. */
interface Row {
  uid: number;
  draft: EndpointDraft;
  /** Fields the user has typed in or left: their problems show from then on (all of them after a Save). */
  touched: ReadonlySet<EndpointField>;
}

let nextUid = 1;
const toRow = (draft: EndpointDraft): Row => ({ uid: nextUid++, draft, touched: new Set() });

/** The ids of the other rows: an id must differ from all of them. */
const otherIds = (rows: readonly Row[], i: number) => rows.filter((_, j) => j !== i).map((r) => r.draft.id.trim());

/**
 * Edits the list of OpenAI-compatible endpoints as drafts. Each field says what is wrong with it as it is typed;
 * a new endpoint's id follows its name until typed; "Test connection" asks main for the server's models, which can
 * be picked into the list. Save sends the whole list (and any new keys, which main binds to the endpoint's address
 * as saved) only when every field is valid, and says next to the button why it did not save, naming the field.
 * Each saved endpoint shows its key's status, from main: saved for its address, not set, or saved for an address it
 * has left; a saved key can be removed at once.
 */
export function CustomProvidersEditor({ providers, providerStatus, onSave, onKeyChanged, onError }: CustomProvidersEditorProps) {
  const { app } = useServices();
  const [rows, setRows] = useState<Row[]>(() => providers.map((p) => toRow(toDraft(p))));
  const [dirty, setDirty] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [savedNote, setSavedNote] = useState(false);
  const [focusInvalid, setFocusInvalid] = useState(0);
  const [focusNew, setFocusNew] = useState<number | null>(null);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!dirty) setRows(providers.map((p) => toRow(toDraft(p))));
  }, [providers, dirty]);

  // After a refused Save: the first field with a problem gets focus, so the keyboard lands where the fix is.
  useEffect(() => {
    if (focusInvalid > 0) root.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusInvalid]);
  useEffect(() => {
    if (focusNew !== null) root.current?.querySelector<HTMLElement>(`[data-uid="${focusNew}"] input`)?.focus();
  }, [focusNew]);

  const edit = (uid: number, patch: Partial<EndpointDraft>, field?: EndpointField) => {
    setDirty(true);
    setSavedNote(false);
    // The reason Save gave is about the list as it was; the fields keep saying what is still wrong.
    setSaveError(null);
    setRows((list) => list.map((row, i) => {
      if (row.uid !== uid) return row;
      const draft = { ...row.draft, ...patch };
      // A new endpoint's id follows its name until the user types one (a saved endpoint's id never changes).
      if (draft.savedId === undefined && !draft.idEdited && patch.name !== undefined) draft.id = deriveEndpointId(draft.name, otherIds(list, i));
      return { ...row, draft, touched: field ? new Set([...row.touched, field]) : row.touched };
    }));
  };
  const touch = (uid: number, field: EndpointField) =>
    setRows((list) => list.map((row) => (row.uid === uid && !row.touched.has(field) ? { ...row, touched: new Set([...row.touched, field]) } : row)));

  /** Saves the list; false when it was not saved (the reason is shown next to the button). */
  const save = async (): Promise<boolean> => {
    setSubmitted(true);
    setSavedNote(false);
    const results = rows.map((row, i) => toEndpoint(row.draft, otherIds(rows, i)));
    const wrong = results.flatMap((r, i) => (r.ok ? [] : Object.keys(r.problems).map((f) => `${rows[i].draft.name.trim() || `Endpoint ${i + 1}`}: ${FIELD_LABELS[f as EndpointField]}`)));
    if (wrong.length > 0) {
      setSaveError(`Not saved: fix ${wrong.length === 1 ? "this field" : `these ${wrong.length} fields`} first (${wrong.join("; ")}).`);
      setFocusInvalid((n) => n + 1);
      return false;
    }
    const list = results.flatMap((r) => (r.ok ? [r.endpoint] : []));
    setSaving(true);
    setSaveError(null);
    try {
      await onSave(list);
    } catch (e) {
      setSaveError(saveErrorText(errorText(e), rows.map((r) => r.draft.name)));
      setSaving(false);
      return false;
    }
    try {
      for (const { draft } of rows) if (draft.key.trim()) await app.setApiKey(customProviderName(draft.id.trim()), draft.key.trim());
      if (rows.some(({ draft }) => draft.key.trim())) onKeyChanged();
    } catch (e) {
      setSaveError(`The endpoints were saved, but a key was not: ${errorText(e)}`);
      setSaving(false);
      return false;
    }
    setSaving(false);
    setSubmitted(false);
    setDirty(false);
    setSavedNote(true);
    return true;
  };
  // Leaving Settings with endpoint edits not saved asks first (SettingsView).
  useUnsavedPart("endpoints", {
    label: "Endpoints",
    // A save under way finishes on its own (and says so if it fails): leaving then asks nothing.
    dirty: () => dirty && !saving,
    save,
    show: () => root.current?.querySelector<HTMLElement>("[data-testid=endpoints-save]")?.scrollIntoView({ block: "center" }),
  });

  const add = () => {
    const taken = rows.map((r) => r.draft.id.trim());
    // Most local setups run Ollama at its usual address: the first new endpoint starts as that, others blank.
    const row = toRow(taken.includes("ollama") ? newDraft("", "", taken) : newDraft("Ollama", "http://127.0.0.1:11434/v1", taken));
    setDirty(true);
    setSavedNote(false);
    setRows((list) => [...list, row]);
    setFocusNew(row.uid);
  };

  const removeKey = async (id: string) => {
    try {
      await app.setApiKey(customProviderName(id), null);
      onKeyChanged();
    } catch (e) {
      onError(errorText(e));
    }
  };

  return (
    <div className="custom-providers" data-testid="custom-providers" ref={root}>
      {rows.length === 0 ? <p className="muted">No custom endpoints.</p> : null}
      {rows.map((row, i) => {
        const { draft: d, uid } = row;
        const problems: FieldProblems = endpointProblems(d, otherIds(rows, i));
        const shown = (field: EndpointField) => (submitted || row.touched.has(field) ? problems[field] : undefined);
        const field = (name: EndpointField) => ({
          error: shown(name),
          onBlur: () => touch(uid, name),
        });
        // Main's word on the saved endpoint with this id; a draft not saved yet has none.
        const saved = d.savedId !== undefined && providers.some((p) => p.id === d.savedId);
        const status = saved ? providerStatus.find((p) => p.provider === customProviderName(d.savedId!)) : undefined;
        const keyStored = status !== undefined && (status.keySource === "settings" || status.keySavedFor !== undefined);
        return (
          <fieldset key={uid} data-uid={uid} className="custom-provider" data-testid="custom-provider">
            <legend>{d.name.trim() || (d.savedId ?? "New endpoint")}</legend>
            <div className="grid-2">
              <TextField label="Name" value={d.name} placeholder="LM Studio" testId="endpoint-name" {...field("name")}
                onChange={(name) => edit(uid, { name }, "name")} />
              <TextField label="Id" value={d.id} spellCheck={false} testId="endpoint-id" readOnly={d.savedId !== undefined}
                hint={d.savedId !== undefined ? "A saved endpoint keeps its id: chats and its key refer to it." : d.idEdited ? undefined : "Follows the name; type to choose another."}
                {...field("id")} onChange={(id) => edit(uid, { id, idEdited: true }, "id")} />
              <TextField className="span-2" label="Base URL" value={d.baseUrl} spellCheck={false} inputMode="url" testId="endpoint-base-url"
                placeholder="http://127.0.0.1:1234/v1" {...field("baseUrl")} onChange={(baseUrl) => edit(uid, { baseUrl }, "baseUrl")} />
              <EndpointModels draft={d} urlProblem={problems.baseUrl}
                onModels={(models) => edit(uid, { models })} onBaseUrl={(baseUrl) => edit(uid, { baseUrl }, "baseUrl")}
                onUrlTouched={() => touch(uid, "baseUrl")} />
              <TextField className="span-2" label="Model ids (comma separated)" value={d.models} placeholder="llama3.2, qwen2.5-coder" spellCheck={false}
                testId="endpoint-models" hint={d.models.trim() === "" ? "No models yet: Test connection lists the server's, or type their ids." : undefined}
                {...field("models")} onChange={(models) => edit(uid, { models }, "models")} />
              <TextField label="API key (optional)" type="password" autoComplete="off" value={d.key} testId="endpoint-key-input"
                placeholder={keyStored ? "Replace the saved key" : "Paste API key"} {...field("key")} onChange={(key) => edit(uid, { key }, "key")} />
              <TextField label="Context window (tokens)" type="number" min={1} step={1} value={d.contextWindow} testId="endpoint-context-window"
                placeholder={`${DEFAULT_CONTEXT_WINDOW} (default)`} {...field("contextWindow")} onChange={(contextWindow) => edit(uid, { contextWindow }, "contextWindow")} />
              <TextField label="Max output tokens" type="number" min={1} step={1} value={d.maxTokens} testId="endpoint-max-tokens"
                placeholder={`${DEFAULT_MAX_TOKENS} (default)`} {...field("maxTokens")} onChange={(maxTokens) => edit(uid, { maxTokens }, "maxTokens")} />
              <label className="check inline-check"><input type="checkbox" checked={d.reasoning}
                onChange={(e) => edit(uid, { reasoning: e.target.checked })} /> Reasoning models</label>
              <label className="check inline-check"><input type="checkbox" checked={d.images} data-testid="endpoint-images"
                onChange={(e) => edit(uid, { images: e.target.checked })} /> Models read images</label>
            </div>
            {status ? (
              <div className="endpoint-key">
                <KeyStatus status={status} />
                {keyStored ? (
                  <button type="button" className="btn btn-ghost" data-testid="endpoint-key-remove" onClick={() => void removeKey(d.savedId!)}>Remove key</button>
                ) : null}
              </div>
            ) : null}
            <button type="button" className="btn btn-ghost danger" onClick={() => {
              setDirty(true);
              setSavedNote(false);
              setSaveError(null);
              setRows((list) => list.filter((r) => r.uid !== uid));
            }}>Remove endpoint</button>
          </fieldset>
        );
      })}
      <div className="row-actions endpoint-save-row">
        {saveError ? <p className="save-error" role="alert" data-testid="endpoints-save-error">{saveError}</p> : null}
        {savedNote && !saveError ? <p className="save-done" role="status" data-testid="endpoints-saved">Endpoints saved.</p> : null}
        <button type="button" className="btn btn-secondary" onClick={add}>Add endpoint</button>
        <button type="button" className="btn btn-primary" onClick={() => void save()} disabled={!dirty || saving} data-testid="endpoints-save">
          {saving ? "Saving…" : "Save endpoints"}
        </button>
      </div>
    </div>
  );
}
