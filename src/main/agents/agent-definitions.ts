/**
 * Agent definitions for the `subagent` tool, in pi's format: a markdown file whose YAML frontmatter names the
 * agent, describes it, and lists its tools (and optionally a model), and whose body is the agent's system prompt.
 *
 * Node only (never imports `electron`). Reading a definition never runs anything it contains: the frontmatter is
 * plain YAML read with the `yaml` package's safe default schema. Nothing here throws on bad files; every file that
 * cannot be used becomes a human-readable problem naming the file, and the rest still load.
 */
import { createHash } from "node:crypto";
import { readdir, realpath, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { piAgentFolder } from "../../shared-node/pi-agent-folder";
import { readRegularFile } from "../../shared-node/regular-file";
import { parseYamlMapping } from "../../shared-node/frontmatter";
import { builtinAgents, DEFAULT_AGENT_TOOLS } from "./builtin-agents";
import { isPermissionProfile, PERMISSION_PROFILES, type PermissionProfile } from "../../shared/protocol/permission-profiles";

export type AgentSource = "builtin" | "user" | "pi-user" | "project";

export interface AgentDefinition {
  /** Frontmatter `name`; matches {@link AGENT_NAME_PATTERN}. */
  name: string;
  /** Frontmatter `description`, trimmed; never empty. */
  description: string;
  /** Frontmatter `tools` (comma-separated text or a YAML list), trimmed, empty entries dropped; {@link DEFAULT_AGENT_TOOLS} when absent or empty. */
  tools: string[];
  /** Frontmatter `model` as written ("claude-haiku-4-5", "anthropic/claude-haiku-4-5"); resolving it is the caller's job. */
  model?: string;
  /**
   * Frontmatter `isolation: worktree` (Claude Code's spelling): each task runs in a git worktree of its own, made by
   * main from the workspace's HEAD (shared-node/git-worktrees), and its result lists its changes there.
   */
  isolation?: AgentIsolation;
  /**
   * Frontmatter `profile` (ask, edits, sandboxed-auto, read-only): the permission profile its tasks run under, never
   * wider than the parent chat's (a wider one is narrowed to the parent's). Absent: the parent's.
   */
  profile?: PermissionProfile;
  /** The markdown body after the frontmatter, trimmed. */
  systemPrompt: string;
  source: AgentSource;
  /** Absent for builtins. */
  filePath?: string;
  /** sha256 hex of the file's exact bytes (builtins: of name and body), so a user's confirmation can be remembered per content. */
  contentHash: string;
}

export type AgentScope = "user" | "project" | "both";

/** The isolations an agent file or a task may ask for: only `worktree` (Claude Code's one value). */
export const AGENT_ISOLATIONS = ["worktree"] as const;
export type AgentIsolation = (typeof AGENT_ISOLATIONS)[number];

export interface AgentDiscovery {
  /** Usable agents, one per name (the highest-precedence source wins), sorted by name. */
  agents: AgentDefinition[];
  /** The project's `.pi/agents` folder, when the scope includes project and the folder exists. */
  projectAgentsDir?: string;
  /** One line per skipped file, naming it. */
  problems: string[];
}

export { DEFAULT_AGENT_TOOLS };

export const AGENT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Larger files are skipped: a system prompt this big is a mistake, and reading it whole would be wasteful. */
export const MAX_AGENT_FILE_BYTES = 256 * 1024;

/**
 * Parses one agent file. Promises exactly one of `agent` or `problem`; never throws and never evaluates anything
 * in the text. The file must open with a line that is exactly `---` (a BOM before it and CRLF line ends are fine):
 * `---js`, `---javascript` and the like are refused rather than treated as frontmatter, because other tools run
 * such frontmatter as code. `contentHash` is taken over the UTF-8 encoding of `text`.
 */
export function parseAgentFile(
  text: string,
  source: AgentSource,
  filePath?: string,
): { agent?: AgentDefinition; problem?: string } {
  return parseAgentText(text, source, filePath, sha256Hex(Buffer.from(text, "utf8")));
}

/**
 * The user-level agents folders: Paddock's own (`<dataDir>/agents`) and pi's (`agents` in pi's user folder:
 * `<homeDir>/.pi/agent`, or wherever `PI_CODING_AGENT_DIR` in `env` moves it, as pi's `getAgentDir()`).
 */
export function agentFolders(options: { dataDir: string; homeDir?: string; env?: NodeJS.ProcessEnv }): { paddock: string; pi: string } {
  return { paddock: join(options.dataDir, "agents"), pi: join(piAgentFolder({ homeDir: options.homeDir, env: options.env }), "agents") };
}

/**
 * Finds the agents visible in `scope`. "user" covers builtin, pi-user (see agentFolders) and user
 * (`<dataDir>/agents`); "project" covers only the nearest `.pi/agents` above `workspace`; "both" covers all four.
 * When names collide, project beats user beats pi-user beats builtin. Only `*.md` files directly inside each folder
 * are read, in name order. Missing or unreadable folders are simply absent. Never rejects.
 */
export async function discoverAgents(options: {
  scope: AgentScope;
  dataDir: string;
  homeDir?: string;
  env?: NodeJS.ProcessEnv;
  workspace?: string;
}): Promise<AgentDiscovery> {
  const { scope } = options;
  const problems: string[] = [];
  // Lowest precedence first, so a later layer overwrites an earlier one in the map.
  const layers: AgentDefinition[][] = [];

  if (scope === "user" || scope === "both") {
    const folders = agentFolders(options);
    layers.push(builtinAgents());
    layers.push(await loadAgentsDir(folders.pi, "pi-user", problems));
    layers.push(await loadAgentsDir(folders.paddock, "user", problems));
  }

  let projectAgentsDir: string | undefined;
  if ((scope === "project" || scope === "both") && options.workspace !== undefined) {
    projectAgentsDir = await findProjectAgentsDir(options.workspace);
    if (projectAgentsDir !== undefined) layers.push(await loadAgentsDir(projectAgentsDir, "project", problems));
  }

  const byName = new Map<string, AgentDefinition>();
  for (const layer of layers) for (const agent of layer) byName.set(agent.name, agent);
  const agents = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return projectAgentsDir === undefined ? { agents, problems } : { agents, projectAgentsDir, problems };
}

/**
 * The nearest `.pi/agents` directory at or above `workspace` (resolved to an absolute path), walking up to the
 * filesystem root; undefined when there is none. Never rejects.
 */
export async function findProjectAgentsDir(workspace: string): Promise<string | undefined> {
  let dir = resolve(workspace);
  for (;;) {
    const candidate = join(dir, ".pi", "agents");
    if (await isDirectory(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Loads every usable `*.md` directly inside `dir`; problems are appended, never thrown. */
async function loadAgentsDir(dir: string, source: AgentSource, problems: string[]): Promise<AgentDefinition[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const agents: AgentDefinition[] = [];
  const seen = new Map<string, string>();
  for (const name of names.filter((n) => n.endsWith(".md")).sort()) {
    const filePath = join(dir, name);
    const bytes = await readAgentBytes(filePath, problems);
    if (bytes === undefined) continue;
    const { agent, problem } = parseAgentText(bytes.toString("utf8"), source, filePath, sha256Hex(bytes));
    if (problem !== undefined) problems.push(problem);
    if (agent === undefined) continue;
    // Two files claiming one name in the same folder is a mistake; keeping the first makes the outcome obvious.
    const earlier = seen.get(agent.name);
    if (earlier !== undefined) {
      problems.push(`${filePath}: name "${agent.name}" is already used by ${earlier}`);
      continue;
    }
    seen.set(agent.name, filePath);
    agents.push(agent);
  }
  return agents;
}

/**
 * The file's bytes, or undefined (with a problem) when it is not a readable regular file within the size limit. A
 * symlink is followed (agent folders are often a dotfiles manager's links) to a regular file only: never opened is
 * a FIFO, which would block the read, and with it one of the four threads all of main's file calls share.
 */
async function readAgentBytes(filePath: string, problems: string[]): Promise<Buffer | undefined> {
  let read = await readRegularFile(filePath, { maxBytes: MAX_AGENT_FILE_BYTES });
  if (!read.ok && read.kind === "link") {
    const target = await realpath(filePath).catch(() => undefined);
    if (target === undefined) {
      problems.push(`${filePath}: a link to a file that is not there`);
      return undefined;
    }
    read = await readRegularFile(target, { maxBytes: MAX_AGENT_FILE_BYTES });
  }
  if (read.ok) return read.bytes;
  if (read.kind !== "folder") problems.push(`${filePath}: ${read.reason}`); // a folder named "x.md": not an agent file, not a problem
  return undefined;
}

function parseAgentText(
  text: string,
  source: AgentSource,
  filePath: string | undefined,
  contentHash: string,
): { agent?: AgentDefinition; problem?: string } {
  const where = filePath ?? "agent definition";
  const fail = (why: string) => ({ problem: `${where}: ${why}` });

  const lines = (text.startsWith("\uFEFF") ? text.slice(1) : text).split(/\r?\n/);
  if (lines[0] !== "---") return fail("no frontmatter (the file must start with a line that is exactly ---)");
  const end = lines.indexOf("---", 1);
  if (end === -1) return fail("frontmatter is not closed by a line that is exactly ---");

  const fields = parseYamlMapping(lines.slice(1, end).join("\n"), { emptyIsMapping: false });
  if (typeof fields === "string") return fail(fields);

  const name = optionalText(fields.name);
  if (name === null) return fail("name must be text");
  if (!name) return fail("missing name");
  if (!AGENT_NAME_PATTERN.test(name)) {
    return fail(`name "${name}" must be 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit`);
  }
  const description = optionalText(fields.description);
  if (description === null) return fail("description must be text");
  if (!description) return fail("missing description");
  const model = optionalText(fields.model);
  if (model === null) return fail("model must be text");
  const isolation = optionalText(fields.isolation);
  if (isolation === null || (isolation && !(AGENT_ISOLATIONS as readonly string[]).includes(isolation))) {
    return fail(`isolation must be ${AGENT_ISOLATIONS.join(" or ")} (or left out)`);
  }
  const profile = optionalText(fields.profile);
  if (profile === null || (profile && !isPermissionProfile(profile))) {
    return fail(`profile must be ${PERMISSION_PROFILES.join(", ")} (or left out)`);
  }
  const tools = parseTools(fields.tools);
  if (tools === undefined) return fail("tools must be a comma-separated list or a YAML list of tool names");

  const agent: AgentDefinition = {
    name,
    description,
    tools,
    systemPrompt: lines.slice(end + 1).join("\n").trim(),
    source,
    contentHash,
  };
  if (model) agent.model = model;
  if (isolation) agent.isolation = isolation as AgentIsolation;
  if (profile) agent.profile = profile as PermissionProfile;
  if (filePath !== undefined) agent.filePath = filePath;
  return { agent };
}

/** Trimmed text; "" when absent or empty; null when present but not text (a YAML number, list, ...). */
function optionalText(value: unknown): string | null {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value.trim() : null;
}

/** Tool names from "a, b" or ["a", "b"]; pi's defaults when none are given; undefined when malformed. */
function parseTools(value: unknown): string[] | undefined {
  let entries: unknown[];
  if (value === undefined || value === null) entries = [];
  else if (typeof value === "string") entries = value.split(",");
  else if (Array.isArray(value)) entries = value;
  else return undefined;
  if (!entries.every((entry) => typeof entry === "string")) return undefined;
  const tools = (entries as string[]).map((entry) => entry.trim()).filter((entry) => entry !== "");
  // Like pi, an empty list means "the defaults", not "no tools".
  return tools.length > 0 ? tools : [...DEFAULT_AGENT_TOOLS];
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

function sha256Hex(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}
