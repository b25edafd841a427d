import { useEffect, useState } from "react";
import type { ResourceSource, SkillsOverview } from "../../../shared/protocol/skills";
import { useServices } from "../../context/ServicesContext";
import { errorText } from "../../../shared/error-text";
import { DefinitionCard } from "./DefinitionCard";

const FROM: Record<ResourceSource, string> = {
  "pi-user": "pi",
  user: "Paddock's folder",
  "claude-user": "Claude Code",
  "agents-user": "~/.agents",
  project: "the project",
};

/**
 * The skills a chat's model is told of and the prompt templates the composer's `/` offers, each with where it comes
 * from (its file), what does not follow the rules, and the files skipped and why; then the folders looked in.
 */
export function SkillsList() {
  const { app } = useServices();
  const [overview, setOverview] = useState<SkillsOverview | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    app.listSkills(null).then(setOverview, (e: unknown) => setProblem(errorText(e)));
  }, [app]);
  if (problem) return <div className="notice notice-error" role="alert">{problem}</div>;
  if (!overview) return <div className="muted">Looking for skills and prompt templates…</div>;
  return (
    <div className="agents-list skills-list" data-testid="skills-list">
      <h3 className="skills-heading">Skills</h3>
      {overview.skills.length === 0 ? <p className="muted">No skills yet. Put a folder with a SKILL.md in one of the folders below.</p> : null}
      <ul className="agents">
        {overview.skills.map((s) => (
          <DefinitionCard
            key={s.location}
            testId="skill"
            name={s.name}
            notes={[`from ${FROM[s.source]}`, s.hidden && "· not offered to the model (only when asked for)"]}
            description={s.description}
            detail={s.location}
          >
            {s.warnings.map((w) => <div key={w} className="skill-warning" data-testid="skill-warning">⚠ {w}</div>)}
          </DefinitionCard>
        ))}
      </ul>
      <h3 className="skills-heading">Prompt templates</h3>
      {overview.templates.length === 0 ? <p className="muted">No prompt templates yet. Put a Markdown file in one of the prompts folders below; /its-name calls it.</p> : null}
      <ul className="agents">
        {overview.templates.map((t) => (
          <DefinitionCard
            key={t.location}
            testId="template"
            name={`/${t.name}`}
            notes={[t.argumentHint, `from ${FROM[t.source]}`]}
            description={t.description}
            detail={t.location}
          />
        ))}
      </ul>
      {overview.problems.length > 0 ? (
        <>
          <h3 className="skills-heading">Skipped</h3>
          <ul className="agent-problems" data-testid="skill-problems">
            {overview.problems.map((p) => <li key={`${p.path}:${p.reason}`} className="muted">{p.path}: {p.reason}</li>)}
          </ul>
        </>
      ) : null}
      <div className="agent-folders">
        <div>Skills are looked for in, first wins:</div>
        {overview.folders.skills.filter((f) => f.source !== "project").map((f) => <code key={f.dir}>{f.dir}</code>)}
        <div>Prompt templates:</div>
        {overview.folders.prompts.filter((f) => f.source !== "project").map((f) => <code key={f.dir}>{f.dir}</code>)}
        <p className="muted">
          A project's own (<code>.pi/skills/</code>, <code>.claude/skills/</code>, <code>.agents/skills/</code>,{" "}
          <code>.pi/prompts/</code>) are used only after you agree, from the chat's <code>/</code> menu.
        </p>
      </div>
    </div>
  );
}
