import { FileIcon, FolderIcon } from "../common/icons";
import type { MentionRow } from "./useMentionMenu";

interface MentionMenuProps {
  id: string;
  entries: readonly MentionRow[];
  active: number;
  /** Shown instead of entries: why the files cannot be listed, or that nothing matches. */
  note?: string;
  onPick(entry: MentionRow): void;
  onHover(index: number): void;
}

/**
 * The composer's `@` menu: the workspace's files and folders matching what follows the `@`, best first, each with
 * its folder in a lighter tone. A listbox the textarea controls (aria-activedescendant), as the `/` menu is: the
 * focus stays in the message box while the arrows move through it.
 */
export function MentionMenu({ id, entries, active, note, onPick, onHover }: MentionMenuProps) {
  return (
    <ul className="slash-menu mention-menu" id={id} role="listbox" aria-label="Workspace files" data-testid="mention-menu">
      {entries.map((entry, i) => {
        if (entry.kind === "resource") {
          const r = entry.resource;
          return (
            <li key={`mcp:${r.serverId}:${r.uri}`} id={`${id}-${i}`} role="option" aria-selected={i === active} data-testid="mention-resource"
              data-uri={r.uri} className={`slash-item mention-item${i === active ? " slash-active" : ""}`}
              onMouseDown={(e) => e.preventDefault()} onMouseEnter={() => onHover(i)} onClick={() => onPick(entry)}>
              <span className="mention-icon" aria-hidden="true"><FileIcon /></span>
              <span className="mention-name">{r.name}</span>
              <span className="mention-folder" dir="ltr" title={r.uri}>MCP · {r.serverName}</span>
            </li>
          );
        }
        const slash = entry.path.lastIndexOf("/");
        return (
          <li key={`${entry.kind}:${entry.path}`} id={`${id}-${i}`} role="option" aria-selected={i === active} data-testid="mention-item"
            data-path={entry.path} className={`slash-item mention-item${i === active ? " slash-active" : ""}`}
            onMouseDown={(e) => e.preventDefault() /* keep the focus in the textarea */}
            onMouseEnter={() => onHover(i)} onClick={() => onPick(entry)}>
            <span className="mention-icon" aria-hidden="true">{entry.kind === "folder" ? <FolderIcon /> : <FileIcon />}</span>
            <span className="mention-name">{entry.path.slice(slash + 1)}{entry.kind === "folder" ? "/" : ""}</span>
            <span className="mention-folder" dir="ltr">{slash > 0 ? entry.path.slice(0, slash) : ""}</span>
          </li>
        );
      })}
      {note ? <li className="slash-empty muted" role="presentation" data-testid="mention-note">{note}</li> : null}
    </ul>
  );
}
