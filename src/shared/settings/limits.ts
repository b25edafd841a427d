/**
 * Limits the settings schema enforces and the settings page explains. Kept apart from the schema so the page can
 * import them without bundling typebox.
 */

/** Below this, slow local models and long tool-heavy turns time out for no good reason. */
export const MIN_REQUEST_TIMEOUT_MS = 5000;

/** The bounds Settings accept for automatic retries: how many, and the longest wait before one (seconds). */
export const MAX_RETRY_ATTEMPTS = 10;
export const MAX_RETRY_WAIT_SECONDS = 3600;
