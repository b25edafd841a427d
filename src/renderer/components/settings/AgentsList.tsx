import { useEffect, useState } from "react";
import type { AgentOverview } from "../../../shared/protocol/app-api";
import { useServices } from "../../context/ServicesContext";
import { errorText } from "../../../shared/error-text";
import { DefinitionCard } from "./DefinitionCard";

const SOURCE_LABEL: Record<AgentOverview["agents"][number]["source"], string> = {
  builtin: "Paddock",
  user: "your agents folder",
  "pi-user": "pi (~/.pi/agent/agents)",
  project: "the project",
};

/**
 * The agents a chat's `subagent` tool can hand tasks to: each with what it is for, its tools and where it comes from,
 * and the two folders to add more to (opened by main in the desktop app; shown as paths in the browser host).
 */
export function AgentsList() {
  const { app, folderDialog } = useServices();
  const [overview, setOverview] = useState<AgentOverview | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    app.listAgents().then(setOverview, (e: unknown) => setProblem(errorText(e)));
  }, [app]);
  if (problem) return <div className="notice notice-error" role="alert">{problem}</div>;
  if (!overview) return <div className="muted">Looking for agents…</div>;
  const open = (which: "paddock" | "pi") => app.openAgentsFolder(which).catch((e: unknown) => setProblem(errorText(e)));
  return (
    <div className="agents-list" data-testid="agents-list">
      <ul className="agents">
        {overview.agents.map((a) => (
          <DefinitionCard
            key={a.name}
            testId="agent"
            name={a.name}
            notes={[`from ${SOURCE_LABEL[a.source]}`]}
            description={a.description}
            detail={`Tools: ${a.tools.join(", ")}${a.model ? ` · model ${a.model}` : ""}${a.filePath ? ` · ${a.filePath}` : ""}`}
          />
        ))}
      </ul>
      {overview.problems.length > 0 ? (
        <ul className="agent-problems">{overview.problems.map((p) => <li key={p} className="muted">{p}</li>)}</ul>
      ) : null}
      <div className="agent-folders">
        <div>
          Your agents: <code>{overview.folders.paddock}</code>{" "}
          {/* Only the desktop app can show a folder; the browser host shows its path. */}
          {folderDialog ? <button type="button" className="link-button" onClick={() => void open("paddock")}>Open folder</button> : null}
        </div>
        <div>
          pi's agents: <code>{overview.folders.pi}</code>{" "}
          {folderDialog ? <button type="button" className="link-button" onClick={() => void open("pi")}>Open folder</button> : null}
        </div>
        <p className="muted">A project's own agents (<code>.pi/agents/</code>) run only after you agree, in the chat.</p>
      </div>
    </div>
  );
}
