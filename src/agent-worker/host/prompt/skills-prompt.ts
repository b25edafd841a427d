/**
 * The system prompt's list of skills, as pi-coding-agent 1.6.0 writes it (`formatSkillsForPrompt`, the Agent Skills
 * standard's `<available_skills>`): each skill's name, description and location, and how to load one. The model
 * reads a skill's file itself when a task matches; main listed only skills it may use, and their folders are readable
 * to its file tools (SkillListing).
 */

export interface ListedSkill {
  name: string;
  description: string;
  /** Absolute path of the SKILL.md. */
  location: string;
}

/**
 * The section, starting with a blank line, or "" when there is no skill or no tool to read one with (as pi: `read`
 * named when the agent has it, else `bash`).
 */
export function skillsSection(skills: readonly ListedSkill[], tools: ReadonlySet<string>): string {
  const reader = tools.has("read") ? "read" : tools.has("bash") ? "bash" : undefined;
  if (skills.length === 0 || reader === undefined) return "";
  const lines = [
    "\n\nThe following skills provide specialized instructions for specific tasks.",
    reader === "read"
      ? "Use the read tool to load a skill's file when the task matches its description."
      : "Use bash to load a skill's file when the task matches its description.",
    "Resolve relative paths against the skill's directory (parent of SKILL.md). Use absolute paths in tool calls.",
    "",
    "<available_skills>",
  ];
  for (const skill of skills) {
    lines.push("  <skill>");
    lines.push(`    <name>${escapeXml(skill.name)}</name>`);
    lines.push(`    <description>${escapeXml(skill.description)}</description>`);
    lines.push(`    <location>${escapeXml(skill.location)}</location>`);
    lines.push("  </skill>");
  }
  lines.push("</available_skills>");
  return lines.join("\n");
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
}
