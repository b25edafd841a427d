/**
 * pi's own `models.json` (in pi's user folder, shared-node/pi-agent-folder.ts), read the way pi-coding-agent 1.6.0
 * reads it (its docs/models.md and models-configuration.md), so that a pi user's additions appear in Paddock too:
 * - a provider keyed by a built-in id changes that provider: its `baseUrl` applies to all its models, its `models`
 *   add (or, by id, replace) models, each made like a model the user added (added-model.ts);
 * - any other key adds a provider (Paddock names it `pi:<key>`), which needs `baseUrl` and an `api`;
 * - a provider's `modelOverrides` change its models by id (the catalogue's and the file's): name, reasoning, input,
 *   limits, cost, thinking map, headers, compatibility, each field left out keeping the model's (model-resolver.ts);
 * - `apiKey` and header values are literals or `$NAME` / `${NAME}` environment interpolation (`$$` and `$!` are a
 *   literal `$` and `!`), as pi resolves them; a `!command` value is not run (Paddock runs no commands from a file),
 *   which the problems say.
 * Read-only: Paddock never writes the file. A malformed file, or a part of one, is said in words (`problems`, shown
 * in Settings) and loses nothing else; a key never appears in a problem. The file is read only if it is (or a link
 * leads to) a regular file of at most MAX_FILE_BYTES: never a FIFO, a device or a folder.
 */
import { realpath } from "node:fs/promises";
import { readRegularFile } from "../../shared-node/regular-file";
import { isRecord } from "../../shared/is-record";
import { STREAM_APIS } from "../../shared/providers/stream-apis";

/** pi's prefix for a provider `models.json` adds ("pi:ollama"): never one of pi-ai's ids or a custom endpoint's. */
export const PI_PROVIDER_PREFIX = "pi:";
export const MAX_FILE_BYTES = 1024 * 1024;
const MAX_PROVIDERS = 100;
const MAX_MODELS = 500;
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const THINKING_LEVELS = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

/** One model entry, checked; fields absent where the file leaves them out. */
export interface PiModelEntry {
  id: string;
  name?: string;
  api?: string;
  baseUrl?: string;
  reasoning?: boolean;
  input?: ("text" | "image")[];
  contextWindow?: number;
  maxTokens?: number;
  headers?: Record<string, string>;
  compat?: Record<string, unknown>;
}

/** A `modelOverrides` value, checked: what it changes of the model of its id; fields absent where the file leaves them out. */
export interface PiModelOverride {
  name?: string;
  reasoning?: boolean;
  input?: ("text" | "image")[];
  contextWindow?: number;
  maxTokens?: number;
  /** Per million tokens, as pi-ai's; a rate left out keeps the model's. */
  cost?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number; tiers?: PiCostTier[] };
  thinkingLevelMap?: Record<string, string | null>;
  headers?: Record<string, string>;
  compat?: Record<string, unknown>;
}

export interface PiCostTier {
  inputTokensAbove: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** One provider entry, checked, its key and headers resolved (never shown to a page). */
export interface PiProviderEntry {
  /** The key in the file ("anthropic", "ollama"). */
  key: string;
  /** Whether the key is one of pi-ai's providers (then the entry changes it). */
  builtIn: boolean;
  name?: string;
  baseUrl?: string;
  api?: string;
  /** The resolved key; undefined when the file gives none or it cannot be resolved. */
  apiKey?: string;
  headers?: Record<string, string>;
  compat?: Record<string, unknown>;
  models: PiModelEntry[];
  /** `modelOverrides`, by model id; absent when the file gives none. */
  modelOverrides?: ReadonlyMap<string, PiModelOverride>;
}

export interface PiModels {
  path: string;
  state: "none" | "read" | "unreadable";
  providers: PiProviderEntry[];
  problems: string[];
}

export interface PiModelsOptions {
  /** Whether an id is one of pi-ai's providers. */
  isBuiltIn(id: string): boolean;
  env?: NodeJS.ProcessEnv;
}

/** The pi provider name of a provider `models.json` adds ("ollama" -> "pi:ollama"). */
export const piProviderName = (key: string): string => `${PI_PROVIDER_PREFIX}${key}`;

/** The key in `models.json` of a pi provider name ("pi:ollama" -> "ollama"), or undefined for other providers. */
export function piProviderKey(provider: string): string | undefined {
  return provider.startsWith(PI_PROVIDER_PREFIX) ? provider.slice(PI_PROVIDER_PREFIX.length) : undefined;
}

/** Reads `path` (see the file's comment). Never throws: every failure is a problem in words. */
export async function readPiModelsFile(path: string, options: PiModelsOptions): Promise<PiModels> {
  const none: PiModels = { path, state: "none", providers: [], problems: [] };
  const unreadable = (reason: string): PiModels => ({ path, state: "unreadable", providers: [], problems: [`${path} is ${reason}: none of its models are offered.`] });
  let real: string;
  try {
    // A link (a dotfiles repository's) is followed to what it names; that is then judged as a file of its own.
    real = await realpath(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? none : unreadable(`not readable (${code ?? "unknown error"})`);
  }
  const read = await readRegularFile(real, { maxBytes: MAX_FILE_BYTES, real: true });
  if (!read.ok) return read.kind === "missing" ? none : unreadable(read.reason);
  let data: unknown;
  try {
    data = JSON.parse(read.bytes.toString("utf8"));
  } catch (error) {
    return unreadable(`not valid JSON (${error instanceof Error ? error.message.slice(0, 200) : "parse error"})`);
  }
  return { path, state: "read", ...parsePiModels(data, options) };
}

/** The providers of a parsed `models.json` and what in it could not be used. Never throws. */
export function parsePiModels(data: unknown, options: PiModelsOptions): { providers: PiProviderEntry[]; problems: string[] } {
  const problems: string[] = [];
  if (!isRecord(data)) return { providers: [], problems: ["models.json is not a JSON object: none of its models are offered."] };
  if (data.providers === undefined) return { providers: [], problems: [] };
  if (!isRecord(data.providers)) return { providers: [], problems: ["models.json's \"providers\" is not an object: none of its models are offered."] };
  const providers: PiProviderEntry[] = [];
  for (const [key, value] of Object.entries(data.providers)) {
    if (providers.length >= MAX_PROVIDERS) {
      problems.push(`models.json names more than ${MAX_PROVIDERS} providers: the rest are not read.`);
      break;
    }
    const entry = parseProvider(key, value, options, problems);
    if (entry) providers.push(entry);
  }
  return { providers, problems };
}

function parseProvider(key: string, value: unknown, options: PiModelsOptions, problems: string[]): PiProviderEntry | undefined {
  const label = `Provider "${key.slice(0, 64)}"`;
  if (!ID_PATTERN.test(key)) {
    problems.push(`${label}: a provider id is letters, digits, dots, dashes and underscores (at most 64): skipped.`);
    return undefined;
  }
  if (!isRecord(value)) {
    problems.push(`${label} is not an object: skipped.`);
    return undefined;
  }
  const builtIn = options.isBuiltIn(key);
  const say = (text: string) => problems.push(`${label}: ${text}`);
  const baseUrl = optionalUrl(value.baseUrl, say);
  const api = optionalApi(value.api, say);
  if (!builtIn && baseUrl === undefined) {
    say("a new provider needs a \"baseUrl\" (http or https): skipped.");
    return undefined;
  }
  const entry: PiProviderEntry = { key, builtIn, models: [] };
  if (typeof value.name === "string" && value.name.trim()) entry.name = value.name.trim().slice(0, 200);
  if (baseUrl !== undefined) entry.baseUrl = baseUrl;
  if (api !== undefined) entry.api = api;
  if (value.apiKey !== undefined) {
    const resolved = typeof value.apiKey === "string" ? configValue(value.apiKey, options.env ?? process.env) : { problem: "is not a string" };
    if ("value" in resolved) entry.apiKey = resolved.value;
    else say(`its apiKey ${resolved.problem}: ${builtIn ? "the key from Settings or the environment is used" : "its models are not offered"}.`);
  }
  const headers = parseHeaders(value.headers, options.env ?? process.env, say);
  if (headers) entry.headers = headers;
  if (isRecord(value.compat)) entry.compat = value.compat;
  if (value.models !== undefined && !Array.isArray(value.models)) say("\"models\" is not a list: no models added.");
  for (const item of Array.isArray(value.models) ? value.models : []) {
    if (entry.models.length >= MAX_MODELS) {
      say(`more than ${MAX_MODELS} models: the rest are not read.`);
      break;
    }
    const model = parseModel(item, options.env ?? process.env, say);
    if (!model) continue;
    if (!builtIn && (model.api ?? api) === undefined) {
      say(`model "${model.id}" has no "api" (nor has its provider): skipped.`);
      continue;
    }
    entry.models = [...entry.models.filter((m) => m.id !== model.id), model];
  }
  const overrides = parseOverrides(value.modelOverrides, options.env ?? process.env, say);
  if (overrides) entry.modelOverrides = overrides;
  if (!builtIn && entry.apiKey === undefined && value.apiKey === undefined && entry.models.length > 0) {
    say("it has no \"apiKey\" (pi offers such models only with one; a local server takes any, like \"ollama\"): its models are not offered.");
  }
  return entry;
}

function parseModel(item: unknown, env: NodeJS.ProcessEnv, say: (text: string) => void): PiModelEntry | undefined {
  if (!isRecord(item) || typeof item.id !== "string" || !item.id.trim() || item.id.length > 200) {
    say("a model without an \"id\" (text of at most 200 characters): skipped.");
    return undefined;
  }
  const id = item.id.trim();
  const sayModel = (text: string) => say(`model "${id}": ${text}`);
  const model: PiModelEntry = { id };
  if (typeof item.name === "string" && item.name.trim()) model.name = item.name.trim().slice(0, 200);
  const api = optionalApi(item.api, sayModel);
  if (api !== undefined) model.api = api;
  const baseUrl = optionalUrl(item.baseUrl, sayModel);
  if (baseUrl !== undefined) model.baseUrl = baseUrl;
  if (typeof item.reasoning === "boolean") model.reasoning = item.reasoning;
  if (Array.isArray(item.input) && item.input.every((i) => i === "text" || i === "image")) model.input = [...new Set(item.input as ("text" | "image")[])];
  for (const field of ["contextWindow", "maxTokens"] as const) {
    const n = item[field];
    if (n === undefined) continue;
    if (typeof n === "number" && Number.isInteger(n) && n > 0 && n <= 100_000_000) model[field] = n;
    else sayModel(`"${field}" is not a whole number of tokens: the default is used.`);
  }
  const headers = parseHeaders(item.headers, env, sayModel);
  if (headers) model.headers = headers;
  if (isRecord(item.compat)) model.compat = item.compat;
  return model;
}

function parseOverrides(value: unknown, env: NodeJS.ProcessEnv, say: (text: string) => void): Map<string, PiModelOverride> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) {
    say("\"modelOverrides\" is not an object: no model changed.");
    return undefined;
  }
  const overrides = new Map<string, PiModelOverride>();
  for (const [id, item] of Object.entries(value)) {
    if (overrides.size >= MAX_MODELS) {
      say(`more than ${MAX_MODELS} model overrides: the rest are not read.`);
      break;
    }
    const sayModel = (text: string) => say(`the override of model "${id.slice(0, 200)}": ${text}`);
    if (!id.trim() || id.length > 200 || !isRecord(item)) {
      sayModel("not an object for a model id (text of at most 200 characters): skipped.");
      continue;
    }
    overrides.set(id, parseOverride(item, env, sayModel));
  }
  return overrides;
}

function parseOverride(item: Record<string, unknown>, env: NodeJS.ProcessEnv, say: (text: string) => void): PiModelOverride {
  const override: PiModelOverride = {};
  if (typeof item.name === "string" && item.name.trim()) override.name = item.name.trim().slice(0, 200);
  if (typeof item.reasoning === "boolean") override.reasoning = item.reasoning;
  if (Array.isArray(item.input) && item.input.every((i) => i === "text" || i === "image")) override.input = [...new Set(item.input as ("text" | "image")[])];
  for (const field of ["contextWindow", "maxTokens"] as const) {
    const n = item[field];
    if (n === undefined) continue;
    if (typeof n === "number" && Number.isInteger(n) && n > 0 && n <= 100_000_000) override[field] = n;
    else say(`"${field}" is not a whole number of tokens: the model's is kept.`);
  }
  if (item.cost !== undefined) {
    const cost = parseCost(item.cost);
    if (cost) override.cost = cost;
    else say("\"cost\" is not an object of prices (numbers of at least 0): the model's is kept.");
  }
  if (item.thinkingLevelMap !== undefined) {
    const map = item.thinkingLevelMap;
    if (isRecord(map) && Object.entries(map).every(([level, v]) => THINKING_LEVELS.includes(level) && (v === null || typeof v === "string"))) {
      override.thinkingLevelMap = map as Record<string, string | null>;
    } else say(`"thinkingLevelMap" is not an object of thinking levels (${THINKING_LEVELS.join(", ")}) to text or null: the model's is kept.`);
  }
  const headers = parseHeaders(item.headers, env, say);
  if (headers) override.headers = headers;
  if (isRecord(item.compat)) override.compat = item.compat;
  return override;
}

const isPrice = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n) && n >= 0;

function parseCost(value: unknown): PiModelOverride["cost"] | undefined {
  if (!isRecord(value)) return undefined;
  const cost: NonNullable<PiModelOverride["cost"]> = {};
  for (const rate of ["input", "output", "cacheRead", "cacheWrite"] as const) {
    const n = value[rate];
    if (n === undefined) continue;
    if (!isPrice(n)) return undefined;
    cost[rate] = n;
  }
  if (value.tiers !== undefined) {
    const fields = ["inputTokensAbove", "input", "output", "cacheRead", "cacheWrite"] as const;
    if (!Array.isArray(value.tiers) || value.tiers.length > 20 || !value.tiers.every((t) => isRecord(t) && fields.every((f) => isPrice(t[f])))) return undefined;
    cost.tiers = (value.tiers as Record<string, number>[]).map((t) => Object.fromEntries(fields.map((f) => [f, t[f]])) as unknown as PiCostTier);
  }
  return cost;
}

function optionalUrl(value: unknown, say: (text: string) => void): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string") {
    try {
      const url = new URL(value);
      if (url.protocol === "http:" || url.protocol === "https:") return value.replace(/\/+$/, "");
    } catch {
      // said below
    }
  }
  say("\"baseUrl\" is not an http or https address: ignored.");
  return undefined;
}

function optionalApi(value: unknown, say: (text: string) => void): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string" && (STREAM_APIS as readonly string[]).includes(value)) return value;
  say(`"api" ${typeof value === "string" ? `"${value.slice(0, 60)}" is not one Paddock speaks (${STREAM_APIS.join(", ")})` : "is not a string"}: ignored.`);
  return undefined;
}

function parseHeaders(value: unknown, env: NodeJS.ProcessEnv, say: (text: string) => void): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) {
    say("\"headers\" is not an object: ignored.");
    return undefined;
  }
  const headers: Record<string, string> = {};
  for (const [name, raw] of Object.entries(value)) {
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/.test(name)) {
      say(`the header name "${name.slice(0, 60)}" is not one HTTP allows: ignored.`);
      continue;
    }
    const resolved = typeof raw === "string" ? configValue(raw, env) : { problem: "is not a string" };
    if ("value" in resolved) headers[name] = resolved.value;
    else say(`the header ${name} ${resolved.problem}: not sent.`);
  }
  return headers;
}

/**
 * A key or header value as pi resolves it (its resolve-config-value.js), minus commands: `$NAME` and `${NAME}` are the
 * environment variable's value, `$$` and `$!` a literal `$` and `!`. The problem names variables, never a value.
 */
export function configValue(config: string, env: NodeJS.ProcessEnv): { value: string } | { problem: string } {
  if (config.startsWith("!")) return { problem: "comes from a command, which Paddock does not run (set it in Settings or an environment variable)" };
  let out = "";
  const missing: string[] = [];
  for (let i = 0; i < config.length; ) {
    const dollar = config.indexOf("$", i);
    if (dollar < 0) {
      out += config.slice(i);
      break;
    }
    out += config.slice(i, dollar);
    const next = config[dollar + 1];
    if (next === "$" || next === "!") {
      out += next;
      i = dollar + 2;
      continue;
    }
    let name: string | undefined;
    let end = dollar + 1;
    if (next === "{") {
      const close = config.indexOf("}", dollar + 2);
      const inner = close < 0 ? "" : config.slice(dollar + 2, close);
      if (close >= 0 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(inner)) {
        name = inner;
        end = close + 1;
      }
    } else {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(config.slice(dollar + 1));
      if (match) {
        name = match[0];
        end = dollar + 1 + name.length;
      }
    }
    if (name === undefined) {
      out += "$";
      i = dollar + 1;
      continue;
    }
    const value = env[name];
    if (value) out += value;
    else missing.push(name);
    i = end;
  }
  if (missing.length > 0) return { problem: `names ${missing.map((n) => `$${n}`).join(", ")}, which ${missing.length === 1 ? "is" : "are"} not set` };
  return { value: out };
}

/**
 * The file as last read, for main's synchronous model resolution; `reload()` reads it again (Settings and the model
 * list do, as pi reloads it when its model picker opens). Reads never overlap: a reload during one joins it.
 */
export class PiModelsSource {
  private latest: PiModels;
  private reading: Promise<PiModels> | undefined;

  constructor(private readonly path: string, private readonly options: PiModelsOptions) {
    this.latest = { path, state: "none", providers: [], problems: [] };
  }

  current(): PiModels {
    return this.latest;
  }

  reload(): Promise<PiModels> {
    this.reading ??= readPiModelsFile(this.path, this.options).then((models) => {
      this.latest = models;
      this.reading = undefined;
      return models;
    });
    return this.reading;
  }
}
