/**
 * A marker in the chat where the permission profile its runs go under changed (issue 27 §2): a message of its own
 * kind (`role: "permissionProfile"`), journaled in the transcript like any message and shown as a small line. It is
 * appended as a run starts, only when the profile differs from the latest marker's; a chat with no marker ran under
 * Ask (today's behaviour), so the profile of every run is the latest marker before it. A run in Plan mode (plan-mode.ts)
 * goes under Read-only and its marker says `plan`, so the transcript tells which runs were planning. The model is not
 * sent it: a refused call's reason tells it what it may not do.
 *
 * A run started with a contract of its own (shared/protocol/run-contract.ts: a schedule's occurrence, a message sent
 * in Plan) gets a marker carrying it (`run`): those terms held for that run alone, so the next run without them gets a
 * marker again, and the transcript tells what each run went under (unattended, its caps, planning).
 */
import { PROFILE_TEXT, type PermissionProfile } from "../protocol/permission-profiles";
import { hasRunTerms, normalizeRunContract, type RunContract } from "../protocol/run-contract";
import { BUDGET_CAP_KINDS, capName } from "./budget";

export interface PermissionProfileMessage {
  role: "permissionProfile";
  /** The profile the runs from here on went under. */
  profile: PermissionProfile;
  /** What the chat asked for, when it could not be had (Sandboxed auto without a sandbox runs under Ask). */
  wanted?: PermissionProfile;
  /** The runs from here on were planning (Plan mode: `profile` is Read-only). */
  plan?: true;
  /** The run's own contract (run-contract.ts), when it had one: it held for that run only, not the runs after it. */
  run?: RunContract;
  timestamp: number;
}

declare module "./types" {
  interface CustomAgentMessages {
    permissionProfile: PermissionProfileMessage;
  }
}

/** The profile runs went under at the end of `messages`, and what was asked for: the latest marker's, else Ask. */
export function latestProfile(messages: readonly { role: string }[]): { profile: PermissionProfile; wanted?: PermissionProfile; plan?: true; run?: RunContract } {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as PermissionProfileMessage;
    if (m.role === "permissionProfile") {
      return { profile: m.profile, ...(m.wanted ? { wanted: m.wanted } : {}), ...(m.plan === true ? { plan: true as const } : {}), ...(hasRunTerms(m.run) ? { run: normalizeRunContract(m.run) } : {}) };
    }
  }
  return { profile: "ask" };
}

/**
 * The marker to append before a run under `profile` (asked for: `wanted`; planning: `plan`; its own contract: `run`),
 * or undefined when nothing changed.
 */
export function profileMarker(
  messages: readonly { role: string }[],
  profile: PermissionProfile,
  wanted: PermissionProfile,
  now = Date.now(),
  plan = false,
  run?: RunContract,
): PermissionProfileMessage | undefined {
  const last = latestProfile(messages);
  const lastWanted = last.wanted ?? last.profile;
  const terms = hasRunTerms(run) ? normalizeRunContract(run) : undefined;
  const sameRun = JSON.stringify(last.run ?? null) === JSON.stringify(terms ?? null);
  if (last.profile === profile && lastWanted === wanted && (last.plan === true) === plan && sameRun) return undefined;
  return {
    role: "permissionProfile",
    profile,
    ...(wanted !== profile ? { wanted } : {}),
    ...(plan ? { plan: true as const } : {}),
    ...(terms ? { run: terms } : {}),
    timestamp: now,
  };
}

/** The marker's line in the chat. */
export function profileMarkerText(message: PermissionProfileMessage): string {
  const label = PROFILE_TEXT[message.profile]?.label ?? String(message.profile);
  if (hasRunTerms(message.run)) return runMarkerText(message, label);
  if (message.plan === true) return `Plan mode from here: only read-only tools run (${label}), and the agent answers with a plan to approve.`;
  if (message.wanted && message.wanted !== message.profile) {
    return `Runs from here: ${label} (${PROFILE_TEXT[message.wanted]?.label ?? message.wanted} needs a sandbox, and there is none here)`;
  }
  return `Runs from here: ${label}. ${PROFILE_TEXT[message.profile]?.allows ?? ""}`.trim();
}

/**
 * A run's own terms, in a line: "This message in Plan: only read-only tools run (Read-only), …" or "This run: Read-only;
 * unattended (…), within the 5-tool-call budget. …". The chat's own terms are back after it.
 */
function runMarkerText(message: PermissionProfileMessage, label: string): string {
  const run = normalizeRunContract(message.run);
  const caps = run.budget ? BUDGET_CAP_KINDS.filter((kind) => run.budget?.[kind] !== undefined).map((kind) => capName(run.budget!, kind)) : [];
  const parts = [
    ...(run.unattended ? ["unattended (questions parked, denied if unanswered)"] : []),
    ...(caps.length > 0 ? [`within the ${caps.join(" and the ")}`] : []),
  ];
  const rest = parts.length > 0 ? `; ${parts.join(", ")}` : "";
  if (message.plan === true) return `This message in Plan: only read-only tools run (${label}), and the agent answers with a plan to approve${rest}.`;
  const wanted = message.wanted && message.wanted !== message.profile ? ` (${PROFILE_TEXT[message.wanted]?.label ?? message.wanted} needs a sandbox, and there is none here)` : "";
  return `This run: ${label}${wanted}${rest}. The chat's own settings apply again after it.`;
}
