/**
 * The browser host, assembled: the same Electron-free broker, settings, secrets and session index the desktop app
 * uses, behind a loopback HTTP server (see http-server.ts). Sessions' traffic goes page <-> worker over each
 * worker's own loopback WebSocket; this host only hands out the URL.
 *
 * Never imports electron. API keys are kept with `plaintextDevCipher`: loopback development only.
 */
import { randomBytes } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { dispatchAppCall } from "../main/broker/app-call";
import { createCore, dataFiles, type Core } from "../main/broker/core";
import { threadRunner } from "../main/checkpoints/thread-runner";
import { NodeWorkerLauncher } from "../main/broker/node-worker-launcher";
import { AppLog, captureConsole } from "../main/logs/app-log";
import { plaintextDevCipher } from "../main/broker/secrets";
import { endpointUrl } from "../main/broker/session-broker";
import type { SettingsStore } from "../main/broker/settings-store";
import { BadRequest, startHttpServer } from "./http-server";
import { PageViewers } from "./page-viewers";
import { customProviderName } from "../shared/providers/custom-provider";
import { piOAuthFlows, type OAuthFlows } from "../main/accounts/oauth-providers";
import { oauthTestFlow } from "./oauth-test-server";

export interface WebHostOptions {
  dataDir: string;
  port: number;
  /** out/ of `electron-vite build`: the worker (main/agent-worker.js) and the page (renderer/). */
  buildDir: string;
  integrityCheck: boolean;
  /** Registered as the custom provider "Loopback" and made the default model when none is set. */
  loopbackBaseUrl?: string;
  /** A stand-in OAuth server's address: its flow (oauth-test-server.ts) replaces GitHub Copilot's sign-in. */
  oauthTestUrl?: string;
  /** Copies this process's console output into the log file too (`npm run dev:web`; not tests running the host in theirs). */
  logConsole?: boolean;
  /** Told once per worker that starts serving a session (the e2e tests find worker pids this way). */
  onWorker?(pid: number | undefined, sessionId: string): void;
}

export interface WebHost {
  url: string;
  /**
   * How many agents are working or waiting for the user, when the user asked to be asked before stopping them
   * (Settings: "ask before closing"); 0 otherwise.
   */
  agentsToConfirm(): number;
  /** Stops serving, stops every worker (each aborts its run and journals it) and writes the session index. */
  close(): Promise<void>;
}

export const LOOPBACK_PROVIDER_ID = "loopback";

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  // The page has no window to open: it opens the new tab itself (see web-services.ts) and asks only for the check.
  const dataDir = resolve(options.dataDir);
  const { compileCacheDir, logsDir } = dataFiles(dataDir);
  // The same log file as the desktop app's: the workers' and the MCP host's output, and main's console (main.ts).
  const log = new AppLog({ dir: logsDir });
  const releaseConsole = options.logConsole ? captureConsole(log) : undefined;
  const core: Core<never> = await createCore({
    dataDir,
    log,
    launcher: new NodeWorkerLauncher(join(options.buildDir, "main", "agent-worker.js"), [], compileCacheDir, { log, kind: "worker" }),
    mcpLauncher: new NodeWorkerLauncher(join(options.buildDir, "main", "mcp-host.js"), [], compileCacheDir, { log, kind: "mcp" }),
    checkpointRunner: threadRunner(join(options.buildDir, "main", "checkpoint-maintenance.js")),
    sessionTransport: "websocket",
    cipher: plaintextDevCipher,
    integrityCheck: options.integrityCheck,
    prepareSettings: (settings) => {
      if (options.loopbackBaseUrl) registerLoopback(settings, options.loopbackBaseUrl);
    },
    openSession: async (id) => {
      if (!core.index.isLive(id)) throw new Error("No such chat");
    },
    ...(options.oauthTestUrl ? { oauthFlows: testFlows(options.oauthTestUrl) } : {}),
  });
  const { broker, index, service } = core;

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
  const pages = new PageViewers((sessionId, viewerId) => broker.detach(sessionId, viewerId));

  const address = readAddress(core.files.settingsDir);
  const token = address?.token ?? randomBytes(24).toString("base64url");
  const serve = (port: number) => startHttpServer({
    port,
    staticDir: join(options.buildDir, "renderer"),
    token,
    routes: {
      call: (method, args) => dispatchAppCall(service, method, args),
      attach: async ({ sessionId, viewerId, pageId }) => {
        if (!index.isLive(sessionId)) throw new BadRequest("No such chat");
        const attachment = await broker.attach(sessionId, viewerId);
        if (pageId) pages.add(pageId, sessionId, viewerId);
        announce(sessionId, attachment.worker.pid);
        for (const problem of attachment.problems) service.notify("warning", problem);
        const url = endpointUrl(attachment);
        return { url, ...(attachment.restartedReason ? { restartedReason: attachment.restartedReason } : {}) };
      },
      detach: async ({ sessionId, viewerId, pageId }) => {
        if (pageId) pages.remove(pageId, viewerId);
        broker.detach(sessionId, viewerId);
      },
      subscribe: (send, pageId) => {
        const unsubscribe = service.onEvent(send);
        const closed = pageId ? pages.connected(pageId) : undefined;
        return () => {
          unsubscribe();
          closed?.();
        };
      },
    },
  });
  // Without a port asked for, the host comes back where it was, so open pages reconnect by themselves.
  const preferred = options.port === 0 ? (address?.port ?? 0) : options.port;
  // The remembered port may be taken, or reserved since (Windows does that after a reboot): any port will do then.
  const http = await serve(preferred).catch((error: unknown) => {
    if (options.port !== 0 || preferred === 0) throw error;
    return serve(0);
  });
  writeAddress(core.files.settingsDir, { port: http.port, token });

  let closing: Promise<void> | undefined;
  return {
    url: http.url,
    agentsToConfirm: () => core.agentsToConfirm(),
    close: () =>
      (closing ??= (async () => {
        pages.dispose();
        await http.close();
        await core.shutdown();
        releaseConsole?.();
        await log.close();
      })()),
  };
}

/**
 * Where the host served last time, and with which token: `<data>/web-host.json`, readable by this user only. The
 * token opens a page (which gets a short-lived credential signed with it: page-credentials.ts) and lets scripts call
 * the API; keeping it lets a page opened before a restart carry on, and a printed address stays valid for as long as
 * the data folder lives: a deliberate choice for a loopback development host, whose API keys sit in the same folder
 * in the clear. Delete the file for a new token (which also ends every page's credential).
 */
interface HostAddress {
  port: number;
  token: string;
}

function readAddress(dataDir: string): HostAddress | undefined {
  try {
    const value = JSON.parse(readFileSync(join(dataDir, ADDRESS_FILE), "utf8")) as Partial<HostAddress>;
    const portOk = Number.isInteger(value.port) && value.port! >= 1 && value.port! <= 65_535;
    if (portOk && typeof value.token === "string" && /^[A-Za-z0-9_-]{32,}$/.test(value.token)) return value as HostAddress;
  } catch {
    // Missing or damaged: a new address it is.
  }
  return undefined;
}

/** Written whole or not at all (temp file, then rename), readable by this user only. */
function writeAddress(dataDir: string, address: HostAddress): void {
  const file = join(dataDir, ADDRESS_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(address), { mode: 0o600 });
  renameSync(temp, file);
}

const ADDRESS_FILE = "web-host.json";

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

/** pi-ai's sign-in flows with GitHub Copilot's replaced by the stand-in server's (tests, `--oauth-test-url`). */
function testFlows(url: string): () => OAuthFlows {
  let flows: OAuthFlows | undefined;
  return () => (flows ??= new Map([...piOAuthFlows(), ["github-copilot", oauthTestFlow(url)]]));
}
