import { useServices } from "../../../context/ServicesContext";
import { Check, Field, Group } from "../fields";
import type { SettingsSectionProps } from "./section-props";

/** "Appearance": the theme, and (in the desktop app, whose main runs the spell checker) spelling. */
export function AppearanceSection({ settings, save }: SettingsSectionProps) {
  const { spellChecker } = useServices();
  return (
    <>
      <Group>
        <Field label="Theme" htmlFor="set-theme">
          <div className="segmented" role="radiogroup" aria-label="Theme" id="set-theme">
            {(["system", "light", "dark"] as const).map((t) => (
              <label key={t} className={settings.theme === t ? "selected" : undefined}>
                <input type="radio" name="theme" value={t} checked={settings.theme === t}
                  onChange={() => void save({ theme: t })} data-testid={`theme-${t}`} />
                {t[0].toUpperCase() + t.slice(1)}
              </label>
            ))}
          </div>
        </Field>
      </Group>
      {spellChecker ? (
        <Group title="Spelling" description="On Windows and Linux, checking spelling downloads your language's dictionary from Google's servers once; macOS uses its own.">
          <Check label="Check spelling as I type" checked={settings.spellCheck === true}
            onChange={(v) => void save({ spellCheck: v })} />
        </Group>
      ) : null}
    </>
  );
}
