/**
 * pi-ai's built-in model catalogue, as main reads it: the providers it lists and each one's models. From the
 * package's `providers/all` entry (its root no longer reads the catalogue; its `/compat` entry, which still does, is
 * to be deleted). Main owns the catalogue: workers get their models resolved (model-resolver.ts).
 */
import type { Api, Model } from "@earendil-works/pi-ai";
import { getBuiltinModels, getBuiltinProviders, type BuiltinProvider } from "@earendil-works/pi-ai/providers/all";

/** The providers of the catalogue, in pi-ai's order. */
export function catalogProviders(): string[] {
  return getBuiltinProviders();
}

/** The catalogue's chat models of `provider`; none for a provider it does not list. */
export function catalogModels(provider: string): Model<Api>[] {
  if (!(getBuiltinProviders() as string[]).includes(provider)) return [];
  return getBuiltinModels(provider as BuiltinProvider);
}
