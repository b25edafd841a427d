/**
 * Where skills and prompt templates come from, in precedence order (the first of two with one name wins, as in pi):
 * the user's folders (pi's, Paddock's, Claude Code's, the Agent Skills standard's), then the workspace's. One place
 * for these paths: discovery, Settings and the docs follow this list.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { piAgentFolder } from "../../shared-node/pi-agent-folder";
import type { ResourceSource } from "../../shared/protocol/skills";

export interface ResourceRoot {
  /** Absolute folder (it may not exist). */
  dir: string;
  source: ResourceSource;
}

export interface RootPlaces {
  /** Paddock's data folder: `<dataDir>/skills` and `<dataDir>/prompts`. */
  dataDir: string;
  homeDir?: string;
  /** For `PI_CODING_AGENT_DIR` (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** The chat's workspace (its real path); absent: the user's folders only. */
  workspace?: string;
}

/** Skill folders: pi's `skills`, `<dataDir>/skills`, `~/.claude/skills`, `~/.agents/skills`, then the workspace's `.pi/skills`, `.claude/skills`, `.agents/skills`. */
export function skillRoots(places: RootPlaces): ResourceRoot[] {
  const home = places.homeDir ?? homedir();
  const roots: ResourceRoot[] = [
    { dir: join(piAgentFolder({ homeDir: home, env: places.env }), "skills"), source: "pi-user" },
    { dir: join(places.dataDir, "skills"), source: "user" },
    { dir: join(home, ".claude", "skills"), source: "claude-user" },
    { dir: join(home, ".agents", "skills"), source: "agents-user" },
  ];
  if (places.workspace !== undefined) {
    for (const folder of [".pi", ".claude", ".agents"]) roots.push({ dir: join(places.workspace, folder, "skills"), source: "project" });
  }
  return roots;
}

/** Prompt template folders: pi's `prompts`, `<dataDir>/prompts`, then the workspace's `.pi/prompts`. */
export function promptRoots(places: RootPlaces): ResourceRoot[] {
  const roots: ResourceRoot[] = [
    { dir: join(piAgentFolder({ homeDir: places.homeDir ?? homedir(), env: places.env }), "prompts"), source: "pi-user" },
    { dir: join(places.dataDir, "prompts"), source: "user" },
  ];
  if (places.workspace !== undefined) roots.push({ dir: join(places.workspace, ".pi", "prompts"), source: "project" });
  return roots;
}
