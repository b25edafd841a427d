/**
 * Models beyond pi-ai's catalogue, as pages see them: "Refresh models" (main asks a built-in provider which models it
 * serves, with the user's key, and says which of them the catalogue lacks) and pi's own `models.json` (read by main,
 * its problems said in words). Types and input schemas only; main's side is main/broker/provider-model-list.ts and
 * main/broker/pi-models-file.ts.
 */
import { Type } from "typebox";
import { AddedModelSchema } from "../settings/schema";

/** How long "Refresh models" waits for the provider's answer, in all. */
export const MODEL_LIST_TIMEOUT_MS = 10_000;

/** One model a provider listed. */
export interface ListedModel {
  id: string;
  /** The provider's name for it, when its list gives one ("Claude Opus 5.6"). */
  name?: string;
  /** Whether pi-ai's catalogue knows the id (else the user may add it, as a typed id is). */
  known: boolean;
  /** Whether the user already added it (Settings' added models). */
  added: boolean;
}

/** What a provider's model list came to. */
export interface ProviderModelList {
  ok: boolean;
  /** What happened, in a sentence for the user (the number found, or what went wrong and what to check). */
  message: string;
  /** The listed chat models, in the provider's order (empty unless ok). */
  models: ListedModel[];
}

/** `refreshModels`'s argument: a built-in provider's id. */
export const ProviderIdSchema = AddedModelSchema.properties.provider;

/** pi's `models.json` as main last read it. */
export interface PiModelsFileStatus {
  /** Where main looks for it (pi's user folder, `PI_CODING_AGENT_DIR` followed). */
  path: string;
  /**
   * "none": there is no such file; "read": it was read (some parts may still have problems); "unreadable": it is there
   * but nothing of it could be used (not JSON, a FIFO, too large...), which `problems` says.
   */
  state: "none" | "read" | "unreadable";
  /** What in it could not be used, in words (a malformed file, a provider without an address, a key from a command). Never a key. */
  problems: string[];
  /** How many models it adds (those whose provider has a usable key). */
  models: number;
  /** The built-in providers whose address it changes (their requests, and keys, go there): pi-ai's ids. */
  movedProviders: string[];
}

export const RefreshModelsArgsSchema = Type.Tuple([ProviderIdSchema]);
