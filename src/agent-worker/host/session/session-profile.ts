/**
 * The permission profile a session asks for (shared/protocol/permission-profiles.ts): a user's chat, its own choice
 * else Settings' default; a subagent's, never wider than its launch's (its parent's, narrowed by its definition:
 * main/broker/subagent-runs.ts), its own window only narrowing it. In Plan mode (shared/agent/plan-mode.ts) any of
 * them is Read-only, whatever the act profile.
 */
import type { SubagentSetup, WorkerSettings } from "../../../shared/protocol/control-protocol";
import { DEFAULT_PROFILE, narrowest, type PermissionProfile } from "../../../shared/protocol/permission-profiles";
import { PLAN_PROFILE } from "../../../shared/agent/plan-mode";

export function sessionProfile(
  subagent: Pick<SubagentSetup, "profile"> | undefined,
  own: PermissionProfile | undefined,
  settings: Pick<WorkerSettings, "defaultProfile">,
  plan = false,
): PermissionProfile {
  if (plan) return PLAN_PROFILE;
  // A launch that does not say (kept by an older Paddock) counts as Ask, never as Settings' default.
  if (subagent) return narrowest(subagent.profile ?? DEFAULT_PROFILE, own);
  return own ?? settings.defaultProfile ?? DEFAULT_PROFILE;
}
