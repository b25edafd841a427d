import type { ModelOption, ProviderStatus } from "../../../../shared/protocol/app-api";
import type { Settings, SettingsPatch } from "../../../../shared/settings/schema";

/** What every Settings section gets from the page (SettingsView): the settings, and the ways to change them. */
export interface SettingsSectionProps {
  settings: Settings;
  models: readonly ModelOption[];
  providerStatus: readonly ProviderStatus[];
  /** Saves a change; false when main refused it (the reason is then shown above the sections). */
  save(patch: SettingsPatch): Promise<boolean>;
  /** Saves a change, rejecting with main's Error when it is refused: for forms that show the reason beside their button. */
  saveOrThrow(patch: SettingsPatch): Promise<void>;
  /** Main answered a change made another way (its own app-api method) with new settings: the page takes them. */
  onSettings(settings: Settings): void;
  /** Shows a problem in words above the sections (always on screen, whatever is scrolled). */
  onError(message: string): void;
  /** Keys or endpoints changed: the app reloads provider status and models. */
  onProvidersChanged(): void;
  /** Shows the welcome setup now, whatever is configured. */
  onShowSetup(): void;
}
