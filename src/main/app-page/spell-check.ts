/**
 * The desktop page's spell checker, and what it fetches. On Windows and Linux Chromium checks spelling with Hunspell
 * dictionaries that it downloads from Google's servers the first time a language is needed (macOS uses the system's
 * checker and downloads nothing). Paddock fetches nothing the user did not ask for, so checking is off until the
 * user turns it on in Settings (`spellCheck`), and while it is off the dictionaries' address is one that cannot be
 * reached (a closed port on this machine): Chromium may start loading the language's dictionary when a session is
 * created, before main has read the settings, and that load must not reach the network either. Turning it on
 * restores Chromium's address. Electron-free; electron/security.ts applies it to the session.
 */
import type { Settings } from "../../shared/settings/schema";

/** Chromium's own address for Hunspell dictionaries (its `kDownloadServerUrl`), used once the user turns checking on. */
export const CHROMIUM_DICTIONARY_URL = "https://redirector.gvt1.com/edgedl/chrome/dict/";
/** Where dictionaries are fetched from while checking is off: port 0 on this machine, which nothing can listen on. */
export const UNREACHABLE_DICTIONARY_URL = "http://127.0.0.1:0/paddock-spell-check-is-off/";

export interface SpellCheckConfig {
  /** `session.setSpellCheckerEnabled`. */
  enabled: boolean;
  /** `session.setSpellCheckerDictionaryDownloadURL` (the trailing slash is Electron's rule). */
  dictionaryUrl: string;
}

/** The spell checker's setup for `settings` (undefined before they are read: off). */
export function spellCheckConfig(settings: Pick<Settings, "spellCheck"> | undefined): SpellCheckConfig {
  const enabled = settings?.spellCheck === true;
  return { enabled, dictionaryUrl: enabled ? CHROMIUM_DICTIONARY_URL : UNREACHABLE_DICTIONARY_URL };
}
