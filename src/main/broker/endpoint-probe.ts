/**
 * "Test connection": asks an OpenAI-compatible server (`<base>/models`) or Ollama (`/api/tags`) which models it
 * serves, and says what happened in words. Runs in main (the page may reach no other origin; main holds the keys).
 *
 * Promises: it answers within PROBE_TIMEOUT_MS (plus the time to read a small body) and never throws; it contacts
 * only `baseUrl`'s origin, never follows a redirect, and sends a key only to that origin; it reads at most
 * MAX_BODY_CHARS of an answer. It never logs or returns a key.
 */
import { PROBE_TIMEOUT_MS, type EndpointProbeRequest, type EndpointProbeResult } from "../../shared/protocol/endpoint-probe";
import { ENDPOINT_LIMITS } from "../../shared/settings/endpoint-limits";
import { customProviderName } from "../../shared/providers/custom-provider";
import { endpointOrigin } from "./endpoint-keys";
import type { SecretStore } from "./secrets";

/** A model list larger than this is not one a person picks from; the rest is not read. */
const MAX_BODY_CHARS = 4 * 1024 * 1024;
const MAX_MODEL_ID = ENDPOINT_LIMITS.modelId;
const MAX_MODELS = ENDPOINT_LIMITS.models;

export interface ProbeOptions {
  /** Default: the global fetch. Tests pass their own. */
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** Where the key for a probe comes from: typed in the form, saved for this endpoint and address, or none. */
export type ProbeKeySource = "typed" | "saved" | "none";

/**
 * The key to probe `request.baseUrl` with: the typed one, else the one saved for `endpointId`, but only when it was
 * saved for the origin of `baseUrl` (a key saved for another address is never sent here).
 */
export function probeKey(request: EndpointProbeRequest, secrets: Pick<SecretStore, "get">): { key?: string; source: ProbeKeySource } {
  const typed = request.apiKey?.trim();
  if (typed) return { key: typed, source: "typed" };
  if (request.endpointId === undefined) return { source: "none" };
  const origin = endpointOrigin(request.baseUrl.trim());
  // A custom endpoint's key is bound: `get` answers only for the origin it was saved for (none for undefined).
  const saved = origin === undefined ? undefined : secrets.get(customProviderName(request.endpointId), origin);
  return saved ? { key: saved, source: "saved" } : { source: "none" };
}

/** A model list as the server sent it: OpenAI's `{data: [{id}]}` or Ollama's `{models: [{name}]}`. */
export function parseModelList(body: unknown): { api: "openai" | "ollama"; models: string[] } | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const { data, models } = body as { data?: unknown; models?: unknown };
  // llama.cpp sends both lists; `data` is the OpenAI one, which chat completions take ids from.
  if (Array.isArray(data)) return { api: "openai", models: ids(data, ["id"]) };
  if (Array.isArray(models)) return { api: "ollama", models: ids(models, ["name", "model"]) };
  return undefined;
}

/** The usable ids in a list of entries, in order, without duplicates, within the settings' limits. */
function ids(entries: unknown[], fields: string[]): string[] {
  const out = new Set<string>();
  for (const entry of entries) {
    if (out.size >= MAX_MODELS) break;
    const record = typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>) : {};
    const id = fields.map((f) => record[f]).find((v): v is string => typeof v === "string")?.trim();
    if (id && id.length <= MAX_MODEL_ID) out.add(id);
  }
  return [...out];
}

interface ModelListPlace {
  url: string;
  /** The base URL chats would use if the list is found here. */
  base: string;
  api: "openai" | "ollama";
}

/** The places a model list may be, in the order they are tried, each with the base URL it implies. */
export function modelListUrls(baseUrl: string): ModelListPlace[] {
  const base = baseUrl.trim().replace(/\/+$/, "");
  const urls: ModelListPlace[] = [{ url: `${base}/models`, base, api: "openai" }];
  // "http://127.0.0.1:1234" for LM Studio: its list is under /v1, and so must the endpoint's address be.
  if (!/\/v1$/.test(base)) urls.push({ url: `${base}/v1/models`, base: `${base}/v1`, api: "openai" });
  // Ollama's own list is beside its OpenAI-compatible API, which chats use: that lives under /v1.
  const root = base.replace(/\/v1$/, "");
  urls.push({ url: `${root}/api/tags`, base: `${root}/v1`, api: "ollama" });
  return urls;
}

type Attempt =
  | { type: "list"; api: "openai" | "ollama"; models: string[] }
  /** This place has no list: try the next. */
  | { type: "missing"; status: number }
  | { type: "final"; result: EndpointProbeResult };

/** Probes `request.baseUrl` with `key` (see probeKey); see the file's comment for what it promises. */
export async function probeEndpoint(baseUrl: string, key: { key?: string; source: ProbeKeySource }, options: ProbeOptions = {}): Promise<EndpointProbeResult> {
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const origin = endpointOrigin(baseUrl.trim());
  if (origin === undefined) {
    return failure("invalid-url", "Enter the server's address, starting with http:// or https:// (for example http://127.0.0.1:11434/v1).");
  }
  const where = new URL(origin).host;
  const doFetch = options.fetch ?? fetch;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  let lastStatus = 0;
  try {
    for (const place of modelListUrls(baseUrl)) {
      // Every place is a path under the typed address, so this holds; checked anyway, as the key's only gate here.
      const sameOrigin = new URL(place.url).origin === origin;
      if (!sameOrigin) continue;
      const attempt = await ask(doFetch, place.url, key, deadline.signal, where, timeoutMs);
      if (attempt.type === "final") return attempt.result;
      if (attempt.type === "missing") {
        lastStatus = attempt.status;
        continue;
      }
      const { models, api } = attempt;
      const moved = place.base !== baseUrl.trim().replace(/\/+$/, "") ? place.base : undefined;
      const count = models.length === 0 ? "it lists no models yet (load or pull one, then test again)" : `${models.length} model${models.length === 1 ? "" : "s"}`;
      const server = api === "ollama" ? "Ollama" : "the server";
      return {
        ok: true, kind: "ok", api, models,
        message: `Reached ${server} at ${where}: ${count}.${moved ? ` Its models are at ${moved}, the address to use.` : ""}`,
        ...(moved ? { suggestedBaseUrl: moved } : {}),
      };
    }
    return failure(
      "no-model-list",
      `${where} answered${lastStatus ? ` (${lastStatus})` : ""}, but not as an OpenAI-compatible server or Ollama: there is no model list at ${baseUrl.trim().replace(/\/+$/, "")}/models. Check the base URL (it usually ends in /v1).`,
    );
  } finally {
    clearTimeout(timer);
  }
}

async function ask(
  doFetch: typeof fetch,
  url: string,
  key: { key?: string; source: ProbeKeySource },
  signal: AbortSignal,
  where: string,
  timeoutMs: number,
): Promise<Attempt> {
  const timedOut = () => final(failure("timeout", `No answer from ${where} within ${seconds(timeoutMs)}. Check the address and that the server is running; a server still loading a model may need a moment.`));
  let response: Response;
  try {
    response = await doFetch(url, {
      headers: { accept: "application/json", ...(key.key ? { authorization: `Bearer ${key.key}` } : {}) },
      redirect: "manual",
      signal,
    });
  } catch (error) {
    if (signal.aborted) return timedOut();
    return final(failure("unreachable", `Could not reach ${where}${unreachableReason(error, where)}. Check the address and that the server is running.`));
  }
  const status = response.status;
  const statusText = `${status}${response.statusText ? ` ${response.statusText}` : ""}`;
  if (status === 401 || status === 403) {
    void response.body?.cancel().catch(() => undefined);
    const message = key.source === "typed"
      ? `${where} refused this key (${statusText}). Check the API key.`
      : key.source === "saved"
        ? `${where} refused the saved key (${statusText}). Check the API key, or enter a new one.`
        : `${where} wants an API key (${statusText}). Enter the key and test again.`;
    return final({ ...failure("unauthorized", message), status });
  }
  if (status >= 300 && status < 400) {
    void response.body?.cancel().catch(() => undefined);
    const to = response.headers.get("location");
    return final({
      ...failure("redirected", `${where} sent the request on${to ? ` to ${to.slice(0, 200)}` : ""}. Use the address the server answers at as the base URL.`),
      status,
    });
  }
  if (status === 404 || status === 405) {
    void response.body?.cancel().catch(() => undefined);
    return { type: "missing", status };
  }
  if (status >= 400) {
    void response.body?.cancel().catch(() => undefined);
    return final({ ...failure("server-error", `${where} answered with an error (${statusText}). Check the server's log; try again once it runs normally.`), status });
  }
  let text: string;
  try {
    text = await readCapped(response, MAX_BODY_CHARS);
  } catch {
    if (signal.aborted) return timedOut();
    return final(failure("unreachable", `The connection to ${where} broke while it answered. Check that the server is running.`));
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { type: "missing", status };
  }
  const list = parseModelList(body);
  return list ? { type: "list", ...list } : { type: "missing", status };
}

/** A duration in words ("5 seconds"). */
export const seconds = (ms: number) => (ms === 1000 ? "1 second" : `${Number((ms / 1000).toFixed(1))} seconds`);

const final = (result: EndpointProbeResult): Attempt => ({ type: "final", result });

function failure(kind: EndpointProbeResult["kind"], message: string): EndpointProbeResult {
  return { ok: false, kind, message, models: [] };
}

/** Why fetch failed, as a clause (" (connection refused)"), from Node's error codes; empty when unknown. */
export function unreachableReason(error: unknown, where: string): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  const code = typeof cause?.code === "string" ? cause.code : "";
  if (code === "ECONNREFUSED") return ": nothing is listening there (connection refused)";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `: the host name ${new URL(`http://${where}`).hostname} was not found`;
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return ": the network has no route to it";
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") return ": the connection was closed";
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return ": its certificate is not trusted";
  return "";
}

/** The body as text, reading at most `max` characters' worth of bytes (the rest is not downloaded). */
export async function readCapped(response: Response, max: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (text.length > max) {
      await reader.cancel().catch(() => undefined);
      return "";
    }
  }
  return text + decoder.decode();
}
