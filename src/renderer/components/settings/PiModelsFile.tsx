import { useEffect, useState } from "react";
import type { PiModelsFileStatus } from "../../../shared/protocol/model-lists";
import { errorText } from "../../../shared/error-text";
import { providerDisplayName } from "../../../shared/providers/provider-names";
import { useServices } from "../../context/ServicesContext";

/**
 * pi's own `models.json`, as main read it (AppApi.piModelsFile): where it is, how many models it adds, and what in it
 * could not be used, in words. Read-only: the file is pi's, edited there. "Read again" reads it now and reloads the
 * model lists.
 */
export function PiModelsFile({ onProvidersChanged }: { onProvidersChanged(): void }) {
  const { app } = useServices();
  const [status, setStatus] = useState<PiModelsFileStatus | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const read = async (reload: boolean) => {
    try {
      setStatus(await app.piModelsFile());
      setFailure(undefined);
      if (reload) onProvidersChanged();
    } catch (e) {
      setFailure(errorText(e));
    }
  };
  useEffect(() => {
    void read(false);
    // Once, when the section shows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const summary = !status ? (failure ? `Could not ask for it: ${failure}` : "Reading…")
    : status.state === "none" ? "There is none: a pi user’s models.json there adds its models and providers here."
    : status.state === "unreadable" ? "It could not be used (below): nothing else is affected."
    : `It adds ${status.models === 0 ? "no models" : `${status.models} model${status.models === 1 ? "" : "s"}`}${moved(status.movedProviders)}${status.problems.length > 0 ? "; some parts could not be used (below)" : ""}.`;
  return (
    <div className="field pi-models-file" data-testid="pi-models-file">
      <div className="field-label">
        <span className="field-label-text">pi’s models.json</span>
        {status ? <code className="field-hint pi-models-path" dir="ltr">{status.path}</code> : null}
        <div className="field-hint" role="status" data-testid="pi-models-summary">{summary}</div>
        {status && status.problems.length > 0 ? (
          <ul className="pi-models-problems" data-testid="pi-models-problems">
            {status.problems.map((p) => <li key={p}>{p}</li>)}
          </ul>
        ) : null}
      </div>
      <div className="field-control">
        <button type="button" className="btn btn-secondary" data-testid="pi-models-reread" onClick={() => void read(true)}>Read again</button>
      </div>
    </div>
  );
}

/** ", and sends Groq's and Anthropic's requests to the addresses it gives": keys go along, so the user is told. */
function moved(providers: readonly string[]): string {
  if (providers.length === 0) return "";
  const names = providers.map((p) => `${providerDisplayName(p)}’s`);
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  return `, and sends ${list} requests (with ${providers.length === 1 ? "its key" : "their keys"}) to the address${providers.length === 1 ? "" : "es"} it gives`;
}
