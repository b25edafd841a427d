/**
 * Limits the settings schema enforces and the settings page explains. Kept apart from the schema so the page can
 * import them without bundling typebox.
 */

/** Below this, slow local models and long tool-heavy turns time out for no good reason. */
export const MIN_REQUEST_TIMEOUT_MS = 5000;
