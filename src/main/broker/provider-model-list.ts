/**
 * "Refresh models": asks a built-in provider which models it serves, with the user's key, and says in words what
 * came of it. Runs in main (the page may reach no other origin; main holds the keys).
 *
 * Where each API keeps its list: OpenAI-compatible (`openai-completions`, `openai-responses`) `GET <base>/models` with
 * `Authorization: Bearer`; Mistral `GET <base>/v1/models`, likewise; Anthropic `GET <base>/v1/models` with `x-api-key`
 * and `anthropic-version` (pages followed through `has_more`); Google `GET <base>/models` (base ending in `/v1beta`)
 * with the key in `x-goog-api-key`, which Google takes as it takes `?key=`, so the key is never part of a URL that a
 * proxy logs or an error repeats (pages followed through `nextPageToken`, chat models only).
 *
 * Promises: answers within `timeoutMs` (plus the time to read a capped body) and never throws; contacts only the
 * provider's own address (its catalogue's, or the one pi's `models.json` gives it), never follows a redirect; reads at
 * most MAX_BODY_CHARS per page. It never logs or returns a key.
 */
import type { Api, Model } from "@earendil-works/pi-ai";
import { MODEL_LIST_TIMEOUT_MS, type ProviderModelList } from "../../shared/protocol/model-lists";
import { providerDisplayName } from "../../shared/providers/provider-names";
import { readCapped, seconds, unreachableReason } from "./endpoint-probe";
import { AMBIENT_CREDENTIALS } from "./env-api-keys";

const MAX_BODY_CHARS = 8 * 1024 * 1024;
const MAX_PAGES = 10;
const MAX_MODELS = 2000;
const MAX_ID = 200;

/** The list APIs, in the order a provider with several is asked by (an OpenAI-compatible list is the whole one). */
const LISTING_APIS = ["openai-completions", "openai-responses", "mistral-conversations", "anthropic-messages", "google-generative-ai"] as const;
type ListingApi = (typeof LISTING_APIS)[number];

export interface ListOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** Where and how a provider's list is asked for; undefined when its models' APIs keep no list Paddock reads. */
export function modelListPlace(models: readonly Model<Api>[]): { api: ListingApi; url: string } | undefined {
  for (const api of LISTING_APIS) {
    const model = models.find((m) => m.api === api && /^https?:\/\//.test(m.baseUrl) && !/[{}]/.test(m.baseUrl));
    if (!model) continue;
    const base = model.baseUrl.replace(/\/+$/, "");
    const v1 = /\/v1$/.test(base) ? base : `${base}/v1`;
    const url = api === "anthropic-messages" || api === "mistral-conversations" ? `${v1}/models` : `${base}/models`;
    return { api, url };
  }
  return undefined;
}

/** One model as a list gives it. */
interface Listed {
  id: string;
  name?: string;
}

/**
 * The models `provider` lists (see the file's comment). `models` are its models as Paddock knows them (their
 * addresses say where to ask), `key` the user's. The result's `known` and `added` are left false: the caller knows
 * the catalogue and settings.
 */
export async function listProviderModels(provider: string, models: readonly Model<Api>[], key: string | undefined, options: ListOptions = {}): Promise<ProviderModelList> {
  const name = providerDisplayName(provider);
  const place = modelListPlace(models);
  if (!place) return failure(`${name} keeps no model list Paddock can read: type a model's id in the model picker to use it.`);
  if (!key || key === AMBIENT_CREDENTIALS) return failure(`${name} has no API key: enter one above (or set its environment variable), then refresh.`);
  const timeoutMs = options.timeoutMs ?? MODEL_LIST_TIMEOUT_MS;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const where = new URL(place.url).host;
  try {
    const listed: Listed[] = [];
    let next: string | undefined = place.url;
    for (let page = 0; next && page < MAX_PAGES && listed.length < MAX_MODELS; page++) {
      const answer = await ask(options.fetch ?? fetch, next, place.api, key, deadline.signal, name, where, timeoutMs);
      if ("message" in answer) return answer;
      listed.push(...answer.models);
      next = answer.next ? pageUrl(place.url, place.api, answer.next) : undefined;
    }
    const unique = [...new Map(listed.map((m) => [m.id, m])).values()].slice(0, MAX_MODELS);
    return {
      ok: true,
      message: `${name} lists ${unique.length} model${unique.length === 1 ? "" : "s"}.`,
      models: unique.map((m) => ({ id: m.id, ...(m.name ? { name: m.name } : {}), known: false, added: false })),
    };
  } finally {
    clearTimeout(timer);
  }
}

function pageUrl(first: string, api: ListingApi, cursor: string): string {
  const url = new URL(first);
  url.searchParams.set(api === "google-generative-ai" ? "pageToken" : "after_id", cursor);
  return url.toString();
}

function headersFor(api: ListingApi, key: string): Record<string, string> {
  if (api === "anthropic-messages") return { "x-api-key": key, "anthropic-version": "2023-06-01" };
  if (api === "google-generative-ai") return { "x-goog-api-key": key };
  return { authorization: `Bearer ${key}` };
}

type Answer = { models: Listed[]; next?: string } | ProviderModelList;

async function ask(doFetch: typeof fetch, url: string, api: ListingApi, key: string, signal: AbortSignal, name: string, where: string, timeoutMs: number): Promise<Answer> {
  const timedOut = () => failure(`No answer from ${name} (${where}) within ${seconds(timeoutMs)}. Check your connection and try again.`);
  let response: Response;
  try {
    response = await doFetch(url, { headers: { accept: "application/json", ...headersFor(api, key) }, redirect: "manual", signal });
  } catch (error) {
    if (signal.aborted) return timedOut();
    return failure(`Could not reach ${name} at ${where}${unreachableReason(error, where)}.`);
  }
  const status = response.status;
  const statusText = `${status}${response.statusText ? ` ${response.statusText}` : ""}`;
  if (status >= 300) void response.body?.cancel().catch(() => undefined);
  if (status === 401 || status === 403) return failure(`${name} refused the key (${statusText}). Check its API key.`);
  if (status >= 300 && status < 400) return failure(`${name} sent the request elsewhere (${statusText}); Paddock does not follow it with your key.`);
  if (status === 404 || status === 405) return failure(`${name} has no model list at ${where}${new URL(url).pathname} (${statusText}).`);
  if (status >= 400) return failure(`${name} answered with an error (${statusText}). Try again later.`);
  let text: string;
  try {
    text = await readCapped(response, MAX_BODY_CHARS);
  } catch {
    if (signal.aborted) return timedOut();
    return failure(`The connection to ${name} broke while it answered. Try again.`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return failure(`${name} answered, but not with JSON${text === "" ? " (or with a list over 8 MB)" : ""}: no model list could be read.`);
  }
  const page = readPage(api, body);
  return page ?? failure(`${name} answered, but not with a model list Paddock understands.`);
}

/** One page of a list in its API's shape; undefined when the body is not one. */
export function readPage(api: ListingApi, body: unknown): { models: Listed[]; next?: string } | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const record = body as Record<string, unknown>;
  if (api === "google-generative-ai") {
    if (!Array.isArray(record.models)) return undefined;
    const models = record.models.flatMap((m): Listed[] => {
      if (typeof m !== "object" || m === null) return [];
      const entry = m as { name?: unknown; displayName?: unknown; supportedGenerationMethods?: unknown };
      const methods = entry.supportedGenerationMethods;
      // Embedding and other models that cannot chat are not offered.
      if (Array.isArray(methods) && !methods.includes("generateContent")) return [];
      return listed(typeof entry.name === "string" ? entry.name.replace(/^models\//, "") : undefined, entry.displayName);
    });
    return { models, ...(typeof record.nextPageToken === "string" && record.nextPageToken ? { next: record.nextPageToken } : {}) };
  }
  if (!Array.isArray(record.data)) return undefined;
  const models = record.data.flatMap((m): Listed[] => {
    if (typeof m !== "object" || m === null) return [];
    const entry = m as { id?: unknown; display_name?: unknown; name?: unknown };
    return listed(entry.id, entry.display_name ?? entry.name);
  });
  const more = api === "anthropic-messages" && record.has_more === true && typeof record.last_id === "string" ? record.last_id : undefined;
  return { models, ...(more ? { next: more } : {}) };
}

function listed(id: unknown, name: unknown): Listed[] {
  if (typeof id !== "string" || !id.trim() || id.trim().length > MAX_ID) return [];
  const clean = typeof name === "string" && name.trim() && name.trim() !== id.trim() ? name.trim().slice(0, 200) : undefined;
  return [{ id: id.trim(), ...(clean ? { name: clean } : {}) }];
}

function failure(message: string): ProviderModelList {
  return { ok: false, message, models: [] };
}
