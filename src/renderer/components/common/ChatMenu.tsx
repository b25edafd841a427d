import { useState } from "react";
import { useServices } from "../../context/ServicesContext";
import { SessionMenu } from "../sidebar/SessionItem";
import { saveChatExport } from "./chat-files";

/** The chat header's "⋯" menu: export the chat as Markdown or JSON (find in chat is Ctrl/Cmd+F, named here too). */
export function ChatMenu({ sessionId, onFind, onError }: { sessionId: string; onFind(): void; onError(error: unknown): void }) {
  const services = useServices();
  const [open, setOpen] = useState(false);
  const exportAs = (format: "markdown" | "json") => void saveChatExport(services, sessionId, format).catch(onError);
  return (
    <div className="chat-menu">
      <button type="button" className="icon-button" aria-label="Chat actions" aria-haspopup="menu" aria-expanded={open}
        onClick={() => setOpen((o) => !o)} data-testid="chat-menu">⋯</button>
      {open ? (
        <SessionMenu onClose={() => setOpen(false)} items={[
          ["Find in chat", onFind],
          ["Export as Markdown", () => exportAs("markdown")],
          ["Export as JSON", () => exportAs("json")],
        ]} />
      ) : null}
    </div>
  );
}
