/**
 * Main's AppService over real stores in a temporary folder, with a broker that never starts a worker: for tests of
 * the page -> main calls that need no agent (settings, keys, the session index, endpoint probes).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppService, toWorkerSettings } from "../src/main/broker/app-service";
import { workerApiKey } from "../src/main/broker/endpoint-keys";
import { resolveModel } from "../src/main/broker/model-resolver";
import { NodeWorkerLauncher } from "../src/main/broker/node-worker-launcher";
import { plaintextDevCipher, SecretStore } from "../src/main/broker/secrets";
import { SessionBroker } from "../src/main/broker/session-broker";
import { SessionIndex } from "../src/main/broker/session-index";
import { SettingsStore } from "../src/main/broker/settings-store";
import { SessionWorktrees } from "../src/main/broker/session-worktrees";

export interface AppServiceRig {
  dir: string;
  settings: SettingsStore;
  secrets: SecretStore;
  index: SessionIndex;
  broker: SessionBroker;
  service: AppService;
  /** Disposes the service (its delayed clean-up of deleted chats) and the broker, and removes the folder. */
  close(): Promise<void>;
}

/** `worktreesDir`: the service also serves the worktree calls, making worktrees there. */
export async function startAppServiceRig(prefix = "paddock-app-", options: { worktreesDir?: string } = {}): Promise<AppServiceRig> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const settings = SettingsStore.open({ cwd: dir });
  const secrets = SecretStore.open(join(dir, "secrets.json"), plaintextDevCipher);
  const index = await SessionIndex.open(join(dir, "sessions", "index.json"));
  const broker = new SessionBroker({
    launcher: new NodeWorkerLauncher("never-started.js"),
    sessionsDir: join(dir, "sessions"),
    sessionTransport: "websocket",
    getApiKey: (p, sentTo) => workerApiKey(p, sentTo, secrets, settings.get().customProviders),
    resolveModel: (ref) => resolveModel(ref, { customProviders: settings.get().customProviders, addedModels: settings.get().addedModels }),
    getWorkerSettings: () => toWorkerSettings(settings.get()),
    keepSpare: false,
  });
  const worktrees = options.worktreesDir ? new SessionWorktrees({ index, worktreesDir: options.worktreesDir }) : undefined;
  const service = new AppService({ settings, secrets, index, broker, openSession: async () => {}, ...(worktrees ? { worktrees } : {}) });
  return {
    dir, settings, secrets, index, broker, service,
    close: async () => {
      service.dispose();
      await broker.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
