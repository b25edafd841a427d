/**
 * A custom endpoint as the user types it, and every check between the form and main: each field's problem in words
 * (shown next to the field as it is typed), the id derived from the name, and main's refusal translated back to the
 * field it is about. The settings schema (CustomProviderSchema) is the one source of the limits; these checks only
 * put them in words, and `toEndpoint` checks the result against the schema itself, so Save never sends what main
 * would refuse. Pure: no DOM, no React.
 */
import { Value } from "typebox/value";
import { CustomProviderSchema, type CustomProvider } from "../../../shared/settings/schema";
import { schemaErrors } from "../../../shared/schema-errors";
import { ENDPOINT_LIMITS } from "../../../shared/settings/endpoint-limits";

export interface EndpointDraft {
  /** The id it was saved under; absent for an endpoint not saved yet. A saved endpoint keeps its id. */
  savedId?: string;
  id: string;
  /** The user typed the id: it no longer follows the name. */
  idEdited: boolean;
  name: string;
  baseUrl: string;
  /** Model ids as typed: separated by commas or new lines. */
  models: string;
  reasoning: boolean;
  images: boolean;
  /** As typed; empty for the default. */
  contextWindow: string;
  maxTokens: string;
  /** A new key, not saved yet (saved keys never reach the page). */
  key: string;
}

export type EndpointField = "name" | "id" | "baseUrl" | "models" | "key" | "contextWindow" | "maxTokens";

/** Each field's name as its label shows it, for messages that point at a field. */
export const FIELD_LABELS: Readonly<Record<EndpointField, string>> = {
  name: "Name",
  id: "Id",
  baseUrl: "Base URL",
  models: "Model ids",
  key: "API key",
  contextWindow: "Context window",
  maxTokens: "Max output tokens",
};

export type FieldProblems = Partial<Record<EndpointField, string>>;

const FIELDS = CustomProviderSchema.properties;
const { id: MAX_ID, name: MAX_NAME, baseUrl: MAX_URL, modelId: MAX_MODEL, models: MAX_MODELS, tokens: MAX_TOKENS_LIMIT } = ENDPOINT_LIMITS;
/** setApiKey's limit (app-api-schema.ts). */
const MAX_KEY = 10_000;

export const toDraft = ({ id, name, baseUrl, models, reasoning, images, contextWindow, maxTokens }: CustomProvider): EndpointDraft => ({
  savedId: id, id, idEdited: true, name, baseUrl, models: models.join(", "), reasoning: reasoning ?? false, images: images ?? false,
  contextWindow: contextWindow === undefined ? "" : String(contextWindow), maxTokens: maxTokens === undefined ? "" : String(maxTokens), key: "",
});

/** A new endpoint's draft, its id derived from `name` and free among `taken`. */
export function newDraft(name: string, baseUrl: string, taken: Iterable<string>): EndpointDraft {
  return {
    id: deriveEndpointId(name, taken), idEdited: false, name, baseUrl, models: "", reasoning: false, images: false,
    contextWindow: "", maxTokens: "", key: "",
  };
}

/**
 * An id for an endpoint called `name`: lower case, letters and digits joined by dashes ("LM Studio" -> "lm-studio",
 * "Ollama (GPU box)" -> "ollama-gpu-box"), accents dropped, at most 64 characters; "endpoint" when nothing is left;
 * with "-2", "-3"... when `taken` has it already. Always matches the schema's id pattern.
 */
export function deriveEndpointId(name: string, taken: Iterable<string>): string {
  const base = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9._]+/g, "-")
    .replace(/^[^a-z0-9]+/, "")
    .replace(/[-._]+$/, "")
    .slice(0, MAX_ID)
    .replace(/[-._]+$/, "") || "endpoint";
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const id = `${base.slice(0, MAX_ID - suffix.length).replace(/[-._]+$/, "")}${suffix}`;
    if (!used.has(id)) return id;
  }
}

/** The model ids in the models field, in order, trimmed, empty entries dropped. */
export function modelIds(typed: string): string[] {
  return typed.split(/[,\n]/).map((m) => m.trim()).filter(Boolean);
}

/**
 * What is wrong with each field of `draft`, in words, given the ids of the other endpoints in the list; empty when
 * it can be saved. A field without a problem has no entry.
 */
export function endpointProblems(draft: EndpointDraft, otherIds: readonly string[]): FieldProblems {
  const problems: FieldProblems = {};
  const name = draft.name.trim();
  if (name === "") problems.name = "Give the endpoint a name: model pickers show it.";
  else if (name.length > MAX_NAME) problems.name = `The name is ${name.length} characters long; at most ${MAX_NAME}.`;

  const id = draft.id.trim();
  if (id === "") problems.id = "The id is empty: use letters, digits and dashes, like “lm-studio”.";
  else if (!Value.Check(FIELDS.id, id as unknown)) {
    problems.id = id.length > MAX_ID
      ? `The id is ${id.length} characters long; at most ${MAX_ID}.`
      : `Use only letters, digits, dots, dashes and underscores, starting with a letter or digit (no spaces), like “${deriveEndpointId(id, [])}”.`;
  } else if (otherIds.includes(id)) problems.id = `Another endpoint has the id “${id}”: choose another.`;

  const url = baseUrlProblem(draft.baseUrl);
  if (url) problems.baseUrl = url;

  const models = modelIds(draft.models);
  const long = models.find((m) => m.length > MAX_MODEL);
  if (models.length > MAX_MODELS) problems.models = `That is ${models.length} models; at most ${MAX_MODELS}.`;
  else if (long) problems.models = `“${long.slice(0, 40)}…” is ${long.length} characters long; a model id has at most ${MAX_MODEL}.`;

  const key = draft.key.trim();
  if (key.length > MAX_KEY) problems.key = `That is ${key.length} characters; a key has at most ${MAX_KEY}.`;
  else if (/\s/.test(key)) problems.key = "The key has a space or a line break in it: paste the key alone.";

  const contextWindow = tokenProblem(draft.contextWindow, "context window");
  if (contextWindow) problems.contextWindow = contextWindow;
  const maxTokens = tokenProblem(draft.maxTokens, "output limit");
  if (maxTokens) problems.maxTokens = maxTokens;
  return problems;
}

/** What is wrong with a typed base URL, in words; undefined when it is an http(s) address settings accept. */
export function baseUrlProblem(typed: string): string | undefined {
  const url = typed.trim();
  const example = "like http://127.0.0.1:11434/v1";
  if (url === "") return `Enter the server's address, ${example}.`;
  if (url.length > MAX_URL) return `The address is ${url.length} characters long; at most ${MAX_URL}.`;
  if (/\s/.test(url)) return "The address has a space in it.";
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:") || !Value.Check(FIELDS.baseUrl, url)) {
    return `Start the address with http:// or https://, ${example}.`;
  }
  return undefined;
}

function tokenProblem(typed: string, what: string): string | undefined {
  if (typed.trim() === "") return undefined;
  const n = Number(typed);
  if (!Number.isInteger(n) || n < 1 || n > MAX_TOKENS_LIMIT) {
    return `The ${what} is a whole number of tokens from 1 to ${MAX_TOKENS_LIMIT.toLocaleString("en-US")}, or empty for the default.`;
  }
  return undefined;
}

/**
 * The endpoint settings will hold for `draft`, or the problems by field. A draft that passes `endpointProblems` but
 * not the schema (the two disagreeing would be a bug) still gets its problems in words, never sent to main.
 */
export function toEndpoint(draft: EndpointDraft, otherIds: readonly string[]): { ok: true; endpoint: CustomProvider } | { ok: false; problems: FieldProblems } {
  const problems = endpointProblems(draft, otherIds);
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  const contextWindow = draft.contextWindow.trim() === "" ? undefined : Number(draft.contextWindow);
  const maxTokens = draft.maxTokens.trim() === "" ? undefined : Number(draft.maxTokens);
  const endpoint: CustomProvider = {
    id: draft.id.trim(),
    name: draft.name.trim(),
    baseUrl: draft.baseUrl.trim(),
    models: [...new Set(modelIds(draft.models))],
    ...(draft.reasoning ? { reasoning: true } : {}),
    ...(draft.images ? { images: true } : {}),
    ...(contextWindow !== undefined ? { contextWindow } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
  };
  const left = schemaErrors(CustomProviderSchema, endpoint, "endpoint");
  if (left.length === 0) return { ok: true, endpoint };
  const fallback: FieldProblems = {};
  for (const line of left) {
    const field = line.split(/[.:]/)[0] as EndpointField;
    fallback[field in FIELD_LABELS ? field : "name"] ??= `${FIELD_LABELS[field] ?? "This endpoint"} is not in a form Paddock can save.`;
  }
  return { ok: false, problems: fallback };
}

/**
 * Main's refusal of a save, in words that name the endpoint and the field (main says "customProviders.1.id: must
 * match pattern …"; the user typed into "LM Studio"'s Id). Messages about anything else pass unchanged.
 */
export function saveErrorText(message: string, names: readonly string[]): string {
  const twice = /customProviders: the id "([^"]*)" is used twice/.exec(message);
  if (twice) return `Two endpoints have the id “${twice[1]}”: change one of them.`;
  const at = /customProviders[./](\d+)[./]([A-Za-z]+)(?:[^:]*):\s*(.*)$/.exec(message);
  if (!at) return message.replace(/must match pattern "[^"]*"/, "is not in an accepted form");
  const index = Number(at[1]);
  const field = at[2] as EndpointField;
  const endpoint = names[index]?.trim() || `Endpoint ${index + 1}`;
  const label = FIELD_LABELS[field] ?? field;
  const reason = at[3].startsWith("must match pattern") ? "is not in an accepted form" : at[3];
  return `Not saved: “${endpoint}”, ${label}: ${reason}.`;
}
