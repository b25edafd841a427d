import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { AppNotice, ModelOption, ModelRef, ProviderStatus, SessionSummary } from "../../shared/protocol/app-api";
import type { Settings } from "../../shared/settings/schema";
import { ChatView } from "../views/ChatView";
import { SettingsView } from "../views/SettingsView";
import { SetupView } from "../views/SetupView";
import { Sidebar } from "../components/sidebar/Sidebar";
import { NoticeBanner } from "../components/common/NoticeBanner";
import { Toast } from "../components/common/Toast";
import { ServicesContext } from "./ServicesContext";
import type { AppCommand, AppServices } from "./services";
import { useSessionHandle } from "./useSessionHandle";
import { useTheme } from "./useTheme";
import "../styles/index.css";
import { isModelChosen } from "../../shared/agent/state";
import { errorText } from "../../shared/error-text";

/** The whole page. Everything outside comes through `services`, so hosts and test fixtures plug in the same way. */
export function App({ services }: { services: AppServices }) {
  return (
    <ServicesContext.Provider value={services}>
      <AppShell services={services} />
    </ServicesContext.Provider>
  );
}

interface AppData {
  settings: Settings;
  models: ModelOption[];
  providerStatus: ProviderStatus[];
}

interface UndoToast {
  sessionId: string;
  title: string;
}

const UNDO_MS = 8000;
/** How often the sidebar asks main again while a chat open elsewhere is running. */
const BACKGROUND_REFRESH_MS = 3_000;

function AppShell({ services }: { services: AppServices }) {
  const { app } = services;
  const [data, setData] = useState<AppData | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [sessions, setSessions] = useState<SessionSummary[]>([]);
  const [activeId, setActiveId] = useState<string | undefined>(undefined);
  const [route, setRoute] = useState<"chat" | "settings">("chat");
  const [notices, setNotices] = useState<AppNotice[]>([]);
  const [undo, setUndo] = useState<UndoToast | null>(null);
  const [setupSkipped, setSetupSkipped] = useState(false);
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const handle = useSessionHandle(services, activeId);

  useTheme(data?.settings.theme ?? "system");

  const report = useCallback((e: unknown) => setFailure(errorText(e)), []);
  const refreshSessions = useCallback(() => app.listSessions().then(setSessions, report), [app, report]);
  const takeNotices = useCallback(() => {
    app.takeNotices().then((fresh) => fresh.length > 0 && setNotices((old) => [...old, ...fresh]), report);
  }, [app, report]);

  const load = useCallback(async () => {
    setLoadError(null);
    try {
      const [settings, models, providerStatus, list] = await Promise.all([
        app.getSettings(), app.listModels(), app.providerStatus(), app.listSessions(),
      ]);
      setData({ settings, models, providerStatus });
      setSessions(list);
      takeNotices();
      const newest = [...list].sort((a, b) => b.updated - a.updated)[0];
      setActiveId((current) => current ?? services.initialSessionId ?? newest?.id);
      if (!services.initialSessionId && !newest) {
        const created = await app.createSession();
        setSessions((old) => [created, ...old]);
        setActiveId(created.id);
      }
    } catch (e) {
      setLoadError(errorText(e));
    }
  }, [app, services.initialSessionId, takeNotices]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    const onFocus = () => {
      takeNotices();
      void refreshSessions();
    };
    window.addEventListener("focus", onFocus);
    return () => window.removeEventListener("focus", onFocus);
  }, [takeNotices, refreshSessions]);

  useEffect(() => {
    if (!undo) return;
    const timer = setTimeout(() => setUndo(null), UNDO_MS);
    return () => clearTimeout(timer);
  }, [undo]);

  const reloadProviders = useCallback(async () => {
    const [models, providerStatus] = await Promise.all([app.listModels(), app.providerStatus()]);
    setData((d) => (d ? { ...d, models, providerStatus } : d));
    return models;
  }, [app]);

  const openSession = (id: string, where: "this-window" | "new-window") => {
    setSidebarOpen(false);
    if (where === "new-window") {
      app.openSession(id, "new-window").catch(report);
      return;
    }
    setRoute("chat");
    setActiveId(id);
    // Main keeps which session each window shows (for restoring windows on relaunch).
    app.openSession(id, "this-window").catch(report);
  };

  const newChat = () => {
    app.createSession().then((created) => {
      setSessions((old) => [created, ...old.filter((s) => s.id !== created.id)]);
      openSession(created.id, "this-window");
    }, report);
  };

  // Native menus (Cmd/Ctrl+, and Cmd/Ctrl+N in Electron) and the same keys in the browser host.
  const commandRef = useRef<(command: AppCommand) => void>(() => {});
  commandRef.current = (command) => {
    if (command === "open-settings") setRoute("settings");
    else newChat();
  };
  useEffect(() => services.onCommand?.((command) => commandRef.current(command)), [services]);
  useEffect(() => {
    if (services.onCommand) return; // the native menu owns these keys
    const onKey = (e: KeyboardEvent) => {
      if (!(e.metaKey || e.ctrlKey) || e.altKey || e.shiftKey) return;
      if (e.key === ",") {
        e.preventDefault();
        commandRef.current("open-settings");
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [services]);

  const rename = (id: string, title: string) => {
    setSessions((old) => old.map((s) => (s.id === id ? { ...s, title } : s)));
    app.renameSession(id, title).catch((e: unknown) => {
      report(e);
      void refreshSessions();
    });
  };

  const remove = (id: string) => {
    const victim = sessions.find((s) => s.id === id);
    app.deleteSession(id).then(() => {
      const rest = sessions.filter((s) => s.id !== id);
      setSessions(rest);
      setUndo({ sessionId: id, title: victim?.title || "Chat" });
      if (id === activeId) {
        const next = [...rest].sort((a, b) => b.updated - a.updated)[0];
        if (next) openSession(next.id, "this-window");
        else newChat();
      }
    }, report);
  };

  const restore = (id: string) => {
    setUndo(null);
    app.restoreSession(id).then(() => refreshSessions(), report);
  };

  // The open chat's run state comes live from its own view; main's list only catches up at the next refresh.
  const [activeRunning, setActiveRunning] = useState(false);
  const onRunningChange = useCallback((running: boolean) => {
    setActiveRunning(running);
    if (!running) void refreshSessions();
  }, [refreshSessions]);
  const listed = useMemo(
    () => sessions.map((s) => (s.id === activeId && Boolean(s.running) !== activeRunning ? { ...s, running: activeRunning } : s)),
    [sessions, activeId, activeRunning],
  );
  // Runs in chats open elsewhere (another window) show up and clear within a few seconds.
  const otherRunning = sessions.some((s) => s.running && s.id !== activeId);
  useEffect(() => {
    if (!otherRunning) return;
    const timer = setInterval(() => void refreshSessions(), BACKGROUND_REFRESH_MS);
    return () => clearInterval(timer);
  }, [otherRunning, refreshSessions]);

  if (loadError) {
    return (
      <main className="center-screen">
        <div className="notice notice-error" role="alert" data-testid="notice">Paddock could not start: {loadError}</div>
        <button type="button" className="btn btn-primary" onClick={() => void load()}>Try again</button>
      </main>
    );
  }
  if (!data) {
    return <main className="center-screen" aria-busy="true"><span className="spinner" aria-label="Loading" /></main>;
  }

  const { settings, models, providerStatus } = data;
  const usable = providerStatus.some((p) => p.keySource !== "none") || settings.customProviders.length > 0;
  const showSetup = !usable && !settings.onboarded && !setupSkipped;

  const finishSetup = async (suggested?: ModelRef) => {
    const fresh = await reloadProviders();
    const model = suggested ?? fresh[0];
    const settingsNow = await app.updateSettings({
      onboarded: true, ...(model ? { defaultModel: { provider: model.provider, id: model.id } } : {}),
    });
    setData((d) => (d ? { ...d, settings: settingsNow } : d));
    if (model && handle && !isModelChosen(handle.getView().state.model)) {
      await handle.commands.setModel({ provider: model.provider, id: model.id });
    }
  };

  const activeTitle = sessions.find((s) => s.id === activeId)?.title || "New chat";

  return (
    <div className={`app${sidebarOpen ? " sidebar-open" : ""}`}>
      <Sidebar
        sessions={listed}
        activeId={activeId}
        settingsOpen={route === "settings"}
        onNewChat={newChat}
        onOpen={openSession}
        onRename={rename}
        onDelete={remove}
        onOpenSettings={() => {
          setSidebarOpen(false);
          setRoute((r) => (r === "settings" ? "chat" : "settings"));
        }}
      />
      {sidebarOpen ? <div className="scrim" onClick={() => setSidebarOpen(false)} aria-hidden="true" /> : null}
      <main className="main">
        {notices.length > 0 || failure ? (
          <div className="notices">
            {notices.map((n) => (
              <NoticeBanner key={n.id} level={n.level} text={n.text}
                onDismiss={() => setNotices((old) => old.filter((o) => o.id !== n.id))} />
            ))}
            {failure ? <NoticeBanner level="error" text={failure} onDismiss={() => setFailure(null)} /> : null}
          </div>
        ) : null}
        {showSetup ? (
          <SetupView settings={settings} providerStatus={providerStatus} onReady={finishSetup}
            onRecheck={async () => void (await reloadProviders())} onSkip={() => setSetupSkipped(true)} />
        ) : route === "settings" ? (
          <SettingsView settings={settings} models={models} providerStatus={providerStatus}
            onSettings={(s) => setData((d) => (d ? { ...d, settings: s } : d))}
            onProvidersChanged={() => void reloadProviders().catch(report)}
            onClose={() => setRoute("chat")} />
        ) : handle ? (
          <ChatView key={handle.getView().sessionId} handle={handle} title={activeTitle} models={models} abortSettings={settings.abort}
            onRunningChange={onRunningChange} onToggleSidebar={() => setSidebarOpen(true)} />
        ) : (
          <div className="center-screen"><span className="spinner" aria-label="Opening chat" /></div>
        )}
      </main>
      {undo ? (
        <Toast text={`Deleted “${undo.title}”`} actionLabel="Undo" onAction={() => restore(undo.sessionId)}
          onDismiss={() => setUndo(null)} />
      ) : null}
    </div>
  );
}
