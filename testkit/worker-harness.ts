/**
 * Real agent workers for integration tests: the built worker file (out/main/agent-worker.js) under Node's
 * child_process.fork, brokered by the real SessionBroker, talking to a loopback OpenAI-compatible server through
 * a custom provider, with SessionClients connected over WebSockets exactly as the web host's pages are.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import WebSocket from "ws";
import { NodeWorkerLauncher } from "../src/main/broker/node-worker-launcher";
import { endpointUrl, SessionBroker, type SessionBrokerOptions } from "../src/main/broker/session-broker";
import type { ChildLaunch } from "../src/main/broker/child-launch";
import { resolveModel } from "../src/main/broker/model-resolver";
import { agentCatalog } from "../src/main/agents/agent-catalog";
import type { Model } from "@earendil-works/pi-ai";
import type { ModelRef } from "../src/shared/protocol/app-api";
import type { CustomProvider } from "../src/shared/providers/custom-provider";
import { DEFAULT_SETTINGS } from "../src/shared/settings/schema";
import type { WorkerSettings } from "../src/shared/protocol/control-protocol";
import { SessionClient, type SessionClientOptions, type SessionConnection } from "../src/renderer/store/session-client";
import { WebSocketTransport, type WebSocketLike } from "../src/shared/transport/websocket-transport";
import { startOpenAIServer, turnDirective, type OpenAITestServer } from "../src/web-host/openai-test-server";
import type { BrokerEvent } from "../src/main/broker/session-broker";

export const WORKER_FILE = resolve("out/main/agent-worker.js");
/** The built MCP host process (src/mcp-host/). */
export const MCP_HOST_FILE = resolve("out/main/mcp-host.js");

/** What workers get, plus the custom endpoints main resolves their models from. */
export type TestSettings = WorkerSettings & { customProviders: CustomProvider[] };

/** Worker settings with the loopback server as the custom provider "loopback" and its model as the default. */
export function testSettings(server: Pick<OpenAITestServer, "baseUrl">, overrides: Partial<TestSettings> = {}): TestSettings {
  return {
    defaultModel: { provider: "custom:loopback", id: "test-model" },
    thinkingLevel: "off",
    steeringMode: "one-at-a-time",
    followUpMode: "one-at-a-time",
    toolExecution: "parallel",
    requestTimeoutMs: 30_000,
    clearQueuesOnAbort: false,
    toolApproval: { ...DEFAULT_SETTINGS.tools.approval },
    approvalTimeoutMs: 10 * 60_000,
    allowedDomains: [],
    customProviders: [
      { id: "loopback", name: "Loopback", baseUrl: server.baseUrl, models: ["test-model", "other-model"] },
    ],
    ...overrides,
  };
}

export async function openWebSocket(url: string): Promise<WebSocketTransport> {
  const socket = new WebSocket(url, { maxPayload: 256 * 1024 * 1024 });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  return new WebSocketTransport(socket as unknown as WebSocketLike);
}

/** The real broker over real worker processes, with a temp data folder; shared by the harness and the benchmarks. */
export interface BrokerRig {
  broker: SessionBroker;
  dataDir: string;
  sessionsDir: string;
  /** A client viewing `sessionId` as `viewerId`, connected and synced; `transport()` is its current connection. */
  connect(sessionId: string, viewerId: string, options?: SessionClientOptions): Promise<{ client: SessionClient; transport(): WebSocketTransport }>;
  /** Closes every client, stops every worker and removes the data folder. */
  close(): Promise<void>;
}

export interface BrokerRigOptions {
  integrityCheck: boolean;
  keepSpare?: boolean;
  /** How long an idle worker without viewers lives on; default 0 (stopped as soon as the last viewer leaves). */
  idleGraceMs?: number;
  /** The same for subagents' workers (at most idleGraceMs); default the product's. */
  subagentIdleGraceMs?: number;
  /** The chats' workspace folders (main's index in the app). */
  workspaceOf?(sessionId: string): string | undefined;
  /** pi's user agents are looked for in `<homeDir>/.pi/agent/agents` (default: a fresh empty folder). */
  homeDir?: string;
  /** Settings' global cap on subagents at once (default 8). */
  maxSubagents?: number;
  /** Main's answer to a worker asking for a provider's key (default: none, the loopback endpoint needs none). */
  getApiKey?(provider: string): string | undefined;
  /** Main's model resolution (default: from the settings' custom endpoints and pi-ai's catalogue). */
  resolveModel?(ref: ModelRef): Model<any>;
  /** Called as main records a subagent's session: after it checked the child's folder, before the child starts. */
  onChildSession?: SessionBrokerOptions["onChildSession"];
  /** "Allowed in this project" (main's project-grants.ts); absent: none kept. */
  projectGrants?: SessionBrokerOptions["projectGrants"];
  /** Starts the workers (default: the built worker, forked). */
  launcher?: SessionBrokerOptions["launcher"];
  /** A worker that keeps crashing: restarts and when to give up (default: the product's). */
  crashLoop?: SessionBrokerOptions["crashLoop"];
}

export function startBroker(settings: TestSettings, options: BrokerRigOptions): BrokerRig {
  if (!existsSync(WORKER_FILE)) throw new Error(`${WORKER_FILE} is missing: run \`npm run build\` first`);
  const dataDir = mkdtempSync(join(tmpdir(), "paddock-it-"));
  const sessionsDir = join(dataDir, "sessions");
  const confirmed: string[] = [];
  const childWorkspaces = new Map<string, string>();
  /** Main's session index keeps each child's launch (core.ts); this rig has no index, so it keeps them here. */
  const childLaunches = new Map<string, ChildLaunch>();
  const broker = new SessionBroker({
    launcher: options.launcher ?? new NodeWorkerLauncher(WORKER_FILE),
    ...(options.crashLoop ? { crashLoop: options.crashLoop } : {}),
    sessionsDir,
    privateDir: dataDir,
    sessionTransport: "websocket",
    getApiKey: (provider) => options.getApiKey?.(provider),
    getWorkerSettings: () => {
      const { customProviders: _providers, ...worker } = settings;
      return worker;
    },
    resolveModel: (ref) => options.resolveModel?.(ref) ?? resolveModel(ref, { customProviders: settings.customProviders }),
    integrityCheck: options.integrityCheck,
    keepSpare: options.keepSpare ?? false,
    idleGraceMs: () => options.idleGraceMs ?? 0,
    subagentIdleGraceMs: options.subagentIdleGraceMs,
    workspaceOf: (id) => childWorkspaces.get(id) ?? options.workspaceOf?.(id),
    agents: agentCatalog({
      dataDir,
      homeDir: options.homeDir ?? join(dataDir, "home"),
      confirmations: { list: () => confirmed, add: (hashes) => void confirmed.push(...hashes) },
    }),
    maxSubagents: () => options.maxSubagents ?? 8,
    worktreesDir: `${dataDir}-worktrees`,
    ...(options.projectGrants ? { projectGrants: options.projectGrants } : {}),
    onChildSession: (child) => {
      if (child.workspace) childWorkspaces.set(child.sessionId, child.workspace);
      childLaunches.set(child.sessionId, child.launch);
      options.onChildSession?.(child);
    },
    childLaunchOf: (id) => {
      const launch = childLaunches.get(id);
      return launch && { launch };
    },
  });
  const clients: SessionClient[] = [];
  return {
    broker,
    dataDir,
    sessionsDir,
    async connect(sessionId, viewerId, clientOptions) {
      let current: WebSocketTransport | undefined;
      const connector = async (): Promise<SessionConnection> => {
        const attachment = await broker.attach(sessionId, viewerId);
        current = await openWebSocket(endpointUrl(attachment));
        return { transport: current, restartedReason: attachment.restartedReason };
      };
      const client = new SessionClient(sessionId, connector, clientOptions);
      clients.push(client);
      await client.start();
      return { client, transport: () => current! };
    },
    async close() {
      for (const c of clients) c.close();
      await broker.dispose();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(`${dataDir}-worktrees`, { recursive: true, force: true });
    },
  };
}

export interface Harness {
  server: OpenAITestServer;
  broker: SessionBroker;
  dataDir: string;
  settings: TestSettings;
  /** A client viewing `sessionId` as viewer `viewerId`, connected and synced. */
  client(sessionId: string, viewerId?: string, options?: SessionClientOptions): Promise<SessionClient>;
  close(): Promise<void>;
}

/** A loopback model server and a broker whose sessions run with integrity checks on (by default). */
export async function startHarness(
  options: Partial<Pick<BrokerRigOptions, "integrityCheck" | "keepSpare" | "idleGraceMs" | "subagentIdleGraceMs" | "workspaceOf" | "homeDir" | "maxSubagents" | "getApiKey" | "resolveModel" | "onChildSession" | "projectGrants" | "launcher" | "crashLoop">> & { settings?: Partial<TestSettings> } = {},
): Promise<Harness> {
  const server = await startOpenAIServer();
  const settings = testSettings(server, options.settings);
  const rig = startBroker(settings, { ...options, integrityCheck: options.integrityCheck ?? true });
  let viewerCounter = 0;
  return {
    server,
    broker: rig.broker,
    dataDir: rig.dataDir,
    settings,
    async client(sessionId, viewerId = `viewer-${++viewerCounter}`, clientOptions) {
      return (await rig.connect(sessionId, viewerId, clientOptions)).client;
    },
    async close() {
      await rig.close();
      await server.close();
    },
  };
}

/** A model turn that calls tool `name` with `args` as call `id` (the loopback server's directive). */
export const toolCallTurn = (id: string, name: string, args: Record<string, unknown>): string => turnDirective({ toolCalls: [{ id, name, arguments: args }] });

/** Resolves when the chat is not streaming and holds `messages` messages. */
export const settled = (client: SessionClient, messages: number, timeoutMs = 20_000): Promise<void> =>
  waitForView(client, (v) => !v.state.isStreaming && v.state.messages.length === messages, timeoutMs);

/** Resolves when the chat is not streaming and its last message is the model's. */
export const repliedAndIdle = (client: SessionClient, timeoutMs = 20_000): Promise<void> =>
  waitForView(client, (v) => !v.state.isStreaming && v.state.messages.at(-1)?.role === "assistant", timeoutMs);

/** Resolves when the chat has a question waiting for the user. */
export const asked = (client: SessionClient, timeoutMs = 20_000): Promise<void> => waitForView(client, (v) => v.approvals.length > 0, timeoutMs);

/** The broker's next event that `match`es (rejects after `timeoutMs`). */
export function nextEvent(harness: Pick<Harness, "broker">, match: (e: BrokerEvent) => boolean, timeoutMs = 15_000): Promise<BrokerEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error("no such broker event"));
    }, timeoutMs);
    const off = harness.broker.onEvent((e) => {
      if (!match(e)) return;
      clearTimeout(timer);
      off();
      resolve(e);
    });
  });
}

/**
 * Resolves when the client's chat is not streaming: after a command that starts a run, once that run has settled. A
 * prompt (sendHeld, editMessage) resolves when its message is accepted, and the worker sends the mirror the run's
 * start before that answer, so waiting here right after it waits for the run's end, as the mirror reports it.
 */
export const waitForIdle = (client: SessionClient, timeoutMs?: number): Promise<void> => waitForView(client, (v) => !v.state.isStreaming, timeoutMs);

/** Sends `text` as a prompt and resolves once its run has settled (the chat is idle again). */
export async function ask(client: SessionClient, text: string): Promise<void> {
  await client.prompt(text);
  await waitForIdle(client);
}

/** Resolves when `predicate` holds for the client's view, checking on every change. */
export function waitForView(client: SessionClient, predicate: (view: ReturnType<SessionClient["mirror"]["getView"]>) => boolean, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (predicate(client.mirror.getView())) return resolve();
    const timer = setTimeout(() => {
      off();
      reject(new Error(`Timed out waiting for the view; last state: ${JSON.stringify(summary(client))}`));
    }, timeoutMs);
    const off = client.mirror.subscribe(() => {
      if (predicate(client.mirror.getView())) {
        clearTimeout(timer);
        off();
        resolve();
      }
    });
  });
}

function summary(client: SessionClient) {
  const v = client.mirror.getView();
  return { streaming: v.state.isStreaming, messages: v.state.messages.map((m) => m.role), error: v.state.errorMessage, connection: v.connection };
}
