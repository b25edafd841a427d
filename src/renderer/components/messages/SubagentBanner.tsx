import { useEffect, useState } from "react";
import type { SessionCommands } from "../../store/session-view";
import type { SubagentOrigin } from "../../../shared/protocol/session-protocol";
import { useServices } from "../../context/ServicesContext";

/**
 * A subagent's session opened on its own: whose it is (its agent, its parent chat, linked), and that what is sent
 * here goes to this subagent alone: the parent's agent never sees it. Nothing for a user's own chat.
 */
export function SubagentBanner({ commands }: { commands: Pick<SessionCommands, "subagentOrigin"> }) {
  const services = useServices();
  const [origin, setOrigin] = useState<SubagentOrigin | null>(null);
  const [parentTitle, setParentTitle] = useState<string | undefined>(undefined);
  useEffect(() => {
    let live = true;
    setOrigin(null);
    commands.subagentOrigin().then(
      (found) => {
        if (!live || !found) return;
        setOrigin(found);
        services.app.listSessions().then(
          (sessions) => live && setParentTitle(sessions.find((s) => s.id === found.parentSessionId)?.title),
          () => {},
        );
      },
      () => {}, // an older worker, or none: no banner
    );
    return () => {
      live = false;
    };
  }, [commands, services]);
  if (!origin) return null;
  return (
    <div className="subagent-banner" role="note" data-testid="subagent-banner">
      <span>
        A <strong>{origin.agent}</strong> subagent of{" "}
        <button type="button" className="link-button" data-testid="subagent-parent-link"
          onClick={() => void services.app.openSession(origin.parentSessionId, "this-window")}>
          {parentTitle ? `“${parentTitle}”` : "its parent chat"}
        </button>
        . Messages you send here go to this subagent only; they do not reach the parent chat.
      </span>
    </div>
  );
}
