import { useState } from "react";
import { useServices } from "../../context/ServicesContext";
import { SessionMenu } from "../sidebar/SessionItem";
import { saveChatExport } from "./chat-files";
import { ScheduleEditor } from "../schedules/ScheduleEditor";
import { newForm } from "../schedules/schedule-form";

/**
 * The chat header's "⋯" menu: export the chat as Markdown or JSON (find in chat is Ctrl/Cmd+F, named here too), and
 * "Schedule…" (components/schedules: a schedule in this chat's workspace, which may continue this chat).
 */
export function ChatMenu({ sessionId, title, workspace, onFind, onError }: { sessionId: string; title?: string; workspace?: string; onFind(): void; onError(error: unknown): void }) {
  const services = useServices();
  const [open, setOpen] = useState(false);
  const [scheduling, setScheduling] = useState(false);
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
          ["Schedule…", () => setScheduling(true)],
        ]} />
      ) : null}
      {scheduling ? (
        <ScheduleEditor initial={newForm(crypto.randomUUID(), Date.now(), workspace ?? "")} chat={{ id: sessionId, title: title ?? "This chat" }}
          onSaved={() => setScheduling(false)} onCancel={() => setScheduling(false)} />
      ) : null}
    </div>
  );
}
