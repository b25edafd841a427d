/**
 * "What the agent was told": the briefing shows the prompt the chat's requests carry (the one `chatPrompt` builds for
 * the Agent) and names its parts apart: Paddock's coding prompt, the user's instructions added to it (never in its
 * place), a subagent's, the project's AGENTS.md files with their paths, the skills.
 */
import { describe, expect, it } from "vitest";
import { agentBriefing, chatPrompt, type PromptInputs } from "../../../../../src/agent-worker/host/prompt/agent-briefing";
import { PADDOCK_PREAMBLE } from "../../../../../src/agent-worker/host/prompt/system-prompt";
import { PLAN_MODE_PROMPT } from "../../../../../src/shared/agent/plan-mode";

const parts: NonNullable<PromptInputs["parts"]> = {
  tools: [{ name: "read", snippet: "Read file contents" }, { name: "bash", snippet: "Execute bash commands" }],
  workspace: "/work/app",
  contextFiles: [{ path: "/work/app/AGENTS.md", content: "Use tabs." }],
  skills: [{ name: "deploy", description: "Deploys it.", location: "/home/u/.claude/skills/deploy/SKILL.md" }],
};

describe("agentBriefing", () => {
  it("names each part of a workspace chat's prompt, and the prompt is the one the Agent gets", () => {
    const inputs: PromptInputs = { parts, instructions: { from: "settings", text: "Answer in French." }, contextSkipped: ["/work/CLAUDE.md: not read (a FIFO)"] };
    const briefing = agentBriefing(inputs);
    expect(briefing.systemPrompt).toBe(chatPrompt(inputs));
    expect(briefing.workspace).toBe("/work/app");
    expect(briefing.base!.startsWith(PADDOCK_PREAMBLE)).toBe(true);
    expect(briefing.base).toContain("<tools>\n- read: Read file contents\n- bash: Execute bash commands");
    expect(briefing.base).toContain("Work only inside the working directory");
    expect(briefing.base).not.toContain("Answer in French.");
    expect(briefing.instructions).toEqual({ from: "settings", text: "Answer in French." });
    expect(briefing.systemPrompt).toContain("<user_instructions>\nAnswer in French.\n</user_instructions>");
    expect(briefing.systemPrompt).toContain("<tools>");
    expect(briefing.contextFiles).toEqual([{ path: "/work/app/AGENTS.md", content: "Use tabs." }]);
    expect(briefing.systemPrompt).toContain('<project_instructions path="/work/app/AGENTS.md">\nUse tabs.\n</project_instructions>');
    expect(briefing.contextSkipped).toEqual(["/work/CLAUDE.md: not read (a FIFO)"]);
    expect(briefing.skills).toEqual([{ name: "deploy", description: "Deploys it.", location: "/home/u/.claude/skills/deploy/SKILL.md" }]);
    expect(briefing.agentInstructions).toBeUndefined();
  });

  it("a chat's own instructions say so, and blank ones are none", () => {
    expect(agentBriefing({ parts, instructions: { from: "chat", text: "Be brief." } }).instructions).toEqual({ from: "chat", text: "Be brief." });
    const blank = agentBriefing({ parts, instructions: { from: "chat", text: "  " } });
    expect(blank.instructions).toBeUndefined();
    expect(blank.systemPrompt).not.toContain("<user_instructions>");
  });

  it("without a workspace: no coding prompt, the instructions are the whole prompt (or nothing)", () => {
    expect(agentBriefing({ instructions: { from: "settings", text: "Be kind." } })).toEqual({
      systemPrompt: "Be kind.", instructions: { from: "settings", text: "Be kind." }, contextFiles: [], contextSkipped: [], skills: [],
    });
    expect(agentBriefing({}).systemPrompt).toBe("");
  });

  it("a subagent's definition is appended, and named apart", () => {
    const briefing = agentBriefing({ parts, addendum: "You review diffs." });
    expect(briefing.agentInstructions).toBe("You review diffs.");
    expect(briefing.systemPrompt).toContain("<addendum>\nYou review diffs.\n</addendum>");
    expect(chatPrompt({ addendum: "You review diffs." })).toBe("You review diffs.");
  });

  it("Plan mode adds its part after the rules, never in the coding prompt's place; only in Plan mode", () => {
    const inputs: PromptInputs = { parts, instructions: { from: "chat", text: "Be brief." } };
    const acting = agentBriefing(inputs);
    expect(acting.planMode).toBeUndefined();
    expect(acting.systemPrompt).not.toContain("<plan_mode>");
    const planning = agentBriefing({ ...inputs, plan: true });
    expect(planning.planMode).toBe(PLAN_MODE_PROMPT);
    const prompt = planning.systemPrompt;
    expect(prompt).toBe(chatPrompt({ ...inputs, plan: true }));
    expect(prompt).toContain(`<plan_mode>\n${PLAN_MODE_PROMPT}\n</plan_mode>`);
    expect(prompt.startsWith(PADDOCK_PREAMBLE)).toBe(true);
    expect(prompt.indexOf("<rules>")).toBeLessThan(prompt.indexOf("<plan_mode>"));
    expect(prompt.indexOf("<plan_mode>")).toBeLessThan(prompt.indexOf("<user_instructions>"));
    expect(prompt.replace(`\n\n<plan_mode>\n${PLAN_MODE_PROMPT}\n</plan_mode>`, "")).toBe(acting.systemPrompt);
    // Without a workspace: the chat's own prompt, then the plan part.
    expect(chatPrompt({ instructions: { from: "chat", text: "Be brief." }, plan: true })).toBe(`Be brief.\n\n<plan_mode>\n${PLAN_MODE_PROMPT}\n</plan_mode>`);
  });
});
