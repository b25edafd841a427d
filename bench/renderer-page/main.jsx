// @ts-check
/**
 * BENCH ONLY. The real App, with the UI fixture's in-memory AppApi for the sidebar and settings, and a REAL session:
 * a SessionClient + SessionMirror connected over a WebSocket to a real worker (URL in `?ws=`). Exposes
 * `window.__bench` for bench/renderer.ts: the client, frame/long-task recording, and first-paint marks. With
 * `?view=changes`, the Changes panel instead (changes.jsx).
 */
import { createRoot } from "react-dom/client";
import { App } from "../../src/renderer/app/App";
import { openSessionHandle } from "../../src/renderer/services/session-handle";
import { WebSocketTransport } from "../../src/shared/transport/websocket-transport";
import { FakeApp, defaultSettings } from "../../testkit/fake-app.js";
import { mountChangesBench } from "./changes.jsx";

const params = new URLSearchParams(location.search);
const sessionId = params.get("session") ?? "bench";
/** A second chat in the sidebar (`?other=<id>&otherWs=<url>`), for opening a chat in a page that is already up. */
const otherId = params.get("other");
/** Each chat's worker, by session id. */
const wsUrls = new Map([[sessionId, params.get("ws") ?? ""]]);
if (otherId) wsUrls.set(otherId, params.get("otherWs") ?? "");
/** Which rows count for the first-paint mark: any message row, or e.g. `message-assistant` (the streaming reply). */
const paintRows = params.get("paint") ?? "message-";
const now = Date.now();

/** The latest openSession's marks (reset at each). @type {{ openedAt?: number, connectedAt?: number, snapshotLoadedAt?: number, firstMessagePaintAt?: number, historyLoadedAt?: number, firstRowPaintAt?: number }} */
const marks = {};
/** @type {import("../../src/renderer/store/session-client").SessionClient | undefined} */
let client;

/** @param {string} id */
async function connect(id) {
  // A chat the bench did not name up front (a subagent's): the bench attaches it and says where its worker is.
  const url = wsUrls.get(id) ?? (await /** @type {any} */ (window).__benchAttach?.(id)) ?? "";
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.addEventListener("open", () => (marks.connectedAt ??= performance.now(), resolve({ transport: new WebSocketTransport(/** @type {any} */ (socket)) })));
    socket.addEventListener("error", reject);
  });
}

/** Marks the first frame painted with a message row (`paintRows`): the row exists, then one rAF, then a task after that frame. */
function watchFirstMessagePaint() {
  const found = () => document.querySelector(`[data-testid^="${paintRows}"]`);
  const observer = new MutationObserver(() => {
    if (!found()) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => (marks.firstMessagePaintAt = performance.now()), 0));
  });
  observer.observe(document.body, { childList: true, subtree: true });
}

const app = new FakeApp({
  sessions: [
    { id: sessionId, title: "Benchmark session", created: now, updated: now, messageCount: 0 },
    ...(otherId ? [{ id: otherId, title: "Working in the background", created: now - 1, updated: now - 1, messageCount: 1 }] : []),
  ],
  settings: defaultSettings(),
  providerStatus: [{ provider: "openai", keySource: "settings" }],
});

/** @type {import("../../src/renderer/services/app-services").AppServices} */
const services = {
  app,
  initialSessionId: sessionId,
  onEvent: (listener) => app.onEvent(listener),
  openSession(id) {
    for (const key of Object.keys(marks)) delete marks[/** @type {keyof typeof marks} */ (key)];
    marks.openedAt = performance.now();
    watchFirstMessagePaint();
    // The product's own handle (frame-coalesced view over a SessionClient), as the real pages use it.
    const handle = openSessionHandle(id, () => connect(id), () => {});
    client = /** @type {any} */ (handle.commands);
    const opened = client;
    const off = opened?.mirror.subscribe(() => {
      const view = opened.mirror.getView();
      if (view.connection !== "ready") return;
      marks.snapshotLoadedAt ??= performance.now();
      if (view.historyStart > 0) return;
      marks.historyLoadedAt = performance.now();
      off?.();
    });
    return handle;
  },
};

/** @type {{ deltas: number[], longTasks: number[], running: boolean, generation: number }} */
const frames = { deltas: [], longTasks: [], running: false, generation: 0 };
/** Every long task since the page loaded, for the opening figures: [start, duration]. */
const allLongTasks = /** @type {[number, number][]} */ ([]);
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    allLongTasks.push([entry.startTime, entry.duration]);
    if (frames.running) frames.longTasks.push(entry.duration);
  }
}).observe({ type: "longtask", buffered: true });

Object.assign(window, {
  __bench: {
    marks,
    allLongTasks,
    client: () => client,
    startFrames() {
      frames.deltas = [];
      frames.longTasks = [];
      frames.running = true;
      // One recording loop at a time: a loop from an earlier recording, still waiting for its next frame when this
      // one starts, must not record too (it would double the frames).
      const generation = ++frames.generation;
      let last = performance.now();
      const tick = (/** @type {number} */ t) => {
        if (!frames.running || generation !== frames.generation) return;
        frames.deltas.push(t - last);
        last = t;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame((t) => {
        last = t;
        requestAnimationFrame(tick);
      });
    },
    stopFrames() {
      frames.running = false;
      return { deltas: frames.deltas, longTasks: frames.longTasks };
    },
    /**
     * Scrolls the message list up by `pxPerFrame` every frame for `ms` (a fast, steady fling through the chat),
     * while frames are recorded; resolves with the distance covered.
     */
    scrollUp(/** @type {number} */ pxPerFrame, /** @type {number} */ ms) {
      const list = /** @type {HTMLElement} */ (document.querySelector('[data-testid="message-list"]'));
      const start = list.scrollTop;
      const until = performance.now() + ms;
      return new Promise((resolve) => {
        const step = () => {
          if (performance.now() >= until || list.scrollTop <= 0) return resolve(start - list.scrollTop);
          list.scrollTop -= pxPerFrame;
          requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      });
    },
  },
});

const root = document.getElementById("root");
// `?view=changes&files=N`: the Changes panel over N changed files instead of the App (bench/changes-panel.ts).
if (root && params.get("view") === "changes") mountChangesBench(root, marks, Number(params.get("files") ?? "1000"));
else if (root) createRoot(root).render(<App services={services} />);
