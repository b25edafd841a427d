import type { ReactNode } from "react";

interface DefinitionCardProps {
  /** The card's test id ("agent", "skill", "template"). */
  testId: string;
  name: string;
  /** Short notes after the name, in order (where it comes from, an argument hint…); absent ones are left out. */
  notes: readonly (string | false | undefined)[];
  description: string;
  /** The line under the description: its tools, its file. */
  detail: string;
  /** Below it all (a skill's warnings). */
  children?: ReactNode;
}

/** One definition a chat can use, as Settings lists them: an agent, a skill or a prompt template. */
export function DefinitionCard({ testId, name, notes, description, detail, children }: DefinitionCardProps) {
  return (
    <li className="agent" data-testid={testId}>
      <div className="agent-head">
        <span className="agent-name">{name}</span>
        {notes.map((note, i) => (note ? <span key={i} className="muted agent-source">{note}</span> : null))}
      </div>
      <div className="agent-description">{description}</div>
      <div className="muted agent-tools">{detail}</div>
      {children}
    </li>
  );
}
