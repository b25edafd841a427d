/**
 * "Test connection" for a custom endpoint: what a page asks main (`AppApi.probeEndpoint`) and what main answers.
 * Main does the asking because the page's content security policy lets it reach no other origin, and because only
 * main holds the endpoint's saved key. Types and the input schema only; the probe itself is
 * main/broker/endpoint-probe.ts.
 */
import { Type } from "typebox";
import { CustomProviderSchema } from "../settings/schema";

/** How long a probe waits for the server, in all (its model list, then Ollama's, when the first is missing). */
export const PROBE_TIMEOUT_MS = 5_000;

export interface EndpointProbeRequest {
  /** The endpoint's base URL as typed (`http://127.0.0.1:11434/v1`); main says in words when it is not one. */
  baseUrl: string;
  /** A key typed but not saved yet: sent, as `Authorization: Bearer`, only to `baseUrl`'s origin. */
  apiKey?: string;
  /**
   * A saved endpoint's id: without `apiKey`, main uses the key saved for it, and only when that key was saved for
   * `baseUrl`'s origin (main/broker/endpoint-keys.ts); a key saved for another address is never sent.
   */
  endpointId?: string;
}

/** What a probe found, in one word (the `message` says it in a sentence). */
export type EndpointProbeKind =
  /** The server listed its models (possibly none). */
  | "ok"
  /** The address is not an http(s) URL. */
  | "invalid-url"
  /** Nothing answered: refused, unknown host, no route, a TLS failure. */
  | "unreachable"
  /** No answer within PROBE_TIMEOUT_MS. */
  | "timeout"
  /** 401 or 403: a key is missing or wrong. */
  | "unauthorized"
  /** The server sent the request elsewhere (3xx); a probe never follows, so no key goes to another address. */
  | "redirected"
  /** Something answered, but with no model list Paddock understands. */
  | "no-model-list"
  /** The server answered with an error (5xx, 429...). */
  | "server-error";

export interface EndpointProbeResult {
  ok: boolean;
  kind: EndpointProbeKind;
  /** What happened and what to check, in a sentence or two for the user. */
  message: string;
  /** Model ids the server offers (empty unless ok), in its order, each at most 200 characters, at most 500. */
  models: string[];
  /** Which list answered: the OpenAI-compatible `/models` or Ollama's `/api/tags`. */
  api?: "openai" | "ollama";
  /** The server answered at this other base URL (the typed one lacked `/v1`): the endpoint should use it. */
  suggestedBaseUrl?: string;
  /** The HTTP status behind `unauthorized`, `redirected` or `server-error`. */
  status?: number;
}

/** `probeEndpoint`'s argument as main checks it: sizes bounded; whether the URL is usable is the probe's answer. */
export const EndpointProbeRequestSchema = Type.Object(
  {
    baseUrl: Type.String({ minLength: 1, maxLength: 2048 }),
    apiKey: Type.Optional(Type.String({ maxLength: 10_000 })),
    endpointId: Type.Optional(CustomProviderSchema.properties.id),
  },
  { additionalProperties: false },
);
