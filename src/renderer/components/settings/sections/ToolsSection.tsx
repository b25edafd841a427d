import { useState } from "react";
import { MAX_SHELL_PREFIX_CHARS, type Settings, type ToolPolicy } from "../../../../shared/settings/schema";
import { Field, Group, NumberField } from "../fields";
import type { SettingsSectionProps } from "./section-props";
import { ProjectGrantsList } from "../../project/ProjectGrantsList";
import { PROFILE_MENU_ORDER, PROFILE_TEXT, type PermissionProfile } from "../../../../shared/protocol/permission-profiles";

/** The workspace tools, as Settings list them: name and what it does. */
const WORKSPACE_TOOLS: [string, string][] = [
  ["read", "Reads a file."],
  ["ls", "Lists a folder."],
  ["find", "Finds files by name."],
  ["grep", "Searches file contents."],
  ["write", "Creates or overwrites a file."],
  ["edit", "Changes part of a file."],
  ["bash", "Runs a shell command (in a sandbox where the system has one; elsewhere it always asks)."],
  ["worktree", "Applies an isolated subagent task's changes to the workspace, or keeps or discards its worktree."],
];

/** "Workspace & tools": what the workspace tools may do without asking, the shell's network and prefix, how calls run. */
export function ToolsSection({ settings, save, onError }: SettingsSectionProps) {
  const [domainsDraft, setDomainsDraft] = useState<string | null>(null);
  const [prefixDraft, setPrefixDraft] = useState<string | null>(null);
  return (
    <>
      <Group title="Approval" description="What an agent may do in its chat's workspace folder without asking you first. Anything else waits for your answer in the chat.">
        {WORKSPACE_TOOLS.map(([tool, what]) => (
          <Field key={tool} label={tool} htmlFor={`set-tool-${tool}`} hint={what}>
            <select id={`set-tool-${tool}`} value={settings.tools.approval[tool] ?? "ask"} data-testid={`tool-policy-${tool}`}
              onChange={(e) => void save({ tools: { approval: { [tool]: e.target.value as ToolPolicy } } })}>
              <option value="allow">Runs without asking</option>
              <option value="ask">Asks first</option>
            </select>
          </Field>
        ))}
        <NumberField id="set-approval-timeout" label="Unanswered questions are denied after (minutes)" min={1} max={1440}
          hint="While no window shows the chat, and always in a scheduled run (its questions are parked): the agent is told nobody answered."
          value={settings.tools.approvalTimeoutMinutes} onError={onError}
          invalid="The time to answer must be a whole number of minutes from 1 to 1440."
          commit={(minutes) => save({ tools: { approvalTimeoutMinutes: minutes } })} />
        <Field label="Permissions of new chats" htmlFor="set-default-profile"
          hint={`${PROFILE_TEXT[settings.tools.defaultProfile ?? "ask"].allows} A chat can choose its own in its header. Sandboxed auto runs as Ask where commands have no sandbox.`}>
          <select id="set-default-profile" value={settings.tools.defaultProfile ?? "ask"} data-testid="default-profile"
            onChange={(e) => void save({ tools: { defaultProfile: e.target.value as PermissionProfile } })}>
            {PROFILE_MENU_ORDER.map((p) => <option key={p} value={p}>{PROFILE_TEXT[p].label}</option>)}
          </select>
        </Field>
      </Group>

      <Group title="Allowed in projects" description="What runs without asking in every chat of a workspace folder, exactly as shown: a tool, a whole command, a host commands may reach. Remove one and chats there ask again.">
        <ProjectGrantsList sessionId={null} />
      </Group>

      <Group title="Running tools">
        <Field label="Hosts shell commands may reach" htmlFor="set-domains"
          hint="One per line (*.example.com for its subdomains). Commands run in a sandbox with no other network access.">
          <textarea id="set-domains" rows={3} value={domainsDraft ?? settings.tools.allowedDomains.join("\n")}
            placeholder="registry.npmjs.org" spellCheck={false} data-testid="allowed-domains"
            onChange={(e) => setDomainsDraft(e.target.value)}
            onBlur={() => {
              if (domainsDraft === null) return;
              const domains = domainsDraft.split(/\s+/).map((d) => d.trim()).filter(Boolean);
              void save({ tools: { allowedDomains: domains } }).then((ok) => ok && setDomainsDraft(null));
            }} />
        </Field>
        <Field label="Shell command prefix" htmlFor="set-shell-prefix"
          hint="Shell lines run before every command, as pi's shellCommandPrefix: shopt -s expand_aliases lets commands use your aliases. They run in the sandbox, like the command.">
          <textarea id="set-shell-prefix" rows={2} value={prefixDraft ?? settings.tools.shellCommandPrefix ?? ""}
            placeholder="shopt -s expand_aliases" spellCheck={false} maxLength={MAX_SHELL_PREFIX_CHARS} data-testid="shell-command-prefix"
            onChange={(e) => setPrefixDraft(e.target.value)}
            onBlur={() => {
              if (prefixDraft === null) return;
              void save({ tools: { shellCommandPrefix: prefixDraft.trim() ? prefixDraft : "" } }).then((ok) => ok && setPrefixDraft(null));
            }} />
        </Field>
        <Field label="Tool execution" htmlFor="set-tools" hint="Whether the tool calls of one model reply run together or one after another.">
          <select id="set-tools" value={settings.toolExecution}
            onChange={(e) => void save({ toolExecution: e.target.value as Settings["toolExecution"] })}>
            <option value="parallel">Parallel</option>
            <option value="sequential">Sequential</option>
          </select>
        </Field>
      </Group>
    </>
  );
}
