/**
 * A page's (or test's) live connection to one session's worker: Comlink commands out, event batches in, applied to
 * a `SessionMirror`. Survives the worker: when the transport drops it asks its connector for a new one (main
 * respawns the worker and restores the transcript), tells the user why, and resyncs from a snapshot.
 *
 * Contract: commands reject with a readable Error (never hang) when the connection is lost mid-call; the mirror is
 * never left "loading" after a run ended, because every resync reloads the whole state.
 */
import * as Comlink from "comlink";
import { createAgentStateData } from "../../shared/agent/state";
import { fromEventFrame, PAGE_SESSION_METHODS, type EventBatch, type SessionApi, type SessionFrame } from "../../shared/protocol/session-protocol";
import { rpcEndpoint } from "../../shared/transport/comlink-endpoint";
import type { Transport } from "../../shared/transport/transport";
import { afterNextPaint } from "./frame-coalesced";
import { SessionMirror } from "./session-mirror";
import type { SessionCommands } from "./session-view";
import { errorText } from "../../shared/error-text";
import { workerCrashLoopMessage } from "../../shared/protocol/worker-failure";

export interface SessionConnection {
  transport: Transport;
  /** Set when the worker had died and was restarted since the last connection: why it died. */
  restartedReason?: string;
}

/**
 * Gets a transport to the session's worker (from the preload bridge, the web host, or a test's broker). Rejects with
 * `HostUnreachableError` when the host does not answer at all, with another Error when it answers with a refusal.
 */
export type SessionConnector = () => Promise<SessionConnection>;

/** The host (main, the browser host) gave no answer at all: it is not running, or not yet again. */
export class HostUnreachableError extends Error {
  constructor() {
    super("Paddock is not running");
    this.name = "HostUnreachableError";
  }
}

const RECONNECT_DELAYS_MS = [0, 100, 250, 500, 1000, 2000, 4000];
/** Older messages are fetched this many at a time, one page per frame, behind the first paint. */
const HISTORY_PAGE = 1_000;

export interface SessionClientOptions {
  /**
   * Load at most this many of the newest messages with the snapshot and fetch older ones afterwards, so a long chat
   * paints at once. Unset: every snapshot carries the whole transcript.
   */
  historyTail?: number;
  /** Runs `fn` after the page has painted what it has; a timer where there is no page (Node tests). */
  afterPaint?: (fn: () => void) => void;
  /** Asks the host to start the chat's agent process again after it kept crashing (AppApi.retrySessionWorker). */
  retryWorker?: () => Promise<void>;
}

/** A task after the next frame, i.e. after the page painted what it had. */


/** SessionApi's commands, each a pass-through to the worker (see `passThrough`). */
type PassThroughs = Omit<SessionCommands, "dismissNotice" | "retryWorker">;

// The pass-throughs are put on the prototype from the command table, so they are declared by SESSION_COMMANDS alone.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface SessionClient extends PassThroughs {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class SessionClient implements SessionCommands {
  readonly mirror: SessionMirror;
  private transport: Transport | undefined;
  private remote: Comlink.Remote<SessionApi> | undefined;
  private disconnected: Promise<never> = new Promise(() => {});
  private buffered: EventBatch[] = [];
  private resyncing = false;
  private closed = false;
  private reconnecting = false;
  private loadingHistory = false;

  constructor(
    readonly sessionId: string,
    private readonly connector: SessionConnector,
    private readonly options: SessionClientOptions = {},
  ) {
    this.mirror = new SessionMirror(sessionId, createAgentStateData());
  }

  /**
   * Connects and loads the first snapshot. A host that does not answer (not running, or not yet again) is waited for:
   * the view says "offline" and the client keeps trying. Rejects if the host refuses the connection.
   */
  async start(): Promise<void> {
    let connection: SessionConnection;
    try {
      connection = await this.connector();
    } catch (error) {
      if (this.failedFor(error)) return;
      if (!(error instanceof HostUnreachableError)) throw error;
      this.mirror.setConnection("offline");
      void this.reconnect();
      return;
    }
    await this.connectUnlessClosed(connection);
  }

  /**
   * Lets the session go: the transport closes (calls still pending reject, as on a lost connection) and the Comlink
   * proxy is released. Without the release, Comlink's finalisation registry holds the endpoint, and through a pending
   * call's resolver this whole client, for the life of the page.
   */
  close(): void {
    this.closed = true;
    this.transport?.close();
    this.releaseRemote();
    this.mirror.setConnection("closed");
  }

  // --- SessionCommands: SessionApi's pass through (installed below, from the command table), and this one --------

  dismissNotice(id: number): void {
    this.mirror.dismissNotice(id);
  }

  /** Any session command, for callers that need more than the UI's set (tests, settings sync). */
  call<T>(fn: (api: Comlink.Remote<SessionApi>) => Promise<T>): Promise<T> {
    const remote = this.remote;
    if (!remote) return Promise.reject(new Error("Not connected to the session's worker"));
    return Promise.race([fn(remote), this.disconnected]);
  }

  /**
   * The user's Retry for a chat whose agent process kept crashing: main is asked to start one again, and the client
   * connects. Rejects with main's refusal (the view stays "failed").
   */
  async retryWorker(): Promise<void> {
    if (this.closed || this.mirror.getView().connection !== "failed") return;
    await this.options.retryWorker?.();
    this.mirror.setConnection("reconnecting");
    void this.reconnect();
  }

  // --- connection --------------------------------------------------------------------------------------------------

  /** Whether `error` is main's "keeps crashing" refusal; if so the view says "failed", with its words. */
  private failedFor(error: unknown): boolean {
    const failure = workerCrashLoopMessage(errorText(error));
    if (failure === undefined) return false;
    if (!this.closed) this.mirror.setConnection("failed", failure);
    return true;
  }

  private async connect(connection: SessionConnection): Promise<void> {
    const { transport } = connection;
    this.transport = transport;
    this.buffered = [];
    let rejectDisconnected: (error: Error) => void = () => {};
    this.disconnected = new Promise<never>((_, reject) => {
      rejectDisconnected = reject;
    });
    this.disconnected.catch(() => {});
    transport.onMessage((frame) => this.onFrame(frame as SessionFrame));
    const remote = Comlink.wrap<SessionApi>(rpcEndpoint(transport));
    transport.onClose((reason) => {
      rejectDisconnected(new Error(`The session's worker connection was lost (${reason})`));
      if (this.remote === remote) this.releaseRemote();
      if (this.transport === transport) void this.reconnect();
    });
    this.remote = remote;
    if (connection.restartedReason) this.mirror.addNotice("worker-restarted", `The agent process restarted: ${connection.restartedReason}`);
    await this.resync();
    if (!this.closed) this.mirror.setConnection("ready");
  }

  /**
   * Releases the current connection's Comlink proxy: unregistered from Comlink's finalisation registry and its
   * pending calls' resolvers dropped (their callers have been rejected by `disconnected`). Its release message goes
   * nowhere: the transport is closed first.
   */
  private releaseRemote(): void {
    const remote = this.remote;
    this.remote = undefined;
    if (!remote) return;
    try {
      remote[Comlink.releaseProxy]();
    } catch {
      // Already released.
    }
  }

  private async reconnect(): Promise<void> {
    if (this.closed || this.reconnecting) return;
    this.reconnecting = true;
    this.releaseRemote();
    // A host known to be away stays "offline" until it answers.
    if (this.mirror.getView().connection !== "offline") this.mirror.setConnection("reconnecting");
    try {
      for (let attempt = 0; !this.closed; attempt++) {
        await new Promise((r) => setTimeout(r, RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]));
        try {
          await this.connectUnlessClosed(await this.connector());
          return;
        } catch (error) {
          // Main stopped starting a worker that kept crashing: no use trying again until the user asks (retryWorker).
          if (this.failedFor(error)) return;
          // The worker may still be restarting, or the host be away: say which, and try again.
          if (!this.closed) this.mirror.setConnection(error instanceof HostUnreachableError ? "offline" : "reconnecting");
        }
      }
    } finally {
      this.reconnecting = false;
    }
  }

  private onFrame(frame: SessionFrame): void {
    if (typeof frame !== "object" || frame === null) return;
    if (frame.ch === "err") {
      this.mirror.addNotice("error", frame.message);
      return;
    }
    if (frame.ch !== "ev") return;
    const batch = fromEventFrame(frame);
    if (!batch) {
      this.resyncInBackground(); // a frame this client cannot read: start again from a snapshot
      return;
    }
    if (!this.mirror.synced || this.resyncing) {
      this.buffered.push(batch);
      return;
    }
    if (this.mirror.applyBatch(batch) === "resync") this.resyncInBackground();
  }

  /** A connection that arrives after `close()` (the chat was left while it was being made) is let go at once. */
  private async connectUnlessClosed(connection: SessionConnection): Promise<void> {
    if (this.closed) {
      connection.transport.close();
      return;
    }
    await this.connect(connection);
  }

  /** A resync nobody awaits: a lost connection fails it, and the reconnection that follows starts over. */
  private resyncInBackground(): void {
    this.resync().catch(() => undefined);
  }

  /** Loads a snapshot, then replays whatever batches arrived meanwhile. */
  private async resync(): Promise<void> {
    if (this.resyncing) return;
    this.resyncing = true;
    try {
      for (;;) {
        const remote = this.remote;
        if (!remote) return;
        const tail = this.options.historyTail;
        const snapshot = await Promise.race([tail === undefined ? remote.getSnapshot() : remote.getSnapshot(tail), this.disconnected]);
        this.mirror.loadSnapshot(snapshot);
        const pending = this.buffered;
        this.buffered = [];
        let ok = true;
        for (const batch of pending) {
          if (this.mirror.applyBatch(batch) === "resync") {
            ok = false;
            break;
          }
        }
        if (ok) break;
      }
    } finally {
      this.resyncing = false;
    }
    if (this.mirror.getView().historyStart > 0) void this.loadHistory();
  }

  /**
   * Fetches the messages the snapshot left out, newest page first, each after a paint so the chat stays responsive.
   * Stops when the history is complete, the connection drops (the next resync starts over) or the client closes.
   */
  private async loadHistory(): Promise<void> {
    if (this.loadingHistory) return;
    this.loadingHistory = true;
    const afterPaint = this.options.afterPaint ?? afterNextPaint;
    try {
      while (!this.closed) {
        await new Promise<void>((resolve) => afterPaint(resolve));
        const end = this.mirror.getView().historyStart;
        if (end <= 0 || !this.remote || this.resyncing) return;
        const start = Math.max(0, end - HISTORY_PAGE);
        const remote = this.remote;
        let page: Awaited<ReturnType<SessionApi["getHistory"]>>;
        try {
          page = await this.call((api) => api.getHistory(start, end));
        } catch (error) {
          // A lost connection is retried by the resync that follows; a refusal from a live worker is not.
          if (this.remote === remote && !this.closed) {
            this.mirror.addNotice("error", `Could not load older messages: ${errorText(error)}`);
          }
          return;
        }
        // Refused when a reset or a new snapshot moved the start meanwhile; the loop then carries on from there.
        if (!this.mirror.prependHistory(end, page) && this.mirror.getView().historyStart === end) return;
      }
    } finally {
      this.loadingHistory = false;
    }
  }
}

/**
 * The arguments as they go out: trailing absent ones dropped, and an empty attachment list with them, so a command
 * without them goes out with fewer arguments, as the worker's schemas expect (an `undefined` would arrive as null).
 */
function wireArgs(args: unknown[]): unknown[] {
  let end = args.length;
  while (end > 0 && (args[end - 1] === undefined || (Array.isArray(args[end - 1]) && (args[end - 1] as unknown[]).length === 0))) end--;
  return args.slice(0, end);
}

// Every SessionApi method but the client's own reads and `reset`: the commands a page sends.
for (const method of PAGE_SESSION_METHODS) {
  Object.defineProperty(SessionClient.prototype, method, {
    value: function passThrough(this: SessionClient, ...args: unknown[]): Promise<unknown> {
      return this.call((api) => (api[method] as (...wire: unknown[]) => Promise<unknown>)(...wireArgs(args)));
    },
    writable: true,
    configurable: true,
  });
}
