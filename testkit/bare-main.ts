/**
 * A main with nothing to offer, for a worker started on its own (a `WorkerHandle` over a launched worker, with no
 * broker): no key, no provider config, reports dropped; anything else it is asked rejects. A worker's start-up,
 * ping and warm-up need none of it.
 */
import type { MainControlApi } from "../src/shared/protocol/control-protocol";

const notOffered = async (): Promise<never> => {
  throw new Error("not offered by a bare main");
};

export const BARE_MAIN: MainControlApi = {
  getApiKey: async () => undefined,
  resolveModel: notOffered,
  report: () => {},
  listAgents: notOffered,
  confirmProjectAgents: notOffered,
  runSubagent: notOffered,
  stopSubagent: notOffered,
  taskWorktree: notOffered,
  askParent: notOffered,
  addProjectGrant: notOffered,
  mcpTools: notOffered,
  mcpCall: notOffered,
  mcpCancel: notOffered,
  listSkills: notOffered,
  getProviderConfig: async () => undefined,
};
