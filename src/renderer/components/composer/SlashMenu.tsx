import type { PromptTemplateInfo, ResourceSource } from "../../../shared/protocol/skills";

/** Where a template comes from, in a few words. */
export const SOURCE_LABEL: Record<ResourceSource, string> = {
  "pi-user": "pi",
  user: "Paddock",
  "claude-user": "Claude Code",
  "agents-user": "~/.agents",
  project: "this project",
};

interface SlashMenuProps {
  id: string;
  matches: readonly PromptTemplateInfo[];
  /** Index of the highlighted row (the last, when `pending`, may be the agreement row: index matches.length). */
  active: number;
  pending?: { templates: number; skills: number };
  onPick(template: PromptTemplateInfo): void;
  onAgree(): void;
  onHover(index: number): void;
}

/**
 * The composer's `/` menu: the prompt templates matching what is typed, each with its argument hint, description and
 * origin. A listbox the textarea controls (aria-activedescendant), so the focus stays in the message box while the
 * arrow keys move through it.
 */
export function SlashMenu({ id, matches, active, pending, onPick, onAgree, onHover }: SlashMenuProps) {
  return (
    <ul className="slash-menu" id={id} role="listbox" aria-label="Prompt templates" data-testid="slash-menu">
      {matches.map((t, i) => (
        <li key={t.name} id={`${id}-${i}`} role="option" aria-selected={i === active} data-testid="slash-item"
          className={`slash-item${i === active ? " slash-active" : ""}`}
          onMouseDown={(e) => e.preventDefault() /* keep the focus in the textarea */}
          onMouseEnter={() => onHover(i)} onClick={() => onPick(t)}>
          <span className="slash-name">/{t.name}</span>
          <span className="slash-hint">{t.argumentHint ?? ""}</span>
          <span className="slash-description">{t.description}</span>
          <span className="slash-source">{SOURCE_LABEL[t.source]}</span>
        </li>
      ))}
      {matches.length === 0 && !pending ? <li className="slash-empty muted" role="presentation">No prompt template matches</li> : null}
      {pending ? (
        <li id={`${id}-${matches.length}`} role="option" aria-selected={active === matches.length} data-testid="slash-agree"
          className={`slash-item slash-agree${active === matches.length ? " slash-active" : ""}`}
          onMouseDown={(e) => e.preventDefault()} onMouseEnter={() => onHover(matches.length)} onClick={onAgree}>
          <span className="slash-description">
            This project has {describePending(pending)} of its own. Use {pending.templates + pending.skills === 1 ? "it" : "them"}?
            Only for a project you trust: its repository controls what they say.
          </span>
        </li>
      ) : null}
    </ul>
  );
}

function describePending({ templates, skills }: { templates: number; skills: number }): string {
  const parts = [];
  if (templates > 0) parts.push(`${templates} prompt template${templates === 1 ? "" : "s"}`);
  if (skills > 0) parts.push(`${skills} skill${skills === 1 ? "" : "s"}`);
  return parts.join(" and ");
}
