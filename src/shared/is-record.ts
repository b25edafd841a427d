/** Whether `value` is a plain JSON-style object (not null, not an array): what parsed files and IPC arguments hold. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
