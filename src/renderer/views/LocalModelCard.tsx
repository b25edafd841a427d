import { useState } from "react";
import type { ModelRef } from "../../shared/protocol/app-api";
import type { Settings } from "../../shared/settings/schema";
import { useServices } from "../context/ServicesContext";
import { customProviderName } from "../../shared/providers/custom-provider";
import { ConnectionTestResult, useConnectionTest } from "../components/settings/ConnectionTest";
import { TextField } from "../components/settings/TextField";
import { baseUrlProblem, newDraft, toEndpoint } from "../components/settings/endpoint-draft";
import type { EndpointProbeResult } from "../../shared/protocol/endpoint-probe";

interface LocalModelCardProps {
  settings: Settings;
  /** Another card is saving: this one waits. */
  busy: boolean;
  /** Runs `work` with the setup's busy state and its error notice. */
  run(work: () => Promise<void>): Promise<void>;
  onReady(model?: ModelRef): Promise<void>;
}

/** What to call an endpoint the setup adds: by what answered, or by the well-known port of the usual servers. */
function localEndpointName(baseUrl: string, api: EndpointProbeResult["api"]): string {
  let port = "";
  try {
    port = new URL(baseUrl.trim()).port;
  } catch {
    // an address that does not parse is refused before it gets a name
  }
  if (api === "ollama" || port === "11434") return "Ollama";
  if (port === "1234") return "LM Studio";
  return "Local models";
}

/** The model to start with: the typed one when the server lists it (or listed nothing), else the server's first. */
function pickModel(result: EndpointProbeResult | undefined, typed: string): string {
  const listed = result?.ok ? result.models : [];
  return listed.length > 0 && !listed.includes(typed.trim()) ? listed[0] : typed.trim();
}

/**
 * Setup's "Use a local model": the server's address (and a key, if it wants one) is tested before the endpoint is
 * added. A server that answers offers its models to pick from; one that does not says why, and the user can fix the
 * address and test again, or add it anyway.
 */
export function LocalModelCard({ settings, busy, run, onReady }: LocalModelCardProps) {
  const { app } = useServices();
  const [baseUrl, setBaseUrl] = useState("http://127.0.0.1:11434/v1");
  const [key, setKey] = useState("");
  const [modelId, setModelId] = useState("llama3.2");
  const [urlShown, setUrlShown] = useState(false);
  const [modelShown, setModelShown] = useState(false);
  const request = { baseUrl: baseUrl.trim(), ...(key.trim() ? { apiKey: key.trim() } : {}) };
  const test = useConnectionTest(request);
  const urlProblem = baseUrlProblem(baseUrl);
  const found = test.result?.ok ? test.result.models : [];
  const model = pickModel(test.result, modelId);
  const modelProblem = model === "" ? "Enter the id of a model the server runs, like llama3.2." : undefined;

  /** Adds the endpoint with the models the server listed (or the one typed) and starts with `chosen`. */
  const add = (result: EndpointProbeResult | undefined, chosen: string) => run(async () => {
    const taken = settings.customProviders.map((p) => p.id);
    // A server found under /v1 of the address typed (LM Studio's "http://127.0.0.1:1234") is saved at that address.
    const address = result?.ok && result.suggestedBaseUrl ? result.suggestedBaseUrl : baseUrl;
    const draft = newDraft(localEndpointName(address, result?.api), address, taken);
    const models = result?.ok && result.models.length > 0 ? result.models : [chosen];
    const checked = toEndpoint({ ...draft, models: models.join(", "), key }, taken);
    if (!checked.ok) throw new Error(Object.values(checked.problems).join(" "));
    await app.updateSettings({ customProviders: [...settings.customProviders, checked.endpoint] });
    const endpoint = customProviderName(checked.endpoint.id);
    if (key.trim()) await app.setApiKey(endpoint, key.trim());
    await onReady({ provider: endpoint, id: chosen });
  });

  const testAndAdd = async () => {
    setUrlShown(true);
    setModelShown(true);
    if (urlProblem) return;
    const known = test.result;
    const result = known ?? (await test.test(request));
    // A failed test stays on screen with its reason and the choice to add the endpoint anyway.
    if (!result.ok) return;
    // The server does not have the model typed: its own list is now on screen to pick from first.
    if (!known && result.models.length > 0 && !result.models.includes(modelId.trim())) return;
    const chosen = pickModel(result, modelId);
    if (chosen !== "") await add(result, chosen);
  };

  const failed = test.result !== undefined && !test.result.ok && !test.testing;
  return (
    <form className="setup-card" data-testid="setup-local" onSubmit={(e) => {
      e.preventDefault();
      void testAndAdd();
    }}>
      <h2>Use a local model</h2>
      <p className="muted">
        Any OpenAI-compatible server: Ollama, LM Studio, vLLM. Run <code>ollama pull llama3.2</code> first. Paddock tests the
        connection before adding it.
      </p>
      <TextField label="Base URL" value={baseUrl} spellCheck={false} inputMode="url" testId="setup-base-url"
        error={urlShown ? urlProblem : undefined} onBlur={() => setUrlShown(true)} onChange={setBaseUrl} />
      <TextField label="API key (if the server needs one)" type="password" autoComplete="off" value={key} testId="setup-endpoint-key"
        onChange={setKey} />
      {found.length > 0 ? (
        <label>Model
          <select value={model} onChange={(e) => setModelId(e.target.value)} data-testid="setup-model">
            {found.map((id) => <option key={id} value={id}>{id}</option>)}
          </select>
        </label>
      ) : (
        <TextField label="Model id" value={modelId} spellCheck={false} testId="setup-model" error={modelShown ? modelProblem : undefined}
          onBlur={() => setModelShown(true)} onChange={setModelId} />
      )}
      <div className="setup-test">
        <button type="button" className="btn btn-secondary" data-testid="setup-test" disabled={busy || test.testing}
          onClick={() => {
            setUrlShown(true);
            if (!urlProblem) void test.test(request);
          }}>Test connection</button>
        <ConnectionTestResult test={test} />
      </div>
      {failed ? (
        <div className="setup-anyway" data-testid="setup-anyway">
          <p>Fix the address (or start the server) and test again, or add the endpoint anyway: chats will say the server cannot be reached until it answers.</p>
          <button type="button" className="btn btn-secondary" disabled={busy || !!urlProblem || !!modelProblem} onClick={() => {
            setModelShown(true);
            if (!urlProblem && !modelProblem) void add(undefined, modelId.trim());
          }}>Add anyway and start</button>
        </div>
      ) : null}
      <button type="submit" className="btn btn-primary" disabled={busy || test.testing}>
        Add endpoint and start
      </button>
    </form>
  );
}
