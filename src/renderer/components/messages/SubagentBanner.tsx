import { useEffect, useState } from "react";
import type { SessionCommands } from "../../store/session-view";
import type { SubagentOrigin } from "../../../shared/protocol/session-protocol";
import { useServices } from "../../context/ServicesContext";

/**
 * A subagent's session opened on its own: whose it is (its agent, its parent chat, linked), and that what is sent
 * here goes to this subagent alone: the parent's agent never sees it. Nothing for a user's own chat.
 */
interface SubagentBannerProps {
  commands: Pick<SessionCommands, "subagentOrigin">;
  /** Asked once the worker is connected. */
  connected: boolean;
  /** Opens the parent chat in this window (the App's); absent: main is asked to. */
  onOpenParent?(sessionId: string): void;
}

export function SubagentBanner({ commands, connected, onOpenParent }: SubagentBannerProps) {
  const services = useServices();
  // Kept with the commands it came from: a view that moves on to another chat shows no stale banner.
  const [found, setFound] = useState<{ of: object; origin: SubagentOrigin } | null>(null);
  const [parentTitle, setParentTitle] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (!connected) return;
    let live = true;
    commands.subagentOrigin().then(
      (found) => {
        if (!live || !found) return;
        setFound({ of: commands, origin: found });
        services.app.listSessions().then(
          (sessions) => live && setParentTitle(sessions.find((s) => s.id === found.parentSessionId)?.title),
          () => {},
        );
      },
      () => {}, // an older worker: no banner
    );
    return () => {
      live = false;
    };
  }, [commands, services, connected]);
  const origin = found?.of === commands ? found.origin : null;
  if (!origin) return null;
  return (
    <div className="subagent-banner" role="note" data-testid="subagent-banner">
      <span>
        A <strong>{origin.agent}</strong> subagent of{" "}
        <button type="button" className="link-button" data-testid="subagent-parent-link"
          onClick={() => (onOpenParent ? onOpenParent(origin.parentSessionId) : void services.app.openSession(origin.parentSessionId, "this-window").catch(() => {}))}>
          {parentTitle ? `“${parentTitle}”` : "its parent chat"}
        </button>
        . Messages you send here go to this subagent only; they do not reach the parent chat.
      </span>
    </div>
  );
}
