import type { PromptTemplateInfo, ResourceSource } from "../../../shared/protocol/skills";
import type { McpPromptInfo } from "../../../shared/protocol/mcp-host-protocol";

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
  /** MCP servers' prompts, listed after the templates (their rows' indexes follow the templates'). */
  mcpMatches?: readonly McpPromptInfo[];
  /**
   * Index of the highlighted row: templates, then MCP prompts; the last, when `pending`, may be the agreement row
   * (index matches.length + mcpMatches.length).
   */
  active: number;
  pending?: { templates: number; skills: number };
  onPick(template: PromptTemplateInfo): void;
  onPickMcp?(prompt: McpPromptInfo): void;
  onAgree(): void;
  onHover(index: number): void;
}

/**
 * The composer's `/` menu: the prompt templates matching what is typed, each with its argument hint, description and
 * origin. A listbox the textarea controls (aria-activedescendant), so the focus stays in the message box while the
 * arrow keys move through it.
 */
export function SlashMenu({ id, matches, mcpMatches = [], active, pending, onPick, onPickMcp, onAgree, onHover }: SlashMenuProps) {
  const agreeAt = matches.length + mcpMatches.length;
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
      {mcpMatches.map((p, j) => {
        const i = matches.length + j;
        return (
          <li key={`mcp:${p.serverId}:${p.name}`} id={`${id}-${i}`} role="option" aria-selected={i === active} data-testid="slash-mcp-item"
            className={`slash-item${i === active ? " slash-active" : ""}`}
            onMouseDown={(e) => e.preventDefault()} onMouseEnter={() => onHover(i)} onClick={() => onPickMcp?.(p)}>
            <span className="slash-name">/{p.name}</span>
            <span className="slash-hint">{p.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(" ")}</span>
            <span className="slash-description">{p.title && p.title !== p.name ? `${p.title}${p.description ? ": " : ""}` : ""}{p.description ?? ""}</span>
            <span className="slash-source" title={`A prompt of the MCP server ${p.serverName}`}>MCP · {p.serverName}</span>
          </li>
        );
      })}
      {agreeAt === 0 && !pending ? <li className="slash-empty muted" role="presentation">No prompt template matches</li> : null}
      {pending ? (
        <li id={`${id}-${agreeAt}`} role="option" aria-selected={active === agreeAt} data-testid="slash-agree"
          className={`slash-item slash-agree${active === agreeAt ? " slash-active" : ""}`}
          onMouseDown={(e) => e.preventDefault()} onMouseEnter={() => onHover(agreeAt)} onClick={onAgree}>
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
