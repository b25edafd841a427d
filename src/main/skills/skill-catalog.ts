/**
 * The skills and prompt templates main offers: found afresh on every ask (a file edited since counts as it is now),
 * and which of a workspace's own the user has agreed to use. A project's skills are instructions a repository
 * controls, and its templates are messages it puts in the user's mouth: neither is used before the user says yes.
 * An agreement is for a file's path and exact content, as for project agents: a changed file asks again.
 */
import { createHash } from "node:crypto";
import { realpath } from "node:fs/promises";
import { homedir } from "node:os";
import type { ResourceProblem, SkillListing, SkillsOverview } from "../../shared/protocol/skills";
import { discoverPromptTemplates, type PromptTemplate } from "./prompt-template-discovery";
import { promptRoots, skillRoots, type RootPlaces } from "./resource-roots";
import { discoverSkills, type Skill } from "./skill-discovery";

/** Where agreements are kept (Settings' `confirmedProjectSkills` in the app). */
export interface SkillConfirmations {
  list(): readonly string[];
  add(hashes: string[]): void;
}

export interface SkillCatalog {
  /** Everything found for Settings and the composer: with a workspace, its agreed skills and templates, and what waits for the user. */
  overview(workspace?: string): Promise<SkillsOverview>;
  /** What a chat's model is told of: the usable skills not hidden from it, and their folders (read-only for its tools). */
  listing(workspace?: string): Promise<SkillListing>;
  /** The user agreed to the workspace's skills and templates as they are now; resolves how many were new. */
  confirmProject(workspace: string): Promise<number>;
}

export function skillCatalog(options: { dataDir: string; confirmations: SkillConfirmations; homeDir?: string; env?: NodeJS.ProcessEnv }): SkillCatalog {
  const key = (file: { location?: string; filePath?: string; contentHash: string }) =>
    createHash("sha256").update(`${file.filePath ?? file.location}\0${file.contentHash}`).digest("hex");
  const agreed = (file: Skill | PromptTemplate) => file.source !== "project" || options.confirmations.list().includes(key(file));

  const find = async (workspace: string | undefined) => {
    // Judged by the workspace's real path: a project's links may not lead out of it.
    const real = workspace === undefined ? undefined : await realpath(workspace).catch(() => undefined);
    const home = options.homeDir ?? homedir();
    const places: RootPlaces = { dataDir: options.dataDir, homeDir: home, env: options.env, ...(real ? { workspace: real } : {}) };
    const guarded = await Promise.all([home, options.dataDir].map((p) => realpath(p).catch(() => p)));
    const [skills, templates] = await Promise.all([
      discoverSkills(skillRoots(places), { ...(real ? { workspace: real } : {}), guarded }),
      discoverPromptTemplates(promptRoots(places), real ? { workspace: real } : {}),
    ]);
    return { workspace: real, places, skills, templates };
  };

  return {
    async overview(workspace) {
      const found = await find(workspace);
      const pendingSkills = found.skills.skills.filter((s) => !agreed(s));
      const pendingTemplates = found.templates.templates.filter((t) => !agreed(t));
      const problems: ResourceProblem[] = [...found.skills.problems, ...found.templates.problems];
      const overview: SkillsOverview = {
        skills: found.skills.skills.filter(agreed).map((s) => ({
          name: s.name,
          description: s.description,
          source: s.source,
          location: s.filePath,
          hidden: s.hidden,
          warnings: s.warnings,
        })),
        templates: found.templates.templates.filter(agreed).map(({ contentHash: _hash, ...t }) => t),
        problems,
        folders: { skills: skillRoots(found.places), prompts: promptRoots(found.places) },
      };
      if (found.workspace && pendingSkills.length + pendingTemplates.length > 0) {
        overview.projectPending = {
          workspace: found.workspace,
          skills: pendingSkills.length,
          templates: pendingTemplates.length,
          files: [...pendingSkills.map((s) => s.filePath), ...pendingTemplates.map((t) => t.location)],
        };
      }
      return overview;
    },

    async listing(workspace) {
      const found = await find(workspace);
      const usable = found.skills.skills.filter((s) => agreed(s) && !s.hidden);
      return {
        skills: usable.map((s) => ({ name: s.name, description: s.description, location: s.filePath })),
        folders: [...new Set(usable.map((s) => s.baseDir))],
      };
    },

    async confirmProject(workspace) {
      const found = await find(workspace);
      const files: (Skill | PromptTemplate)[] = [...found.skills.skills, ...found.templates.templates];
      const hashes = files.filter((f) => !agreed(f)).map(key);
      if (hashes.length > 0) options.confirmations.add(hashes);
      return hashes.length;
    },
  };
}
