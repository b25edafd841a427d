import type { AgentTool } from "../../shared/agent/types";
import { calculateTool } from "./calculate-tool";
import { waitTool } from "./wait-tool";

/** The tools every session's agent has. Workspace tools (files, shell) come with their own permission model. */
export function builtinTools(): AgentTool<any>[] {
  return [calculateTool, waitTool];
}
