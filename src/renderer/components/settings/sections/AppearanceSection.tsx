import { Field, Group } from "../fields";
import type { SettingsSectionProps } from "./section-props";

/** "Appearance": the theme. */
export function AppearanceSection({ settings, save }: SettingsSectionProps) {
  return (
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
  );
}
