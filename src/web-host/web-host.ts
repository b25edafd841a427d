/**
 * The browser host, assembled: the same Electron-free broker, settings, secrets and session index the desktop app
 * uses, behind a loopback HTTP server (see http-server.ts). Sessions' traffic goes page <-> worker over each
 * worker's own loopback WebSocket; this host only hands out the URL.
 *
 * Never imports electron. API keys are kept with `plaintextDevCipher`: loopback development only.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { AppService, toWorkerSettings } from "../main/broker/app-service";
import { dispatchAppCall } from "../main/broker/app-call";
import { NodeWorkerLauncher } from "../main/broker/node-worker-launcher";
import { plaintextDevCipher, resolveApiKey, SecretStore } from "../main/broker/secrets";
import { SessionBroker } from "../main/broker/session-broker";
import { SessionIndex } from "../main/broker/session-index";
import { SettingsStore } from "../main/broker/settings-store";
import { BadRequest, startHttpServer } from "./http-server";
import { customProviderName } from "../shared/providers/custom-provider";

export interface WebHostOptions {
  dataDir: string;
  port: number;
  /** out/ of `electron-vite build`: the worker (main/agent-worker.js) and the page (renderer/). */
  buildDir: string;
  integrityCheck: boolean;
  /** Registered as the custom provider "Loopback" and made the default model when none is set. */
  loopbackBaseUrl?: string;
  /** Told once per worker that starts serving a session (the e2e tests find worker pids this way). */
  onWorker?(pid: number | undefined, sessionId: string): void;
}

export interface WebHost {
  url: string;
  /** Stops serving, stops every worker (abort, flush) and writes the session index. */
  close(): Promise<void>;
}

export const LOOPBACK_PROVIDER_ID = "loopback";

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(join(dataDir, "sessions"), { recursive: true });
  const settings = SettingsStore.open({ cwd: dataDir });
  if (options.loopbackBaseUrl) registerLoopback(settings, options.loopbackBaseUrl);
  const secrets = SecretStore.open(join(dataDir, "secrets.json"), plaintextDevCipher);
  const index = await SessionIndex.open(join(dataDir, "session-index.json"));

  const broker = new SessionBroker({
    launcher: new NodeWorkerLauncher(join(options.buildDir, "main", "agent-worker.js")),
    sessionsDir: join(dataDir, "sessions"),
    sessionTransport: "websocket",
    getApiKey: (provider) => resolveApiKey(provider, secrets),
    getWorkerSettings: () => toWorkerSettings(settings.get()),
    integrityCheck: options.integrityCheck,
  });
  const app = new AppService({
    settings,
    secrets,
    index,
    broker,
    // There is no window to open here: the page opens the new tab itself (see web-services.ts).
    openSession: async (id) => {
      if (!index.isLive(id)) throw new Error("No such chat");
    },
  });

  const announced = new Map<string, number | undefined>();
  const announce = (sessionId: string, pid: number | undefined) => {
    if (announced.get(sessionId) === pid) return;
    announced.set(sessionId, pid);
    options.onWorker?.(pid, sessionId);
  };
  broker.onEvent((event) => {
    if (event.type === "worker-restarted") announce(event.sessionId, event.pid);
    if (event.type === "session-closed") announced.delete(event.sessionId);
  });
  broker.warmUp();

  const http = await startHttpServer({
    port: options.port,
    staticDir: join(options.buildDir, "renderer"),
    token: randomBytes(24).toString("base64url"),
    routes: {
      call: (method, args) => dispatchAppCall(app, method, args),
      attach: async (sessionId, viewerId) => {
        if (!index.isLive(sessionId)) throw new BadRequest("No such chat");
        const attachment = await broker.attach(sessionId, viewerId);
        announce(sessionId, attachment.worker.pid);
        if (!attachment.url) throw new Error("The worker offered no session URL");
        for (const problem of attachment.problems) app.notify("warning", problem);
        return { url: attachment.url, ...(attachment.restartedReason ? { restartedReason: attachment.restartedReason } : {}) };
      },
      detach: (sessionId, viewerId) => broker.detach(sessionId, viewerId),
    },
  });

  let closing: Promise<void> | undefined;
  return {
    url: http.url,
    close: () =>
      (closing ??= (async () => {
        await http.close();
        await broker.dispose();
        await index.flush();
      })()),
  };
}

/** Points the "Loopback" custom provider at this run's test server (its port changes every run). */
function registerLoopback(settings: SettingsStore, baseUrl: string): void {
  const current = settings.get();
  const loopback = { id: LOOPBACK_PROVIDER_ID, name: "Loopback", baseUrl, models: ["test-model", "other-model"] };
  const others = current.customProviders.filter((p) => p.id !== LOOPBACK_PROVIDER_ID);
  settings.update({
    customProviders: [...others, loopback],
    ...(current.defaultModel ? {} : { defaultModel: { provider: customProviderName(LOOPBACK_PROVIDER_ID), id: "test-model" } }),
  });
}
