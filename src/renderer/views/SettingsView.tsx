import { useEffect, useMemo, useRef, useState, type MutableRefObject, type ReactNode } from "react";
import type { ModelOption, ProviderStatus } from "../../shared/protocol/app-api";
import type { Settings, SettingsPatch } from "../../shared/settings/schema";
import { useServices } from "../context/ServicesContext";
import { errorText } from "../../shared/error-text";
import { SettingsIndex } from "../components/settings/SettingsIndex";
import { sectionDomId, useSectionSpy } from "../components/settings/useSectionSpy";
import type { SettingsSectionProps } from "../components/settings/sections/section-props";
import { ModelsSection } from "../components/settings/sections/ModelsSection";
import { EndpointsSection } from "../components/settings/sections/EndpointsSection";
import { ChatsSection } from "../components/settings/sections/ChatsSection";
import { BudgetsSection } from "../components/settings/sections/BudgetsSection";
import { ToolsSection } from "../components/settings/sections/ToolsSection";
import { CheckpointsSection } from "../components/settings/sections/CheckpointsSection";
import { AgentsSection } from "../components/settings/sections/AgentsSection";
import { AppearanceSection } from "../components/settings/sections/AppearanceSection";
import { SkillsSection } from "../components/settings/sections/SkillsSection";
import { McpServersSection } from "../components/settings/mcp/McpServersSection";
import { dirtyParts, UnsavedPartsContext, type UnsavedParts } from "../components/settings/unsaved-changes";
import { UnsavedChangesDialog } from "../components/settings/UnsavedChangesDialog";

interface SettingsViewProps {
  settings: Settings;
  models: readonly ModelOption[];
  providerStatus: readonly ProviderStatus[];
  onSettings(settings: Settings): void;
  /** Keys or endpoints changed: the caller reloads provider status and models. */
  onProvidersChanged(): void;
  /** The user asked for the welcome setup: the caller shows it now, whatever is configured. */
  onShowSetup(): void;
  onClose(): void;
  /**
   * Set while Settings is shown: the page leaves Settings through it (`leave` runs at once, or once the user has
   * saved or discarded edits not saved yet, or never if they keep editing).
   */
  leaveGuard?: MutableRefObject<((leave: () => void) => void) | undefined>;
}

/** One section of Settings: its id (in the index's links), its title (heading and index entry), its content. */
interface SettingsSection {
  id: string;
  title: string;
  render(props: SettingsSectionProps): ReactNode;
}

/**
 * Settings' sections, in order: the page and its index are built from this list alone, so a new section is one
 * entry here (its content a component taking SettingsSectionProps, in components/settings/).
 */
const SETTINGS_SECTIONS: readonly SettingsSection[] = [
  { id: "models", title: "Models & keys", render: (p) => <ModelsSection {...p} /> },
  { id: "endpoints", title: "Endpoints", render: (p) => <EndpointsSection {...p} /> },
  { id: "chats", title: "Chats & runs", render: (p) => <ChatsSection {...p} /> },
  { id: "budgets", title: "Budgets", render: (p) => <BudgetsSection {...p} /> },
  { id: "tools", title: "Workspace & tools", render: (p) => <ToolsSection {...p} /> },
  { id: "checkpoints", title: "Checkpoints", render: (p) => <CheckpointsSection {...p} /> },
  { id: "mcp", title: "MCP servers", render: (p) => <McpServersSection {...p} /> },
  { id: "agents", title: "Agents & subagents", render: (p) => <AgentsSection {...p} /> },
  { id: "skills", title: "Skills & prompts", render: (p) => <SkillsSection {...p} /> },
  { id: "appearance", title: "Appearance", render: (p) => <AppearanceSection {...p} /> },
];

/**
 * Every setting, in sections with an index, saved as soon as it changes (main validates; a rejected change is
 * shown above the sections, on screen wherever the user is, and not applied).
 */
export function SettingsView(props: SettingsViewProps) {
  const { settings, models, providerStatus, onSettings, onProvidersChanged, onShowSetup, onClose, leaveGuard } = props;
  const { app } = useServices();
  const [error, setError] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const { current, choose } = useSectionSpy(scrollRef, SETTINGS_SECTIONS.map((s) => s.id));
  const parts = useMemo<UnsavedParts>(() => new Map(), []);
  /** Leaving was asked for while edits are not saved: where to go once the user has answered. */
  const [leaving, setLeaving] = useState<{ leave: () => void } | null>(null);
  const requestLeave = (leave: () => void) => {
    if (dirtyParts(parts).length === 0) leave();
    else setLeaving({ leave });
  };
  const guard = useRef(requestLeave);
  guard.current = requestLeave;
  useEffect(() => {
    if (!leaveGuard) return;
    leaveGuard.current = (leave) => guard.current(leave);
    return () => {
      leaveGuard.current = undefined;
    };
  }, [leaveGuard]);

  const save = async (patch: SettingsPatch): Promise<boolean> => {
    setError(null);
    try {
      onSettings(await app.updateSettings(patch));
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    }
  };
  const saveOrThrow = async (patch: SettingsPatch): Promise<void> => {
    onSettings(await app.updateSettings(patch));
  };
  const sectionProps: SettingsSectionProps = {
    settings, models, providerStatus, save, saveOrThrow, onSettings, onError: setError, onProvidersChanged, onShowSetup,
  };

  return (
    <section className="settings settings-indexed" data-testid="settings-view" aria-labelledby="settings-title">
      <header className="settings-header">
        <h1 id="settings-title" tabIndex={-1}>Settings</h1>
        <button type="button" className="btn btn-secondary" onClick={() => requestLeave(onClose)}>Done</button>
      </header>
      {error ? <div className="notice notice-error" role="alert">{error}</div> : null}
      {leaving ? (
        <UnsavedChangesDialog labels={dirtyParts(parts).map((p) => p.label)}
          onSave={async () => {
            for (const part of dirtyParts(parts)) {
              if (!(await part.save())) {
                setLeaving(null);
                part.show?.();
                return false;
              }
            }
            setLeaving(null);
            leaving.leave();
            return true;
          }}
          onDiscard={() => {
            setLeaving(null);
            leaving.leave();
          }}
          onKeepEditing={() => {
            setLeaving(null);
            dirtyParts(parts)[0]?.show?.();
          }} />
      ) : null}
      <UnsavedPartsContext.Provider value={parts}>
      <div className="settings-scroll" ref={scrollRef} data-testid="settings-scroll">
        <div className="settings-layout">
          <SettingsIndex sections={SETTINGS_SECTIONS} current={current} onChoose={choose} />
          <div className="settings-body">
            {SETTINGS_SECTIONS.map((s) => (
              <section key={s.id} id={sectionDomId(s.id)} className="settings-section" aria-labelledby={`${sectionDomId(s.id)}-title`}>
                <h2 id={`${sectionDomId(s.id)}-title`} tabIndex={-1}>{s.title}</h2>
                {s.render(sectionProps)}
              </section>
            ))}
          </div>
        </div>
      </div>
      </UnsavedPartsContext.Provider>
    </section>
  );
}
