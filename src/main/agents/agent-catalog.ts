/**
 * The subagent definitions main offers a chat's `subagent` tool: discovered afresh on every call (a file edited
 * between two calls counts as it is now), and which project agents the user has agreed to run. An agreement is for
 * a file's path and exact content: a changed file asks again.
 */
import { createHash } from "node:crypto";
import type { AgentCatalog } from "../broker/subagent-runs";
import { agentFolders, discoverAgents, type AgentDefinition } from "./agent-definitions";

/** Where agreements are kept (Settings' `confirmedProjectAgents` in the app). */
export interface AgentConfirmations {
  list(): readonly string[];
  add(hashes: string[]): void;
}

export function agentCatalog(options: { dataDir: string; confirmations: AgentConfirmations; homeDir?: string; env?: NodeJS.ProcessEnv }): AgentCatalog {
  const key = (agent: AgentDefinition) => createHash("sha256").update(`${agent.filePath ?? agent.name}\0${agent.contentHash}`).digest("hex");
  return {
    discover: (scope, workspace) => discoverAgents({ scope, dataDir: options.dataDir, homeDir: options.homeDir, env: options.env, workspace }),
    folders: () => agentFolders(options),
    isConfirmed: (agent) => agent.source !== "project" || options.confirmations.list().includes(key(agent)),
    confirm: async (agents) => {
      const hashes = agents.filter((a) => a.source === "project").map(key);
      if (hashes.length > 0) options.confirmations.add(hashes);
    },
  };
}
