/**
 * The secret store's cipher in the app: Electron's safeStorage (macOS Keychain, Windows DPAPI, the Linux keyring).
 */
import { safeStorage } from "electron";
import type { Cipher } from "../broker/secrets";

export const safeStorageCipher: Cipher = {
  /**
   * False before app ready, and on Linux when no keyring was found: safeStorage then falls back to "basic_text",
   * a fixed key in Chromium's source, which is no protection. Users there keep keys in environment variables.
   */
  isAvailable: () =>
    safeStorage.isEncryptionAvailable() &&
    (process.platform !== "linux" || safeStorage.getSelectedStorageBackend() !== "basic_text"),
  encrypt: (plain) => safeStorage.encryptString(plain),
  decrypt: (data) => safeStorage.decryptString(data),
};
