/**
 * Electron's main process: the composition root. It builds the Electron-free core (`createCore`: settings, secrets,
 * session index, broker, app service) on Electron's adapters and wires windows, IPC, menus, notifications and the
 * app's life cycle.
 * No business logic here: anything worth testing lives in src/main/broker (and, for the page, src/main/app-page).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { app, BrowserWindow, dialog, session, shell, type MessagePortMain } from "electron";
import ElectronStore from "electron-store";
import { createCore, dataFiles } from "../broker/core";
import { threadRunner } from "../checkpoints/thread-runner";
import { appPageUrl, isAppPageUrl } from "../app-page/app-origin";
import { SESSION_QUERY_PARAM } from "../../shared/protocol/desktop-bridge";
import { registerAppScheme, serveAppPages } from "./app-protocol";
import { ChatWindows } from "./chat-windows";
import { CloseGuard } from "./confirm-close";
import { desktopNotifications } from "./desktop-notifications";
import { appApiWith, registerIpc } from "./ipc";
import { installApplicationMenu } from "./menu";
import { safeStorageCipher } from "./safe-storage-cipher";
import { hardenSession, openExternalLink } from "./security";
import { claimSingleInstance } from "./single-instance";
import { applyUserDataOverride } from "./user-data";
import { UtilityWorkerLauncher } from "./utility-worker-launcher";
import { WindowStateTracker } from "./window-state";
import { emptyChatToReuse } from "../../shared/protocol/empty-chat";
import { trustSystemCertificates } from "../../shared-node/process/system-certificates";

const here = fileURLToPath(new URL(".", import.meta.url));
/** The built renderer, served as app://paddock/ (never loaded from file://). */
const pageRoot = join(here, "../renderer");
/** electron-vite's dev server, in development only: a packaged app never loads pages from the network. */
const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
const devServerOrigin = devServerUrl ? new URL(devServerUrl).origin : undefined;

/** Whether `url` is the app's page (any query), i.e. a page that may use the bridge. */
const isAppUrl = (url: string): boolean => isAppPageUrl(url, devServerOrigin);

function loadPage(win: BrowserWindow, sessionId: string | undefined): Promise<void> {
  if (!devServerUrl) return win.loadURL(appPageUrl(sessionId));
  const url = new URL(devServerUrl);
  if (sessionId !== undefined) url.searchParams.set(SESSION_QUERY_PARAM, sessionId);
  return win.loadURL(url.href);
}

/** The whole cleanup after the last window closed, at most; then the app exits whatever is left. */
const QUIT_LIMIT_MS = 6_000;

/** Builds everything after app ready; returns the window manager for the single-instance hand-over. */
async function start(): Promise<ChatWindows> {
  const dataDir = app.getPath("userData");
  const { compileCacheDir } = dataFiles(dataDir);
  const core = await createCore<MessagePortMain>({
    dataDir,
    launcher: new UtilityWorkerLauncher(join(here, "agent-worker.js"), "Paddock Agent", compileCacheDir),
    mcpLauncher: new UtilityWorkerLauncher(join(here, "mcp-host.js"), "Paddock MCP", compileCacheDir),
    checkpointRunner: threadRunner(join(here, "checkpoint-maintenance.js")),
    sessionTransport: "port",
    cipher: safeStorageCipher,
    // Settings persist through electron-store (the stack's choice); the core reads, checks and sets aside.
    storeFactory: ({ cwd, name, configFileMode }) => new ElectronStore<Record<string, unknown>>({ cwd, name, configFileMode }),
    // Only reached without a calling window (see apiFor below), where "this window" means a new one.
    openSession: async (id) => void chatWindows.open(id),
    // Only the agents folders reach this (app-service picks the path, never the page).
    openFolder: async (path) => {
      const failure = await shell.openPath(path);
      if (failure) throw new Error(`Could not open ${path}: ${failure}`);
    },
    // An account sign-in's page, in the system browser, by the rule a page's links follow.
    openExternal: openExternalLink,
  });
  const { settings, index, broker, service } = core;
  const sessionExists = (id: string) => index.isLive(id);

  hardenSession(session.defaultSession, { devServerOrigin });
  serveAppPages(pageRoot);
  // The guard first: the tracker's before-quit listener must see a quit the guard cancelled as prevented.
  const closeGuard = new CloseGuard({
    agentsToConfirm: () => core.agentsToConfirm(),
    lastWindowQuits: process.platform !== "darwin",
  });
  const tracker = new WindowStateTracker(settings);
  const chatWindows: ChatWindows = new ChatWindows({
    preloadPath: join(here, "../preload/index.cjs"),
    loadPage,
    broker,
    tracker,
    closeGuard,
    sessionExists,
    warn: (text) => service.notify("warning", text),
  });
  const notify = desktopNotifications({
    enabled: () => settings.get().background.notifications,
    isInFront: (id) => chatWindows.isInFront(id),
    reveal: (id) => chatWindows.reveal(id),
  });
  service.onEvent((event) => {
    chatWindows.broadcast(event);
    notify(event);
  });

  const newChatWindow = () =>
    service.createSession().then(
      (created) => void chatWindows.open(created.id),
      (error: unknown) => service.notify("error", `Could not start a new chat: ${(error as Error).message}`),
    );
  registerIpc({
    windowOf: (event) => chatWindows.fromContents(event.sender),
    isAppUrl,
    apiFor: (win) =>
      appApiWith(service, {
        openSession: async (id, where) => {
          if (!sessionExists(id)) throw new Error("No such chat");
          if (where === "new-window") chatWindows.open(id);
          else chatWindows.show(win, id);
        },
        // The system's folder dialog, opened by main and attached to the asking window; the page only asks.
        pickWorkspace: async (id) => {
          if (!sessionExists(id)) throw new Error("No such chat");
          const current = index.get(id)?.workspace ?? settings.get().recentWorkspaces[0];
          const picked = await dialog.showOpenDialog(win, {
            title: "Choose the chat's workspace",
            buttonLabel: "Use This Folder",
            properties: ["openDirectory", "createDirectory"],
            ...(current ? { defaultPath: current } : {}),
          });
          const folder = picked.canceled ? undefined : picked.filePaths[0];
          return folder ? service.setWorkspace(id, folder) : null;
        },
        // The system's save dialog for a chat export, attached to the asking window; main writes the file.
        saveSessionExport: async (id, format) => {
          const file = await service.exportSession(id, format);
          const saved = await dialog.showSaveDialog(win, {
            title: format === "json" ? "Export the chat as JSON" : "Export the chat as Markdown",
            defaultPath: join(app.getPath("documents"), file.fileName),
            filters: [format === "json" ? { name: "Paddock chat (JSON)", extensions: ["json"] } : { name: "Markdown", extensions: ["md"] }],
          });
          if (saved.canceled || !saved.filePath) return null;
          await writeFile(saved.filePath, file.text, "utf8");
          return saved.filePath;
        },
      }),
    connect: (win, sessionId, nonce) => chatWindows.connect(win, sessionId, nonce),
  });
  installApplicationMenu(
    {
      newChat: (window) => {
        const win = chatWindows.chatWindow(window);
        if (win) chatWindows.command(win, "new-chat");
        else {
          // No chat window in front (macOS): an untouched chat is brought forward rather than another made.
          void service.listSessions().then((list) => {
            const empty = emptyChatToReuse(list);
            if (empty) chatWindows.reveal(empty.id);
            else void newChatWindow();
          }, () => void newChatWindow());
        }
      },
      newWindow: () => void newChatWindow(),
      closeWindow: (window) => window?.close(),
      // With no window (macOS), open one; the user is one more Cmd+, away from the settings.
      openSettings: (window) => {
        const win = chatWindows.chatWindow(window);
        if (win) chatWindows.command(win, "open-settings");
        else chatWindows.open();
      },
      pageCommand: (window, command) => {
        const win = chatWindows.chatWindow(window);
        if (win) chatWindows.command(win, command);
      },
    },
    { development: !app.isPackaged },
  );

  const restorable = tracker.restorable().filter((record) => sessionExists(record.sessionId));
  for (const record of restorable) chatWindows.open(record.sessionId, record.bounds, record.maximized);
  if (restorable.length === 0) chatWindows.open();
  broker.warmUp();

  app.on("activate", () => {
    if (BrowserWindow.getAllWindows().length === 0) chatWindows.open();
  });
  app.on("window-all-closed", () => {
    // macOS apps stay in the Dock with no window (their agents work on); elsewhere the last window closing quits.
    if (process.platform !== "darwin") app.quit();
  });
  let cleaning = false;
  app.on("will-quit", (event) => {
    // Workers abort and flush their transcripts and the index reaches disk before the process goes. core.shutdown
    // bounds the workers (about 5 s); QUIT_LIMIT_MS bounds the whole, index write included. app.exit ends the quit
    // without a second before-quit (which would save the window list again, by then empty): preventing will-quit
    // resets Electron's quitting state, so app.quit() here would start the quit over.
    event.preventDefault();
    if (cleaning) return;
    cleaning = true;
    const limit = new Promise<void>((resolve) => setTimeout(resolve, QUIT_LIMIT_MS));
    void Promise.race([core.shutdown(), limit])
      .catch((error: unknown) => console.error("paddock: cleanup before quitting failed", error))
      .finally(() => app.exit(0));
  });
  return chatWindows;
}

// Main's own requests (sign-ins, model lists, endpoint probes) trust the system's certificates too.
trustSystemCertificates();
applyUserDataOverride();
app.enableSandbox();
// Before ready, as Electron requires; the handler itself is installed in start().
registerAppScheme();
/** Set once started; a second launch before then has nothing to hand over to and is ignored. */
let windows: ChatWindows | undefined;
if (claimSingleInstance({ openWindow: () => windows?.open() })) {
  app
    .whenReady()
    .then(start)
    .then((started) => {
      windows = started;
    })
    .catch((error: unknown) => {
      console.error("paddock: could not start", error);
      app.exit(1);
    });
}
