/**
 * The grant format: what "allow for this chat" is journaled as (the transcript's `grant` records), made by the
 * worker's approval gate (approval-gate.ts, command-grants.ts) and checked here by whoever replays a transcript.
 *   - `tool:<name>`: every call of that tool;
 *   - `bash:<program>`: that program with any arguments (older transcripts also hold prefixes such as `bash:npm test`);
 *   - `bash=<command>`: exactly that command.
 */

/** The longest command a chat may allow exactly (longer ones are allowed once at a time). */
export const MAX_EXACT_GRANT = 1000;

/** Whether a transcript's grant string is one the approval gate makes, or once made (the loader checks what it replays). */
export function isGrant(value: unknown): value is string {
  return typeof value === "string" && (/^tool:[A-Za-z0-9_.:-]{1,100}$/.test(value) || isCommandGrant(value));
}

/**
 * Whether a shell grant has a shape the gate makes or once made. Older transcripts hold prefix grants such as
 * `bash:npm test` or `bash:sed`: they still load, but match nothing now (only command-grants.ts's harmless programs
 * are granted by prefix), so they allow no more than before and the user is asked again.
 */
function isCommandGrant(value: string): boolean {
  return /^bash:\S.{0,200}$/.test(value) || (value.length <= MAX_EXACT_GRANT + 5 && /^bash=\S.*$/.test(value));
}
