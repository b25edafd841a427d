/**
 * Skills and prompt templates as main finds them (main/skills/): what Settings and the composer's `/` menu show
 * (AppApi.listSkills), and what a worker lists to its model (MainControlApi.listSkills).
 */

/**
 * Where one comes from: pi's user folder (`~/.pi/agent`), Paddock's data folder, Claude Code's (`~/.claude/skills`),
 * the Agent Skills standard's (`~/.agents/skills`), or the chat's workspace.
 */
export type ResourceSource = "pi-user" | "user" | "claude-user" | "agents-user" | "project";

export interface SkillInfo {
  name: string;
  description: string;
  source: ResourceSource;
  /** The real path of its SKILL.md (or standalone .md): what the model is told to read. */
  location: string;
  /** `disable-model-invocation: true`: not listed to the model. */
  hidden: boolean;
  /** What does not follow the Agent Skills rules but still loads (pi's warnings: a name with capitals, too long...). */
  warnings: string[];
}

export interface PromptTemplateInfo {
  /** The command: the file name without `.md` (`/review`). */
  name: string;
  /** Frontmatter `description`, else the body's first non-empty line (60 characters, then "..."). */
  description: string;
  /** Frontmatter `argument-hint` ("[focus]"), if any. */
  argumentHint?: string;
  source: ResourceSource;
  location: string;
  /** The body, expanded in the composer (shared/prompts/template-expansion.ts). */
  content: string;
}

/** A file that was skipped (or a name used twice), and why, in words. */
export interface ResourceProblem {
  path: string;
  reason: string;
}

export interface SkillsOverview {
  skills: SkillInfo[];
  templates: PromptTemplateInfo[];
  problems: ResourceProblem[];
  /** The folders looked in, in precedence order (the first of two with one name wins). */
  folders: { skills: { dir: string; source: ResourceSource }[]; prompts: { dir: string; source: ResourceSource }[] };
  /**
   * The chat's workspace has skills or templates the user has not agreed to (none are used until then): how many,
   * and their files. `confirmProjectSkills` agrees to all of them as they are now.
   */
  projectPending?: { workspace: string; skills: number; templates: number; files: string[] };
}

/** What a worker lists to its model: the skills it may use, and the folders its read tool may read (read-only). */
export interface SkillListing {
  skills: { name: string; description: string; location: string }[];
  /** Real paths of the listed skills' folders (a SKILL.md's folder holds its scripts and references). */
  folders: string[];
}

export const NO_SKILLS: SkillListing = { skills: [], folders: [] };
