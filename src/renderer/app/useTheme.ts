import { useEffect } from "react";
import type { Theme } from "../../shared/settings/schema";

/**
 * Puts the theme on <html data-theme>. "system" leaves the choice to the stylesheet's `color-scheme: light dark`,
 * so the page follows the OS live without listening for changes here.
 */
export function useTheme(theme: Theme): void {
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
}
