import type { EndpointProbeRequest } from "../../../shared/protocol/endpoint-probe";
import { ConnectionTestResult, useConnectionTest } from "./ConnectionTest";
import { modelIds, type EndpointDraft } from "./endpoint-draft";

interface EndpointModelsProps {
  draft: EndpointDraft;
  /** The base URL's problem, if any: then there is nothing to test, and the field says why. */
  urlProblem: string | undefined;
  /** The model ids field's new text. */
  onModels(text: string): void;
  /** Use the base URL the server answered at (the typed one lacked `/v1`). */
  onBaseUrl(url: string): void;
  /** Test was pressed with an unusable address: the field shows its problem. */
  onUrlTouched(): void;
}

/** The probe request for `draft`: a typed key goes along; a saved endpoint lets main use its saved key (if for this address). */
export function probeRequest(draft: EndpointDraft): EndpointProbeRequest {
  const key = draft.key.trim();
  return { baseUrl: draft.baseUrl.trim(), ...(key ? { apiKey: key } : {}), ...(draft.savedId !== undefined ? { endpointId: draft.savedId } : {}) };
}

/**
 * "Test connection" for one endpoint in Settings, and the models the server listed, each a checkbox that puts the
 * id in (or takes it out of) the endpoint's model list.
 */
export function EndpointModels({ draft, urlProblem, onModels, onBaseUrl, onUrlTouched }: EndpointModelsProps) {
  const request = probeRequest(draft);
  const test = useConnectionTest(request);
  const chosen = modelIds(draft.models);
  const found = test.result?.ok ? test.result.models : [];
  const setChosen = (ids: string[]) => onModels([...new Set(ids)].join(", "));

  return (
    <div className="span-2 endpoint-test">
      <div className="endpoint-test-row">
        <button type="button" className="btn btn-secondary" data-testid="endpoint-test" disabled={test.testing}
          onClick={() => (urlProblem ? onUrlTouched() : void test.test(request))}>
          Test connection
        </button>
        <ConnectionTestResult test={test} />
      </div>
      {test.result?.suggestedBaseUrl ? (
        <button type="button" className="btn btn-ghost" data-testid="endpoint-use-suggested" onClick={() => onBaseUrl(test.result!.suggestedBaseUrl!)}>
          Use {test.result.suggestedBaseUrl}
        </button>
      ) : null}
      {found.length > 0 ? (
        <fieldset className="probe-models" data-testid="probe-models">
          <legend>Models on the server: tick those to offer in Paddock</legend>
          <div className="probe-model-list">
            {found.map((id) => (
              <label key={id} className="check inline-check">
                <input type="checkbox" checked={chosen.includes(id)}
                  onChange={(e) => setChosen(e.target.checked ? [...chosen, id] : chosen.filter((m) => m !== id))} />
                <span dir="auto">{id}</span>
              </label>
            ))}
          </div>
          {found.some((id) => !chosen.includes(id)) ? (
            <button type="button" className="btn btn-ghost" data-testid="probe-add-all" onClick={() => setChosen([...chosen, ...found])}>
              Add all {found.length}
            </button>
          ) : null}
        </fieldset>
      ) : null}
    </div>
  );
}
