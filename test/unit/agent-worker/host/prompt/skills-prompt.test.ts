/**
 * The system prompt's skills, as pi-coding-agent 1.6.0 writes them (its formatSkillsForPrompt tests): the intro, the
 * XML with name, description and location, escaped; `bash` named when there is no `read`; nothing without skills or
 * a tool to read them with. In a chat's prompt it is pi's `<skills>` section, after the project context and before the working folder.
 */
import { describe, expect, it } from "vitest";
import { skillsSection } from "../../../../../src/agent-worker/host/prompt/skills-prompt";
import { workspacePrompt } from "../../../../../src/agent-worker/host/prompt/system-prompt";

const PDF = { name: "test-skill", description: "A test skill.", location: "/path/to/skill/SKILL.md" };

describe("skillsSection", () => {
  it("is pi's text: intro, then <available_skills>", () => {
    expect(skillsSection([PDF], new Set(["read", "bash"]))).toBe(
      [
        "",
        "",
        "The following skills provide specialized instructions for specific tasks.",
        "Use the read tool to load a skill's file when the task matches its description.",
        "Resolve relative paths against the skill's directory (parent of SKILL.md). Use absolute paths in tool calls.",
        "",
        "<available_skills>",
        "  <skill>",
        "    <name>test-skill</name>",
        "    <description>A test skill.</description>",
        "    <location>/path/to/skill/SKILL.md</location>",
        "  </skill>",
        "</available_skills>",
      ].join("\n"),
    );
  });

  it("escapes XML's special characters", () => {
    const text = skillsSection([{ ...PDF, description: 'A skill with <special> & "characters" \'here\'.' }], new Set(["read"]));
    expect(text).toContain("<description>A skill with &lt;special&gt; &amp; &quot;characters&quot; &apos;here&apos;.</description>");
  });

  it("names bash when the agent has no read tool, and is empty with neither or with no skills", () => {
    expect(skillsSection([PDF], new Set(["bash"]))).toContain("Use bash to load a skill's file when the task matches its description.");
    expect(skillsSection([PDF], new Set(["grep"]))).toBe("");
    expect(skillsSection([], new Set(["read"]))).toBe("");
  });

  it("is the <skills> section, after the project context and before the working folder, in a chat's prompt", () => {
    const prompt = workspacePrompt({
      tools: [{ name: "read", snippet: "Read files" }],
      workspace: "/ws",
      contextFiles: [{ path: "/ws/AGENTS.md", content: "Be brief." }],
      skills: [PDF],
    });
    const context = prompt.indexOf("Be brief.");
    const skills = prompt.indexOf("<skills>\nThe following skills provide specialized instructions");
    const cwd = prompt.indexOf("<cwd>\n/ws\n</cwd>");
    expect(context).toBeGreaterThan(-1);
    expect(skills).toBeGreaterThan(context);
    expect(cwd).toBeGreaterThan(skills);
  });
});
