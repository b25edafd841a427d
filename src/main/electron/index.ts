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
import { AppLog, captureConsole } from "../logs/app-log";
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
import { applySpellCheck, hardenSession, openExternalLink } from "./security";
import { spellCheckConfig } from "../app-page/spell-check";
import { claimSingleInstance } from "./single-instance";
import { applyUserDataFolder } from "./user-data";
import { UtilityWorkerLauncher } from "./utility-worker-launcher";
import { WindowStateTracker } from "./window-state";
import { emptyChatToReuse } from "../../shared/protocol/empty-chat";
import { appUserModelId } from "../lifecycle/app-identity";
import { QuitSequence } from "../lifecycle/quit-sequence";
import { lastWindowQuits, showsTray, withNoWindow, type StayAliveInputs } from "../lifecycle/stay-in-tray";
import { AppTray } from "./tray";
import { watchSystemEnd } from "./system-end";
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

/** Builds everything after app ready; returns the window manager for the single-instance hand-over. */
async function start(): Promise<ChatWindows> {
  const dataDir = app.getPath("userData");
  const { compileCacheDir, logsDir } = dataFiles(dataDir);
  // A packaged app's stdout goes nowhere: main's console and every worker's and the MCP host's output go here too.
  const log = new AppLog({ dir: logsDir });
  captureConsole(log);
  const core = await createCore<MessagePortMain>({
    dataDir,
    log,
    launcher: new UtilityWorkerLauncher(join(here, "agent-worker.js"), "Paddock Agent", compileCacheDir, { log, kind: "worker" }),
    mcpLauncher: new UtilityWorkerLauncher(join(here, "mcp-host.js"), "Paddock MCP", compileCacheDir, { log, kind: "mcp" }),
    checkpointRunner: threadRunner(join(here, "checkpoint-maintenance.js")),
    sessionTransport: "port",
    cipher: safeStorageCipher,
    // Settings persist through electron-store (the stack's choice); the core reads, checks and sets aside.
    storeFactory: ({ cwd, name, configFileMode }) => new ElectronStore<Record<string, unknown>>({ cwd, name, configFileMode }),
    // Only reached without a calling window (see apiFor below), where "this window" means a new one.
    openSession: async (id) => void chatWindows.open(id),
    // Only the agents and logs folders reach this (app-service picks the path, never the page).
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
  // Spell checking as Settings say (off unless turned on: it downloads dictionaries on Windows and Linux).
  applySpellCheck(session.defaultSession, spellCheckConfig(settings.get()));
  let spellCheckOn = settings.get().spellCheck === true;
  settings.subscribe((next) => {
    if ((next.spellCheck === true) === spellCheckOn) return;
    spellCheckOn = next.spellCheck === true;
    applySpellCheck(session.defaultSession, spellCheckConfig(next));
  });
  serveAppPages(pageRoot);
  // How the app ends (main/lifecycle/quit-sequence.ts): a user's quit cleans up within 6 s; a restart, shutdown or
  // logout never asks and exits within 1 s, main's state saved first.
  const quitSequence: QuitSequence = new QuitSequence({
    cleanUp: () => core.shutdown(),
    saveState: async () => {
      tracker.flush();
      await core.savePending();
    },
    quit: () => app.quit(),
    exit: () => app.exit(0),
    report: (text, error) => console.error(`paddock: ${text}`, error),
  });
  watchSystemEnd(quitSequence);
  // The guard first: the tracker's before-quit listener must see a quit the guard cancelled as prevented.
  // Whether the app stays in the tray with no window (main/lifecycle/stay-in-tray.ts): while an enabled schedule
  // exists (main/schedules). The Electron suite's tray test says one exists (PADDOCK_TEST_SCHEDULES=1,
  // test/electron/tray.electron.test.ts).
  const hasSchedules = process.env.PADDOCK_TEST_SCHEDULES === "1" ? () => true : () => core.schedules.hasEnabled();
  const stayAlive = (): StayAliveInputs => ({ platform: process.platform, stayInTray: settings.get().background.stayInTray, hasSchedules });
  const closeGuard = new CloseGuard({
    agentsToConfirm: () => quitSequence.agentsToConfirm(() => core.agentsToConfirm()),
    lastWindowQuits: () => lastWindowQuits(stayAlive()),
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
    tellUser: (text) => service.notify("warning", text),
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
  const tray = new AppTray({ open: () => chatWindows.open(), quit: () => app.quit() });
  /** With no window: quit, or stay (in the tray while schedules exist and Settings say so; macOS in the Dock). */
  const noWindow = () => {
    const next = withNoWindow(stayAlive());
    tray.set(next === "tray");
    if (next === "quit") app.quit();
  };
  app.on("window-all-closed", noWindow);
  app.on("browser-window-created", () => tray.set(showsTray(stayAlive(), 1)));
  settings.subscribe(() => {
    if (BrowserWindow.getAllWindows().length === 0) noWindow();
  });
  // A schedule switched off (or deleted) while no window is open may leave none enabled: the tray follows.
  core.schedules.onChange(() => {
    if (BrowserWindow.getAllWindows().length === 0) noWindow();
  });
  app.on("will-quit", (event) => {
    // Workers abort and flush their transcripts and the index reaches disk before the process goes, within the
    // sequence's bound. It ends in app.exit, without a second before-quit (which would save the window list again,
    // by then empty): preventing will-quit resets Electron's quitting state, so app.quit() here would start over.
    event.preventDefault();
    quitSequence.cleanUp();
  });
  return chatWindows;
}

// Main's own requests (sign-ins, model lists, endpoint probes) trust the system's certificates too.
trustSystemCertificates();
applyUserDataFolder();
// Every session starts with spell checking off and no way to fetch dictionaries, before anything could load one;
// start() then applies the user's setting.
app.on("session-created", (created) => applySpellCheck(created, spellCheckConfig(undefined)));
// Windows shows toasts, and groups taskbar buttons, by this id: it must be the installer's shortcut's (appId).
const userModelId = appUserModelId(process.platform, app.isPackaged);
if (userModelId !== undefined) app.setAppUserModelId(userModelId);
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
