import { memo, useEffect, useRef, useState } from "react";
import {
  effectiveProfile, PROFILE_MENU_ORDER, PROFILE_TEXT, type PermissionProfile,
} from "../../../shared/protocol/permission-profiles";
import { errorText } from "../../../shared/error-text";
import { usePopoverDismiss } from "../common/use-popover-dismiss";

export interface ProfilePickerProps {
  /** The chat's own choice; absent: Settings' default applies. */
  chosen: PermissionProfile | undefined;
  /** Settings' default profile. */
  settingsDefault: PermissionProfile | undefined;
  /** Whether the chat's commands run in a sandbox (undefined: not known yet, or no workspace). */
  sandboxed: boolean | undefined;
  /** Choosing a profile (it also ends Plan mode). */
  onChange(profile: PermissionProfile): Promise<void>;
  /** Whether the chat is in Plan mode (agent/plan-mode.ts): its runs go under Read-only and propose a plan. */
  plan?: boolean;
  /** Puts the chat in Plan mode; absent: Plan is not offered here. */
  onPlan?(on: boolean): Promise<void>;
}

/**
 * The chat header's permission profile (issue 27 §2): a button naming the profile the chat runs under opens a group of
 * radio buttons, one per profile, each saying what it allows (arrow keys move between them and choose, Esc closes and
 * gives the focus back). Sandboxed auto is offered only where commands run in a sandbox; a chat saved with it where
 * there is none says it runs under Ask. Plan mode shows here too ("Plan", its own radio): choosing it keeps the act
 * profile for when the plan is approved. The worker enforces the choice; this only shows and sends it.
 */
export const ProfilePicker = memo(function ProfilePicker({ chosen, settingsDefault, sandboxed, onChange, plan = false, onPlan }: ProfilePickerProps) {
  const [open, setOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const onPanelKey = usePopoverDismiss(open, root, () => setOpen(false));
  const wanted = chosen ?? settingsDefault ?? "ask";
  const { profile, fallback } = effectiveProfile(chosen, settingsDefault, sandboxed);
  const offered = PROFILE_MENU_ORDER.filter((p) => p !== "sandboxed-auto" || sandboxed === true);

  useEffect(() => {
    if (!open) return;
    setFailure(null);
    // The focus goes to the chosen profile's radio, where the arrow keys move through them.
    root.current?.querySelector<HTMLInputElement>("input[type=radio]:checked, input[type=radio]")?.focus();
  }, [open]);

  const pick = (next: PermissionProfile) => {
    setFailure(null);
    onChange(next).catch((e: unknown) => setFailure(errorText(e)));
  };

  const pickPlan = () => {
    setFailure(null);
    onPlan?.(true).catch((e: unknown) => setFailure(errorText(e)));
  };

  const label = plan ? "Plan" : PROFILE_TEXT[profile].label;
  const allows = plan ? PLAN_ALLOWS : fallback ?? PROFILE_TEXT[profile].allows;
  return (
    <div className="profile-picker" ref={root}>
      <button type="button" className={`btn btn-ghost profile-picker-button profile-${plan ? "plan" : profile}`} onClick={() => setOpen((o) => !o)}
        aria-expanded={open} aria-haspopup="dialog" aria-label={`Permissions: ${label}`} data-testid="profile-picker"
        title={`Permissions: ${label}. ${allows}`}>
        <ShieldIcon />
        <span className="profile-picker-label">{label}</span>
        {fallback && !plan ? <span className="profile-picker-warn" aria-hidden="true">!</span> : null}
      </button>
      {open ? (
        <div className="chat-settings-panel profile-picker-panel" role="dialog" aria-label="Permissions for this chat" data-testid="profile-panel" onKeyDown={onPanelKey}>
          <fieldset className="profile-options">
            <legend className="chat-settings-label">What the agent may do without asking</legend>
            {offered.map((p) => (
              <label key={p} className={`profile-option${!plan && p === wanted ? " profile-option-chosen" : ""}`} data-testid={`profile-option-${p}`}>
                <input type="radio" name="permission-profile" value={p} checked={!plan && p === wanted} onChange={() => pick(p)}
                  aria-describedby={`profile-allows-${p}`} />
                <span className="profile-option-text">
                  <span className="profile-option-name">{PROFILE_TEXT[p].label}{p === (settingsDefault ?? "ask") ? <span className="profile-option-default"> (default)</span> : null}</span>
                  <span className="field-hint" id={`profile-allows-${p}`}>{PROFILE_TEXT[p].allows}</span>
                </span>
              </label>
            ))}
            {onPlan ? (
              <label className={`profile-option${plan ? " profile-option-chosen" : ""}`} data-testid="profile-option-plan">
                <input type="radio" name="permission-profile" value="plan" checked={plan} onChange={pickPlan} aria-describedby="profile-allows-plan" />
                <span className="profile-option-text">
                  <span className="profile-option-name">Plan</span>
                  <span className="field-hint" id="profile-allows-plan">{PLAN_ALLOWS} Approving returns to {PROFILE_TEXT[wanted].label}.</span>
                </span>
              </label>
            ) : null}
          </fieldset>
          {fallback ? <div className="notice notice-warning" role="status" data-testid="profile-fallback">{fallback}</div> : null}
          {sandboxed !== true ? (
            <span className="field-hint">Sandboxed auto is not offered: this chat's commands run in no sandbox.</span>
          ) : null}
          <span className="field-hint">The agent's own calls are checked against this in its process, and its subagents never get more. New chats start with Settings' default (Workspace &amp; tools).</span>
          {failure ? <div className="notice notice-error" role="alert">{failure}</div> : null}
        </div>
      ) : null}
    </div>
  );
});

/** What Plan mode allows, in a line. */
const PLAN_ALLOWS = "Only read-only tools run, and the agent answers with a plan to approve (Shift+Tab in the message box switches).";

function ShieldIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d="M12 3l7 3v5c0 4.5-3 8.2-7 10-4-1.8-7-5.5-7-10V6l7-3z" />
    </svg>
  );
}
