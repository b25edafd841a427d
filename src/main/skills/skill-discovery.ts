/**
 * Skills as pi-coding-agent 1.6.0 finds and checks them (its `loadSkillsFromDir`, the Agent Skills rules): a folder
 * holding a `SKILL.md` is a skill (and is not looked into further); other folders are looked into for more; a root's
 * own `.md` files are standalone skills when they have a description. A skill without a description, or whose
 * frontmatter cannot be read, is skipped with the reason; a name that breaks the rules (capitals, too long, hyphens
 * at the ends or doubled) is a warning and the skill still loads, as in pi. The name is the frontmatter's, else the
 * folder's; it need not match the folder (pi 1.6.0 does not require it). The first of two skills with one name wins.
 *
 * Unlike pi: `.gitignore`-style ignore files are not read; links in a project's folders may not lead out of the
 * project; files are read only if regular (never a FIFO) and at most MAX_SKILL_FILE_BYTES; the walk is bounded.
 */
import { basename, dirname } from "node:path";
import { parseFrontmatter } from "../../shared-node/frontmatter";
import type { ResourceProblem, ResourceSource } from "../../shared/protocol/skills";
import { isWithin, listFolder, readResourceFile, type LinkPolicy } from "./resource-files";
import type { ResourceRoot } from "./resource-roots";

export const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
/** A SKILL.md is instructions for a model to read: more than this is a mistake (pi has no bound). */
export const MAX_SKILL_FILE_BYTES = 256 * 1024;
/** How deep below a root a SKILL.md is looked for. */
export const MAX_SKILL_DEPTH = 6;
/** More skills than this are not listed (each costs the model a few lines of every request). */
export const MAX_SKILLS = 300;

export interface Skill {
  name: string;
  description: string;
  source: ResourceSource;
  /** The file's real path. */
  filePath: string;
  /** Its folder's real path: what the model may read of it. */
  baseDir: string;
  /** `disable-model-invocation: true`. */
  hidden: boolean;
  warnings: string[];
  /** sha256 of the file's bytes. */
  contentHash: string;
}

export interface SkillDiscovery {
  skills: Skill[];
  problems: ResourceProblem[];
}

export interface SkillDiscoveryOptions {
  /** The workspace's real path: a project root's links may not lead out of it. */
  workspace?: string;
  /**
   * Folders a skill's folder may not hold (the home folder, Paddock's data folder): a skill folder is readable by the
   * model, and a link that makes `~` a skill would open the whole home folder to it.
   */
  guarded?: readonly string[];
}

/** The skills under `roots` (in precedence order). Never rejects. */
export async function discoverSkills(roots: readonly ResourceRoot[], options: SkillDiscoveryOptions = {}): Promise<SkillDiscovery> {
  const problems: ResourceProblem[] = [];
  const found: Skill[] = [];
  for (const root of roots) {
    const policy: LinkPolicy = root.source === "project" && options.workspace !== undefined ? { within: options.workspace } : {};
    await walk(root.dir, root.source, true, 0, policy, new Set(), found, problems, options.guarded ?? []);
  }
  const byName = new Map<string, Skill>();
  const files = new Set<string>();
  const skills: Skill[] = [];
  for (const skill of found) {
    if (files.has(skill.filePath)) continue; // the same file reached twice (a link): silently once, as pi
    const earlier = byName.get(skill.name);
    if (earlier) {
      problems.push({ path: skill.filePath, reason: `name "${skill.name}" is already used by ${earlier.filePath}: skipped` });
      continue;
    }
    if (skills.length >= MAX_SKILLS) {
      problems.push({ path: skill.filePath, reason: `more than ${MAX_SKILLS} skills: skipped` });
      continue;
    }
    byName.set(skill.name, skill);
    files.add(skill.filePath);
    skills.push(skill);
  }
  return { skills, problems };
}

async function walk(
  dir: string,
  source: ResourceSource,
  isRoot: boolean,
  depth: number,
  policy: LinkPolicy,
  visited: Set<string>,
  found: Skill[],
  problems: ResourceProblem[],
  guarded: readonly string[],
): Promise<void> {
  const entries = await listFolder(dir, policy, problems);
  const declared = entries.find((e) => e.name === "SKILL.md" && e.kind !== "folder");
  if (declared) {
    const skill = await loadSkill(declared.path, declared.real, source, true, problems, guarded);
    if (skill) found.push(skill);
    return; // a skill's own folder: its subfolders are its files, not more skills
  }
  for (const entry of entries) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    if (entry.kind === "folder") {
      if (visited.has(entry.real)) continue; // a link back up: looked at already
      if (depth + 1 > MAX_SKILL_DEPTH) {
        problems.push({ path: entry.path, reason: `deeper than ${MAX_SKILL_DEPTH} folders below the skills folder: not looked into` });
        continue;
      }
      visited.add(entry.real);
      await walk(entry.path, source, false, depth + 1, policy, visited, found, problems, guarded);
    } else if (isRoot && entry.name.endsWith(".md")) {
      const skill = await loadSkill(entry.path, entry.real, source, false, problems, guarded);
      if (skill) found.push(skill);
    }
  }
}

/**
 * One skill file, as pi's `loadSkillFromFile`. A standalone `.md` (not SKILL.md) without a description, or one whose
 * frontmatter cannot be read, is simply not a skill (a README beside the skills): no problem is reported for it.
 */
async function loadSkill(
  path: string,
  real: string,
  source: ResourceSource,
  isDeclared: boolean,
  problems: ResourceProblem[],
  guarded: readonly string[],
): Promise<Skill | undefined> {
  const mine: ResourceProblem[] = [];
  const file = await readResourceFile(path, real, MAX_SKILL_FILE_BYTES, mine);
  if (!file) {
    problems.push(...mine);
    return undefined;
  }
  const parsed = parseFrontmatter(file.text);
  if (!parsed.ok) {
    if (isDeclared) problems.push({ path, reason: `${parsed.reason}: skipped` });
    return undefined;
  }
  const { fields } = parsed;
  const description = fields.description;
  const hasDescription = typeof description === "string" && description.trim() !== "";
  if (!isDeclared && !hasDescription) return undefined;
  if (!hasDescription) {
    problems.push({ path, reason: "description is required: skipped" });
    return undefined;
  }
  const baseDir = dirname(real);
  const opened = guarded.find((place) => isWithin(baseDir, place));
  if (opened !== undefined) {
    problems.push({ path, reason: `its folder ${baseDir} holds ${opened}, which the model may not read: skipped` });
    return undefined;
  }
  const warnings = descriptionWarnings(description);
  const name = (typeof fields.name === "string" && fields.name) || basename(dirname(path));
  warnings.push(...nameWarnings(name));
  return {
    name,
    description,
    source,
    filePath: real,
    baseDir,
    hidden: fields["disable-model-invocation"] === true,
    warnings,
    contentHash: file.hash,
  };
}

/** pi's `validateName` (the Agent Skills rules), its words. */
export function nameWarnings(name: string): string[] {
  const warnings: string[] = [];
  if (name.length > MAX_NAME_LENGTH) warnings.push(`name exceeds ${MAX_NAME_LENGTH} characters (${name.length})`);
  if (!/^[a-z0-9-]+$/.test(name)) warnings.push("name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)");
  if (name.startsWith("-") || name.endsWith("-")) warnings.push("name must not start or end with a hyphen");
  if (name.includes("--")) warnings.push("name must not contain consecutive hyphens");
  return warnings;
}

function descriptionWarnings(description: string): string[] {
  return description.length > MAX_DESCRIPTION_LENGTH ? [`description exceeds ${MAX_DESCRIPTION_LENGTH} characters (${description.length})`] : [];
}
