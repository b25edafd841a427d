/**
 * What main offers of skills and prompt templates: pi's folders (moved by PI_CODING_AGENT_DIR), Paddock's, Claude
 * Code's, then the workspace's, which are used only once the user agreed (per file path and content: a changed file
 * asks again). Templates as pi reads them: name from the file, description from the frontmatter or the first line.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { skillCatalog } from "../../../../src/main/skills/skill-catalog";
import { discoverPromptTemplates } from "../../../../src/main/skills/prompt-template-discovery";
import { TempFolders } from "../../../../testkit/temp-folders";

const folders = new TempFolders("paddock-skill-catalog-");
afterEach(() => folders.removeAll());

const skill = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n\nSteps.\n`;

function catalog(home: string, dataDir: string, env: NodeJS.ProcessEnv = {}) {
  const agreed: string[] = [];
  const made = skillCatalog({ dataDir, homeDir: home, env, confirmations: { list: () => agreed, add: (h) => agreed.push(...h) } });
  return { catalog: made, agreed };
}

describe("prompt templates, as pi 1.6.0 reads them", () => {
  it("names each by its file, describes it by its frontmatter or first line, and keeps its body and argument hint", async () => {
    const dir = folders.make({
      "review.md": '---\ndescription: Review staged git changes\nargument-hint: "[focus]"\n---\nReview the staged changes. Focus on ${1:-correctness}.\n',
      "plain.md": "\n\nSummarise this conversation in exactly three bullet points, plainly and without any preamble at all.\nMore.",
      "notes.txt": "not a template",
      "has space.md": "never callable",
      "sub/deeper.md": "not looked at: prompts folders are flat",
    });
    const { templates, problems } = await discoverPromptTemplates([{ dir, source: "pi-user" }]);
    expect(templates).toEqual([
      expect.objectContaining({
        name: "plain",
        description: "Summarise this conversation in exactly three bullet points, ...",
        // Without frontmatter the body is the whole file, untrimmed, as in pi.
        content: "\n\nSummarise this conversation in exactly three bullet points, plainly and without any preamble at all.\nMore.",
      }),
      expect.objectContaining({
        name: "review",
        description: "Review staged git changes",
        argumentHint: "[focus]",
        content: "Review the staged changes. Focus on ${1:-correctness}.",
        location: join(dir, "review.md"),
      }),
    ]);
    expect(problems).toEqual([{ path: join(dir, "has space.md"), reason: "its name has a space in it, so no /command can call it: skipped" }]);
  });

  it("keeps the first of two templates with one name", async () => {
    const first = folders.make({ "fix.md": "First." });
    const second = folders.make({ "fix.md": "Second." });
    const { templates, problems } = await discoverPromptTemplates([{ dir: first, source: "pi-user" }, { dir: second, source: "user" }]);
    expect(templates.map((t) => t.content)).toEqual(["First."]);
    expect(problems).toEqual([{ path: join(second, "fix.md"), reason: `/fix is already ${join(first, "fix.md")}: skipped` }]);
  });
});

describe("the skill catalog", () => {
  it("looks in pi's folder (where PI_CODING_AGENT_DIR moves it), Paddock's and Claude Code's", async () => {
    const home = folders.make({
      ".claude/skills/claude-one/SKILL.md": skill("claude-one", "From Claude Code."),
      "elsewhere/pi/skills/pi-one/SKILL.md": skill("pi-one", "From pi."),
      "elsewhere/pi/prompts/hello.md": "Say hello to $1.",
    });
    const dataDir = folders.make({ "skills/mine/SKILL.md": skill("mine", "Paddock's own."), "prompts/bye.md": "Say bye." });
    const { catalog: c } = catalog(home, dataDir, { PI_CODING_AGENT_DIR: "~/elsewhere/pi" });
    const overview = await c.overview();
    expect(overview.skills.map((s) => [s.name, s.source])).toEqual([["pi-one", "pi-user"], ["mine", "user"], ["claude-one", "claude-user"]]);
    expect(overview.templates.map((t) => [t.name, t.source])).toEqual([["hello", "pi-user"], ["bye", "user"]]);
    expect(overview.folders.skills[0]).toEqual({ dir: join(home, "elsewhere", "pi", "skills"), source: "pi-user" });
    const listing = await c.listing();
    expect(listing.skills.map((s) => s.name)).toEqual(["pi-one", "mine", "claude-one"]);
    expect(listing.folders).toEqual([
      join(home, "elsewhere", "pi", "skills", "pi-one"),
      join(dataDir, "skills", "mine"),
      join(home, ".claude", "skills", "claude-one"),
    ]);
  });

  it("does not list a skill hidden from the model (disable-model-invocation) to it, but shows it in Settings", async () => {
    const home = folders.make({ ".claude/skills/manual/SKILL.md": "---\ndescription: Only when asked.\ndisable-model-invocation: true\n---\nx" });
    const { catalog: c } = catalog(home, folders.make());
    expect((await c.overview()).skills).toEqual([expect.objectContaining({ name: "manual", hidden: true })]);
    expect((await c.listing()).skills).toEqual([]);
  });

  it("uses a workspace's skills and templates only once the user agreed, and asks again for a changed file", async () => {
    const home = folders.make();
    const workspace = folders.make({
      ".pi/skills/deploy/SKILL.md": skill("deploy", "Deploys the app."),
      ".claude/skills/lint/SKILL.md": skill("lint", "Lints."),
      ".agents/skills/test/SKILL.md": skill("test", "Tests."),
      ".pi/prompts/ship.md": "Ship $@.",
    });
    const { catalog: c } = catalog(home, folders.make());
    const before = await c.overview(workspace);
    expect(before.skills).toEqual([]);
    expect(before.templates).toEqual([]);
    expect(before.projectPending).toMatchObject({ workspace, skills: 3, templates: 1 });
    expect((await c.listing(workspace)).skills).toEqual([]);

    expect(await c.confirmProject(workspace)).toBe(4);
    const after = await c.overview(workspace);
    expect(after.skills.map((s) => [s.name, s.source])).toEqual([["deploy", "project"], ["lint", "project"], ["test", "project"]]);
    expect(after.templates.map((t) => t.name)).toEqual(["ship"]);
    expect(after.projectPending).toBeUndefined();
    expect((await c.listing(workspace)).skills.map((s) => s.location)).toContain(join(workspace, ".pi", "skills", "deploy", "SKILL.md"));

    writeFileSync(join(workspace, ".pi", "skills", "deploy", "SKILL.md"), skill("deploy", "Deploys the app, and also does something else now."));
    const changed = await c.overview(workspace);
    expect(changed.skills.map((s) => s.name)).toEqual(["lint", "test"]);
    expect(changed.projectPending).toMatchObject({ skills: 1, templates: 0, files: [join(workspace, ".pi", "skills", "deploy", "SKILL.md")] });
  });

  it("a user's skill wins over a project's of the same name", async () => {
    const home = folders.make({ ".claude/skills/deploy/SKILL.md": skill("deploy", "Mine.") });
    const workspace = folders.make({ ".pi/skills/deploy/SKILL.md": skill("deploy", "The repository's.") });
    const { catalog: c } = catalog(home, folders.make());
    await c.confirmProject(workspace);
    const overview = await c.overview(workspace);
    expect(overview.skills).toEqual([expect.objectContaining({ name: "deploy", description: "Mine." })]);
    expect(overview.problems[0].reason).toMatch(/^name "deploy" is already used by /);
  });
});
