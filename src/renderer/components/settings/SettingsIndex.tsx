import { useEffect, useRef } from "react";
import { sectionDomId } from "./useSectionSpy";

interface SettingsIndexProps {
  sections: readonly { id: string; title: string }[];
  /** The section the reader is in: marked aria-current and highlighted. */
  current: string | undefined;
  onChoose(id: string): void;
}

/**
 * The side index of Settings' sections (a strip along the top in a narrow window): a nav landmark of real links,
 * so Tab reaches them and Enter follows them.
 */
export function SettingsIndex({ sections, current, onChoose }: SettingsIndexProps) {
  const list = useRef<HTMLUListElement>(null);

  // In the narrow strip the current link may be scrolled out sideways: bring it in, without moving the page.
  useEffect(() => {
    const strip = list.current;
    const link = strip?.querySelector<HTMLElement>("[aria-current]");
    if (!strip || !link || strip.scrollWidth <= strip.clientWidth) return;
    const left = link.offsetLeft; // the list is positioned: its links' offsets are within it
    if (left < strip.scrollLeft) strip.scrollLeft = left - 8;
    else if (left + link.offsetWidth > strip.scrollLeft + strip.clientWidth) strip.scrollLeft = left + link.offsetWidth - strip.clientWidth + 8;
  }, [current]);

  return (
    <nav className="settings-index" aria-label="Settings sections" data-testid="settings-index">
      <ul ref={list}>
        {sections.map((s) => (
          <li key={s.id}>
            <a href={`#${sectionDomId(s.id)}`} aria-current={current === s.id ? "true" : undefined}
              onClick={(e) => {
                e.preventDefault();
                onChoose(s.id);
              }}>
              {s.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
