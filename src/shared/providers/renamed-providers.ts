/**
 * Providers pi-ai renamed, by their old id: settings, chats and stored keys that name the old id keep working
 * (settings migration v2 -> v3, the secrets file's upgrade, main's model resolution). pi-ai 1.6.0 renamed
 * `azure-openai-responses` to `azure`. Pure: no Node, DOM or Electron.
 */
export const RENAMED_PROVIDERS: Readonly<Record<string, string>> = {
  "azure-openai-responses": "azure",
};

/** The provider's current id: its new name if pi-ai renamed it, else itself. */
export function currentProviderId(provider: string): string {
  return Object.hasOwn(RENAMED_PROVIDERS, provider) ? RENAMED_PROVIDERS[provider] : provider;
}
