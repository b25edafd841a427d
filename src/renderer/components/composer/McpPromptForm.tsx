import { useEffect, useRef, useState } from "react";
import type { McpPromptInfo } from "../../../shared/protocol/mcp-host-protocol";
import { promptArguments } from "./slash-menu";

interface McpPromptFormProps {
  prompt: McpPromptInfo;
  /** Fetching the prompt: the form waits. */
  busy: boolean;
  onInsert(args: Record<string, string>): void;
  onCancel(): void;
}

/**
 * Asks for an MCP prompt's arguments when the user chose it in the `/` menu: one field each (required ones marked),
 * Enter or Insert fetches the prompt into the message box, Esc or Cancel goes back to the box. The user opened it, so
 * its first field takes the focus; closing gives it back to the box (the composer does).
 */
export function McpPromptForm({ prompt, busy, onInsert, onCancel }: McpPromptFormProps) {
  const [values, setValues] = useState<Record<string, string>>({});
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const args = promptArguments(prompt, values);
  return (
    <form className="slash-menu mcp-prompt-form" data-testid="mcp-prompt-form" aria-label={`Arguments of /${prompt.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        if (args && !busy) onInsert(args);
      }}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          e.stopPropagation();
          onCancel();
        }
      }}>
      <div className="mcp-prompt-title">
        <span className="slash-name">/{prompt.name}</span> <span className="slash-source">MCP · {prompt.serverName}</span>
        {prompt.description ? <div className="slash-description">{prompt.description}</div> : null}
      </div>
      {prompt.arguments.map((a, i) => (
        <label key={a.name} className="mcp-prompt-field">
          <span>{a.name}{a.required ? " (required)" : ""}</span>
          <input ref={i === 0 ? first : undefined} value={values[a.name] ?? ""} placeholder={a.description ?? ""} required={a.required}
            onChange={(e) => setValues((v) => ({ ...v, [a.name]: e.target.value }))} data-testid="mcp-prompt-argument" />
        </label>
      ))}
      <div className="mcp-prompt-actions">
        <button type="button" className="btn btn-ghost" onClick={onCancel}>Cancel</button>
        <button type="submit" className="btn btn-primary" disabled={!args || busy}>{busy ? "Fetching…" : "Insert"}</button>
      </div>
    </form>
  );
}
