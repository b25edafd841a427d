/**
 * The grant format: what "allow for this chat" is journaled as (the transcript's `grant` records) and what "allow
 * for this project" is kept as (main's project grants, project-grants.ts), made by the worker's approval gate
 * (approval-gate.ts, command-grants.ts) and checked here by whoever replays a transcript or reads the grants file.
 *   - `tool:<name>`: every call of that tool;
 *   - `bash=<command>`: exactly that command;
 *   - `net:<host>`: a sandboxed command may reach that host (any port), exactly that name (no wildcard);
 *   - `bash:<program>`: older transcripts only (`bash:ls`, `bash:npm test`); still loaded, see isCommandGrant.
 */

/** The longest command a chat may allow exactly (longer ones are allowed once at a time). */
export const MAX_EXACT_GRANT = 1000;

/** Whether a transcript's grant string is one the approval gate makes, or once made (the loader checks what it replays). */
export function isGrant(value: unknown): value is string {
  return typeof value === "string" && (/^tool:[A-Za-z0-9_.:-]{1,100}$/.test(value) || isCommandGrant(value) || isNetworkGrant(value));
}

/**
 * Whether a project's grant is one the gate makes now: a tool, an exact command or a host. Never a prefix (`bash:`):
 * a project grant allows calls of every chat in the folder without asking, so it is exactly what the user saw.
 */
export function isProjectGrant(value: unknown): value is string {
  return typeof value === "string" && (/^tool:[A-Za-z0-9_.:-]{1,100}$/.test(value) || isExactCommandGrant(value) || isNetworkGrant(value));
}

/**
 * Whether a shell grant has a shape the gate makes or once made. Older transcripts hold prefix grants such as
 * `bash:npm test` or `bash:sed`: they still load, but match nothing now beyond command-grants.ts's harmless programs,
 * so they allow no more than before and the user is asked again.
 */
function isCommandGrant(value: string): boolean {
  return /^bash:\S.{0,200}$/.test(value) || isExactCommandGrant(value);
}

function isExactCommandGrant(value: string): boolean {
  return value.length <= MAX_EXACT_GRANT + 5 && /^bash=\S[^\n\r]*$/.test(value) && value === value.trimEnd();
}

/** A host name or IPv4 address as the sandbox's proxy reports it, lower case: `registry.npmjs.org`, `127.0.0.1`. */
const HOST = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Whether `host` can be granted by name (not an IPv6 literal, no wildcard, no port, lower case). */
export function isGrantableHost(host: string): boolean {
  return HOST.test(host);
}

export function isNetworkGrant(value: string): boolean {
  return value.startsWith("net:") && isGrantableHost(value.slice(4));
}

/** What a grant allows, in the words a list of grants shows: its kind and exactly what it covers. */
export function grantLabel(grant: string): { kind: "tool" | "command" | "network"; label: string } {
  if (grant.startsWith("bash=")) return { kind: "command", label: grant.slice(5) };
  if (grant.startsWith("bash:")) return { kind: "command", label: `${grant.slice(5)} (any arguments)` };
  if (grant.startsWith("net:")) return { kind: "network", label: grant.slice(4) };
  return { kind: "tool", label: grant.slice(5) };
}
