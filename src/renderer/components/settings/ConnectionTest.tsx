import { useCallback, useRef, useState } from "react";
import type { EndpointProbeRequest, EndpointProbeResult } from "../../../shared/protocol/endpoint-probe";
import { useServices } from "../../context/ServicesContext";
import { errorText } from "../../../shared/error-text";

export interface ConnectionTest {
  /** The last answer, while it is about the address and key now typed (an edit makes it stale, and it is hidden). */
  result: EndpointProbeResult | undefined;
  testing: boolean;
  /** Asks main to probe; resolves with the answer (also kept as `result`). Never rejects. */
  test(request: EndpointProbeRequest): Promise<EndpointProbeResult>;
}

/** What a probe's answer is about: a result for another address or key is not shown as the current one. */
const probeKey = (r: EndpointProbeRequest) => JSON.stringify([r.baseUrl.trim(), r.apiKey?.trim() ?? "", r.endpointId ?? ""]);

/**
 * "Test connection" for one endpoint form: main probes the server (AppApi.probeEndpoint); the answer holds while
 * `current` (the request the form would make now) is the one it answered. A late answer to an older request is
 * dropped.
 */
export function useConnectionTest(current: EndpointProbeRequest): ConnectionTest {
  const { app } = useServices();
  const [answer, setAnswer] = useState<{ key: string; result: EndpointProbeResult } | undefined>();
  const [testing, setTesting] = useState(false);
  const latest = useRef(0);

  const test = useCallback(async (request: EndpointProbeRequest): Promise<EndpointProbeResult> => {
    const ticket = ++latest.current;
    setTesting(true);
    let result: EndpointProbeResult;
    try {
      result = await app.probeEndpoint(request);
    } catch (e) {
      // Only a malformed request or a host that is gone get here: said in the same place as the server's answers.
      result = { ok: false, kind: "unreachable", models: [], message: `The test could not run: ${errorText(e)}` };
    }
    if (ticket === latest.current) {
      setAnswer({ key: probeKey(request), result });
      setTesting(false);
    }
    return result;
  }, [app]);

  return { result: answer?.key === probeKey(current) ? answer.result : undefined, testing, test };
}

/** The answer in words, announced politely; green when the server listed its models, red otherwise. */
export function ConnectionTestResult({ test, id }: { test: ConnectionTest; id?: string }) {
  const { result, testing } = test;
  return (
    <p id={id} className={`probe-result${result ? (result.ok ? " probe-ok" : " probe-failed") : ""}`} role="status" aria-live="polite"
      data-testid="probe-result" data-kind={testing ? "testing" : result?.kind ?? ""}>
      {testing ? "Testing the connection…" : result?.message ?? ""}
    </p>
  );
}
