/**
 * Skills found and checked as pi-coding-agent 1.6.0 does, on its own fixture cases (rebuilt from its
 * test/fixtures/skills and skills.test.ts): valid, name ≠ folder (allowed), invalid characters, too long, consecutive
 * hyphens (warnings, still loaded), missing or empty description, no frontmatter, invalid YAML (skipped with the
 * reason), nested, a folder's own SKILL.md preferred, multiline descriptions, disable-model-invocation, collisions,
 * standalone .md files. And what pi does not guard against: links out of a project, FIFOs, huge files, `---js`.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { discoverSkills, MAX_SKILL_FILE_BYTES } from "../../../../src/main/skills/skill-discovery";
import type { ResourceRoot } from "../../../../src/main/skills/resource-roots";
import { TempFolders } from "../../../../testkit/temp-folders";
import { Fifos, within } from "../../../../testkit/fifos";

const folders = new TempFolders("paddock-skills-");
const fifos = new Fifos();
afterEach(() => {
  fifos.releaseAll();
  folders.removeAll();
});

const skill = (frontmatter: string, body = "# Instructions\n\nDo the thing.") => `---\n${frontmatter}\n---\n\n${body}\n`;
const user = (dir: string): ResourceRoot[] => [{ dir, source: "pi-user" }];

/** pi's fixture folder, one case per folder. */
const PI_FIXTURES: Record<string, string> = {
  "valid-skill/SKILL.md": skill("name: valid-skill\ndescription: A valid skill for testing purposes."),
  "name-mismatch/SKILL.md": skill("name: different-name\ndescription: A skill whose name differs from its folder."),
  "invalid-name-chars/SKILL.md": skill("name: Invalid_Name\ndescription: A skill with invalid characters in its name."),
  "long-name/SKILL.md": skill(`name: ${"a".repeat(70)}\ndescription: A skill with a very long name.`),
  "missing-description/SKILL.md": skill("name: missing-description"),
  "empty-description/SKILL.md": skill('name: empty-description\ndescription: ""'),
  "unknown-field/SKILL.md": skill("name: unknown-field\ndescription: Has an unknown field.\nauthor: someone\nlicense: MIT"),
  "nested/child-skill/SKILL.md": skill("name: child-skill\ndescription: A nested skill."),
  "root-skill-preferred/SKILL.md": skill("name: root-skill-preferred\ndescription: Root skill should win."),
  "root-skill-preferred/nested/SKILL.md": skill("name: nested-loser\ndescription: Must not be found."),
  "no-frontmatter/SKILL.md": "# No frontmatter\n\nJust text.\n",
  "invalid-yaml/SKILL.md": skill("name: invalid-yaml\ndescription: [unclosed\n  bad: : yaml"),
  "multiline-description/SKILL.md": skill("name: multiline-description\ndescription: |\n  This is a multiline description.\n  It spans lines."),
  "consecutive-hyphens/SKILL.md": skill("name: bad--name\ndescription: Consecutive hyphens."),
  "disable-model-invocation/SKILL.md": skill("name: disable-model-invocation\ndescription: Only by its command.\ndisable-model-invocation: true"),
};

async function discover(files: Record<string, string>) {
  const root = folders.make(files);
  return { root, ...(await discoverSkills(user(root))) };
}

describe("skill discovery, on pi's fixture cases", () => {
  it("loads each usable skill with its name, description and real location", async () => {
    const { root, skills } = await discover({ "valid-skill/SKILL.md": PI_FIXTURES["valid-skill/SKILL.md"] });
    expect(skills).toEqual([
      expect.objectContaining({
        name: "valid-skill",
        description: "A valid skill for testing purposes.",
        filePath: join(root, "valid-skill", "SKILL.md"),
        baseDir: join(root, "valid-skill"),
        source: "pi-user",
        hidden: false,
        warnings: [],
      }),
    ]);
  });

  it("loads what pi loads, warns where pi warns, and skips with the reason what pi skips", async () => {
    const { root, skills, problems } = await discover(PI_FIXTURES);
    const byName = Object.fromEntries(skills.map((s) => [s.name, s]));
    expect(Object.keys(byName).sort()).toEqual([
      "Invalid_Name",
      "a".repeat(70),
      "bad--name",
      "child-skill",
      "different-name", // pi 1.6.0 does not require the name to match the folder
      "disable-model-invocation",
      "multiline-description",
      "root-skill-preferred",
      "unknown-field",
      "valid-skill",
    ].sort());
    expect(byName.Invalid_Name.warnings).toEqual(["name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)"]);
    expect(byName["a".repeat(70)].warnings).toEqual(["name exceeds 64 characters (70)"]);
    expect(byName["bad--name"].warnings).toEqual(["name must not contain consecutive hyphens"]);
    expect(byName["different-name"].warnings).toEqual([]);
    expect(byName["unknown-field"].warnings).toEqual([]);
    expect(byName["root-skill-preferred"].description).toBe("Root skill should win.");
    expect(byName["multiline-description"].description).toBe("This is a multiline description.\nIt spans lines.\n");
    expect(byName["disable-model-invocation"].hidden).toBe(true);

    const reasons = Object.fromEntries(problems.map((p) => [p.path.slice(root.length + 1), p.reason]));
    expect(reasons).toEqual({
      "missing-description/SKILL.md": "description is required: skipped",
      "empty-description/SKILL.md": "description is required: skipped",
      "no-frontmatter/SKILL.md": "description is required: skipped",
      "invalid-yaml/SKILL.md": expect.stringMatching(/^frontmatter is not valid YAML \(.*at line.*\): skipped$/),
    });
  });

  it("warns of a description over 1024 characters, and still loads the skill", async () => {
    const { skills } = await discover({ "wordy/SKILL.md": skill(`description: ${"x".repeat(1030)}`) });
    expect(skills[0]).toMatchObject({ name: "wordy", warnings: ["description exceeds 1024 characters (1030)"] });
  });

  it("takes a root's own .md files with a description as skills, and leaves other documentation alone", async () => {
    const { skills, problems } = await discover({
      "README.md": "# About these skills\n",
      "broken-frontmatter.md": "---\ndescription: [\n---\nbody",
      "root-skill.md": skill("name: root-skill\ndescription: A standalone skill."),
      "nested-skill/SKILL.md": skill("name: nested-custom-skill\ndescription: Nested."),
      "nested-skill/notes.md": skill("description: a skill's own file, not another skill"),
    });
    expect(skills.map((s) => s.name)).toEqual(["nested-custom-skill", "root-skill"]);
    expect(problems).toEqual([]);
  });

  it("keeps the first of two skills with one name, and says which was skipped", async () => {
    const first = folders.make({ "calendar/SKILL.md": skill("name: calendar\ndescription: First.") });
    const second = folders.make({ "calendar/SKILL.md": skill("name: calendar\ndescription: Second.") });
    const { skills, problems } = await discoverSkills([
      { dir: first, source: "pi-user" },
      { dir: second, source: "claude-user" },
    ]);
    expect(skills).toEqual([expect.objectContaining({ name: "calendar", description: "First.", source: "pi-user" })]);
    expect(problems).toEqual([{ path: join(second, "calendar", "SKILL.md"), reason: `name "calendar" is already used by ${join(first, "calendar", "SKILL.md")}: skipped` }]);
  });

  it("finds nothing, and no problem, where the folder does not exist", async () => {
    expect(await discoverSkills(user("/no/such/folder"))).toEqual({ skills: [], problems: [] });
  });

  it("skips dot folders and node_modules", async () => {
    const { skills } = await discover({
      ".hidden/SKILL.md": skill("description: Hidden."),
      "node_modules/dep/SKILL.md": skill("description: A dependency's."),
      "real/SKILL.md": skill("description: Real."),
    });
    expect(skills.map((s) => s.name)).toEqual(["real"]);
  });
});

describe("skill discovery, hostile files", () => {
  it("refuses frontmatter in another language (---js), which other tools run as code", async () => {
    const { skills, problems } = await discover({ "evil/SKILL.md": "---js\n{ description: require('child_process').execSync('id').toString() }\n---\nbody\n" });
    expect(skills).toEqual([]);
    expect(problems[0].reason).toBe("frontmatter in another language (---js) is refused: only YAML between --- lines is read: skipped");
  });

  it("refuses a YAML alias bomb instead of expanding it", async () => {
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]", ..."bcdefghi".split("").map((c, i) => `${c}: &${c} [${Array(10).fill(`*${"abcdefghi"[i]}`).join(", ")}]`), "description: boom"].join("\n");
    const { skills, problems } = await discover({ "bomb/SKILL.md": skill(bomb) });
    expect(skills).toEqual([]);
    expect(problems[0].reason).toMatch(/^frontmatter is not valid YAML \(.*\): skipped$/);
  });

  it("never opens a FIFO named SKILL.md, and the thread pool stays free", async () => {
    const root = folders.make({ "ok/SKILL.md": skill("description: Fine.") });
    mkdirSync(join(root, "pipe"));
    fifos.make(join(root, "pipe", "SKILL.md"));
    const runs = Array.from({ length: 4 }, () => discoverSkills(user(root)));
    const results = await within(Promise.all(runs), 5_000, "four discoveries with a FIFO for a SKILL.md");
    await within(stat(root), 1_000, "a file call while they ran");
    expect(results[0].skills.map((s) => s.name)).toEqual(["ok"]);
    expect(results[0].problems).toEqual([{ path: join(root, "pipe", "SKILL.md"), reason: "a FIFO (named pipe), not a regular file" }]);
  });

  it("refuses a SKILL.md larger than the bound", async () => {
    const { skills, problems } = await discover({ "huge/SKILL.md": skill("description: Huge.", "x".repeat(MAX_SKILL_FILE_BYTES)) });
    expect(skills).toEqual([]);
    expect(problems[0].reason).toMatch(/^larger than 256 KB/);
  });

  it("a project's link that leads out of the project is skipped with the reason; the user's own links are followed", async () => {
    const outside = folders.make({ "secret/SKILL.md": skill("name: outside\ndescription: Lives outside.") });
    const workspace = folders.make({ ".claude/skills/inside/SKILL.md": skill("description: Inside.") });
    symlinkSync(join(outside, "secret"), join(workspace, ".claude", "skills", "linked"));
    const project = await discoverSkills([{ dir: join(workspace, ".claude", "skills"), source: "project" }], { workspace });
    expect(project.skills.map((s) => s.name)).toEqual(["inside"]);
    expect(project.problems).toEqual([
      { path: join(workspace, ".claude", "skills", "linked"), reason: `leads out of the project (to ${join(outside, "secret")}): skipped` },
    ]);

    const home = folders.make();
    mkdirSync(join(home, "skills"));
    symlinkSync(join(outside, "secret"), join(home, "skills", "linked"));
    const mine = await discoverSkills(user(join(home, "skills")));
    // Listed at its real location: the folder the model's read tool is allowed.
    expect(mine.skills).toEqual([expect.objectContaining({ name: "outside", filePath: join(outside, "secret", "SKILL.md"), baseDir: join(outside, "secret") })]);
  });

  it("a link that would make the home folder a skill's folder is skipped, so the model is never allowed to read all of it", async () => {
    const home = folders.make({ "SKILL.md": skill("name: home\ndescription: All of it.") });
    const skills = folders.make();
    symlinkSync(home, join(skills, "everything"));
    const found = await discoverSkills(user(skills), { guarded: [home] });
    expect(found.skills).toEqual([]);
    expect(found.problems[0].reason).toBe(`its folder ${home} holds ${home}, which the model may not read: skipped`);
  });

  it("a link loop ends", async () => {
    const root = folders.make({ "a/SKILL-notes.txt": "" });
    symlinkSync(root, join(root, "a", "loop"));
    writeFileSync(join(root, "b.md"), skill("description: B."));
    const found = await within(discoverSkills(user(root)), 5_000, "a walk through a link loop");
    // A standalone file without a name is named for its folder, as in pi.
    expect(found.skills.map((s) => s.name)).toEqual([basename(root)]);
  });
});
