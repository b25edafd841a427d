import { AgentsList } from "../AgentsList";
import { Group, NumberField } from "../fields";
import type { SettingsSectionProps } from "./section-props";

/** "Agents & subagents": how many subagents run at once, and the agents a chat's agent can hand tasks to. */
export function AgentsSection({ settings, save, onError }: SettingsSectionProps) {
  return (
    <Group description="Agents a chat's agent can hand tasks to (the subagent tool, in chats with a workspace). Each runs in a process of its own, under the same approval rules.">
      <NumberField id="set-max-subagents" testId="max-subagents" label="Subagents running at once, across all chats" min={1} max={32}
        hint="Each chat runs at most 4 at once; more wait their turn."
        value={settings.tools.maxSubagents} onError={onError}
        invalid="Subagents at once must be a whole number from 1 to 32."
        commit={(count) => save({ tools: { maxSubagents: count } })} />
      <AgentsList />
    </Group>
  );
}
