import { SkillsList } from "../SkillsList";
import { Group } from "../fields";
import type { SettingsSectionProps } from "./section-props";

/** "Skills & prompts": the skills chats' models may load, and the prompt templates `/` offers in the composer. */
export function SkillsSection(_props: SettingsSectionProps) {
  return (
    <Group description="Skills are instructions a model loads when a task matches (it is told each one's name and description, and reads the rest itself). Prompt templates are messages you call with /name in the composer. pi's and Claude Code's are used as they are.">
      <SkillsList />
    </Group>
  );
}
