import { useCallback, useEffect, useRef, useState } from "react";
import type { AppEvent, AppNotice, ModelOption, ModelRef, ProviderStatus, SessionSummary } from "../../shared/protocol/app-api";
import { attentionText } from "../../shared/protocol/attention";
import type { Settings } from "../../shared/settings/schema";
import { ChatView } from "../views/ChatView";
import { SettingsView } from "../views/SettingsView";
import { SetupView } from "../views/SetupView";
import { Sidebar } from "../components/sidebar/Sidebar";
import { NoticeBanner } from "../components/common/NoticeBanner";
import { Toast, ToastAnnouncer, type ToastProps } from "../components/common/Toast";
import { ShortcutsDialog } from "../components/common/ShortcutsDialog";
import { useDrawer } from "./useDrawer";
import { focusComposerSoon, useAppShortcuts } from "./useAppShortcuts";
import type { AppShortcut } from "../../shared/shortcuts";
import { ServicesContext } from "../context/ServicesContext";
import type { AppServices, HostStatus } from "../services/app-services";
import type { PageCommand } from "../../shared/protocol/desktop-bridge";
import { useSessionHandle } from "./useSessionHandle";
import type { MessageTarget } from "../components/find/useChatFind";
import { useTheme } from "./useTheme";
import "../styles/index.css";
import { isModelChosen } from "../../shared/agent/state";
import { errorText } from "../../shared/error-text";
import { HostUnreachableError } from "../store/session-client";
import { chatForNewChat } from "./new-chat";
import { newestFirst } from "../components/sidebar/groupSessions";

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
/** How long "a chat finished" stays on screen in the page (where no system notification was shown). */
const ATTENTION_MS = 10_000;

type Attention = Extract<AppEvent, { type: "attention" }>;

/** `sessions` with `changed` put in (replacing the same id), newest first as the sidebar lists them. */
function upsertSession(sessions: readonly SessionSummary[], changed: SessionSummary): SessionSummary[] {
  const rest = sessions.filter((s) => s.id !== changed.id);
  return [...rest, changed].sort(newestFirst);
}

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
  /** Asked for from Settings: the welcome setup shows whatever is configured, until finished or skipped. */
  const [setupAsked, setSetupAsked] = useState(false);
  /** The narrow window's sidebar drawer (focus in and out, Esc, inert page behind). */
  const drawer = useDrawer();
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [hostStatus, setHostStatus] = useState<HostStatus>("connected");
  const [attention, setAttention] = useState<Attention | null>(null);
  const handle = useSessionHandle(services, activeId);
  /** A search result opened: the chat shows that message once it has loaded it. */
  const [target, setTarget] = useState<(MessageTarget & { sessionId: string }) | undefined>(undefined);

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
        // Main's push about the new chat may have come first: add it once.
        setSessions((old) => upsertSession(old, created));
        setActiveId(created.id);
      }
    } catch (e) {
      // A host that is away comes back by itself: the host status brings the next attempt (below).
      if (e instanceof HostUnreachableError) setHostStatus("reconnecting");
      setLoadError(errorText(e));
    }
  }, [app, services.initialSessionId, takeNotices]);

  useEffect(() => {
    void load();
  }, [load]);

  // Back after the host was away: what was pushed meanwhile is lost, so reload what the page shows.
  useEffect(() => services.onHostStatus?.((status) => {
    setHostStatus(status);
    // Nothing runs while the host is away (its workers stop with it): the sidebar must not say otherwise.
    if (status === "reconnecting") setSessions((old) => old.map(({ activity: _activity, ...rest }) => rest));
    else void load();
  }), [services, load]);

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

  /** "Use <id> with <provider>" in the picker: the id joins settings' added models (once), and the lists reload. */
  const addModel = useCallback(async (ref: ModelRef) => {
    const settings = await app.getSettings();
    const added = settings.addedModels ?? [];
    if (!added.some((m) => m.provider === ref.provider && m.id === ref.id)) {
      const next = await app.updateSettings({ addedModels: [...added, { provider: ref.provider, id: ref.id }] });
      setData((d) => (d ? { ...d, settings: next } : d));
    }
    await reloadProviders();
  }, [app, reloadProviders]);

  /** `keepDrawer`: a chat deleted in the drawer opens another; the drawer stays, and the focus in its list. */
  const openSession = (id: string, where: "this-window" | "new-window", keepDrawer = false) => {
    if (!keepDrawer) drawer.hide();
    if (where === "new-window") {
      app.openSession(id, "new-window").catch(report);
      return;
    }
    setRoute("chat");
    setActiveId(id);
    // Main keeps which session each window shows (for restoring windows on relaunch).
    app.openSession(id, "this-window").catch(report);
  };

  /** "New chat" (sidebar, menu, shortcut): opens an untouched chat if there is one (this one first), else creates one. */
  const newChat = () => {
    const reuse = chatForNewChat(sessions, activeId, handle?.getView());
    if (reuse) {
      openSession(reuse, "this-window");
      return;
    }
    app.createSession().then((created) => {
      setSessions((old) => upsertSession(old, created));
      openSession(created.id, "this-window");
    }, report);
  };

  // The app's shortcuts (shared/shortcuts.ts) and Electron's menu commands of the same names do the same.
  const shortcutActions: Record<AppShortcut, () => void> = {
    "new-chat": newChat,
    "focus-composer": () => {
      drawer.hide();
      setShortcutsOpen(false);
      setRoute("chat");
      focusComposerSoon();
    },
    "open-settings": () => {
      drawer.hide();
      setRoute("settings");
    },
    "show-shortcuts": () => setShortcutsOpen((open) => !open),
  };
  const commandRef = useRef<(command: PageCommand) => void>(() => {});
  commandRef.current = (command) => shortcutActions[command]();
  useEffect(() => services.onCommand?.((command) => commandRef.current(command)), [services]);
  useAppShortcuts({
    actions: shortcutActions,
    nativeMenu: services.onCommand !== undefined,
    modal: shortcutsOpen,
    closeSettings: route === "settings" ? () => setRoute("chat") : undefined,
  });

  const rename = (id: string, title: string) => {
    setSessions((old) => old.map((s) => (s.id === id ? { ...s, title } : s)));
    app.renameSession(id, title).catch((e: unknown) => {
      report(e);
      void refreshSessions();
    });
  };

  const remove = (id: string) => {
    const victim = sessions.find((s) => s.id === id);
    // The open chat: this window moves first to its neighbour in the list (the next one, the previous at the end),
    // where the keyboard's focus goes too. Deleting ends the chat's worker, and a page still showing it would try to
    // reconnect to a chat that is gone.
    const listed = [...sessions].sort(newestFirst);
    const at = listed.findIndex((s) => s.id === id);
    const next = id === activeId && at >= 0 ? (listed[at + 1] ?? listed[at - 1]) : undefined;
    if (next) openSession(next.id, "this-window", true);
    app.deleteSession(id).then(() => {
      setSessions((old) => old.filter((s) => s.id !== id));
      setUndo({ sessionId: id, title: victim?.title || "Chat" });
      if (id === activeId && !next) newChat();
    }, report);
  };

  const restore = (id: string) => {
    setUndo(null);
    app.restoreSession(id).then(() => refreshSessions(), report);
  };

  // Main pushes every chat's changes (titles, activity, unread) to every window: the sidebar never polls.
  const onEventRef = useRef<(event: AppEvent) => void>(() => {});
  onEventRef.current = (event) => {
    if (event.type === "session") setSessions((old) => upsertSession(old, event.session));
    else if (event.type === "session-removed") setSessions((old) => old.filter((s) => s.id !== event.id));
    else if (event.type === "attention") payAttention(event);
  };
  useEffect(() => services.onEvent((event) => onEventRef.current(event)), [services]);

  /**
   * Tells the user about a chat that wants them, where the page does it (the browser host; Electron's main shows
   * native notifications): nothing when they are looking at that chat, a system notification when the page is in
   * the background and they allowed them, else a note in the page.
   */
  const payAttention = (event: Attention) => {
    if (!services.notifications || !data?.settings.background.notifications) return;
    const looking = document.visibilityState === "visible" && document.hasFocus();
    if (looking && event.sessionId === activeId && route === "chat") return;
    const tag = `paddock-${event.sessionId}-${event.reason}`;
    if (!looking && services.notifications.show({ ...attentionText(event), tag }, () => openSession(event.sessionId, "this-window"))) return;
    setAttention(event);
  };
  useEffect(() => {
    if (!attention || undo) return; // its time starts when it shows (an undo toast goes first)
    const timer = setTimeout(() => setAttention(null), ATTENTION_MS);
    return () => clearTimeout(timer);
  }, [attention, undo]);

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
  const showSetup = setupAsked || (!usable && !settings.onboarded && !setupSkipped);

  const finishSetup = async (suggested?: ModelRef) => {
    const fresh = await reloadProviders();
    const model = suggested ?? fresh[0];
    const settingsNow = await app.updateSettings({
      onboarded: true, ...(model ? { defaultModel: { provider: model.provider, id: model.id } } : {}),
    });
    setData((d) => (d ? { ...d, settings: settingsNow } : d));
    setSetupAsked(false);
    if (model && handle && !isModelChosen(handle.getView().state.model)) {
      await handle.commands.setModel({ provider: model.provider, id: model.id });
    }
  };

  const toast: ToastProps | null = undo ? {
    text: `Deleted “${undo.title}”`, actionLabel: "Undo", onAction: () => restore(undo.sessionId), onDismiss: () => setUndo(null),
  } : attention ? {
    text: `“${attentionText(attention).title}”: ${attentionText(attention).body}`, actionLabel: "Open", testId: "attention-toast",
    onAction: () => {
      setAttention(null);
      openSession(attention.sessionId, "this-window");
    },
    onDismiss: () => setAttention(null),
  } : null;

  // A chat the sidebar does not list (a subagent's, opened from its parent's card) is named by the chat itself.
  const activeTitle = sessions.find((s) => s.id === activeId)?.title;

  return (
    <div className={`app${drawer.open ? " sidebar-open" : ""}`}>
      <Sidebar
        sessions={sessions}
        activeId={activeId}
        settingsOpen={route === "settings"}
        onNewChat={newChat}
        onOpen={openSession}
        onOpenMessage={(hit) => {
          const [start, end] = hit.ranges[0] ?? [0, 0];
          setTarget({ sessionId: hit.sessionId, messageIndex: hit.messageIndex, text: hit.snippet.slice(start, end), nonce: Date.now() });
          openSession(hit.sessionId, "this-window");
        }}
        onError={report}
        onRename={rename}
        onDelete={remove}
        navRef={drawer.ref}
        inert={drawer.narrow && !drawer.open}
        onOpenSettings={() => {
          drawer.hide();
          setSetupAsked(false);
          setRoute((r) => (r === "settings" ? "chat" : "settings"));
        }}
      />
      {drawer.open ? <div className="scrim" onClick={drawer.hide} aria-hidden="true" /> : null}
      <main className="main" inert={drawer.open}>
        {toast ? <Toast {...toast} /> : null}
        {hostStatus === "reconnecting" ? (
          <div className="notice notice-error host-down" role="alert" data-testid="host-status">
            <span className="notice-text">Paddock is not running. Reconnecting… (start it again with <code>npm run dev:web</code>)</span>
          </div>
        ) : null}
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
            onRecheck={async () => void (await reloadProviders())} onSkip={() => {
              setSetupSkipped(true);
              setSetupAsked(false);
            }} />
        ) : route === "settings" ? (
          <SettingsView settings={settings} models={models} providerStatus={providerStatus}
            onSettings={(s) => setData((d) => (d ? { ...d, settings: s } : d))}
            onProvidersChanged={() => void reloadProviders().catch(report)}
            onShowSetup={() => {
              setSetupAsked(true);
              setRoute("chat");
            }}
            onClose={() => setRoute("chat")} />
        ) : handle ? (
          <ChatView key={handle.getView().sessionId} handle={handle} title={activeTitle} models={models} abortSettings={settings.abort}
            hostDown={hostStatus === "reconnecting"} target={target?.sessionId === activeId ? target : undefined} defaultInstructions={settings.defaultSystemPrompt} mcpServers={settings.mcpServers} onToggleSidebar={drawer.show} onAddModel={addModel} />
        ) : (
          <div className="center-screen"><span className="spinner" aria-label="Opening chat" /></div>
        )}
      </main>
      <ToastAnnouncer text={toast?.text} />
      {shortcutsOpen ? <ShortcutsDialog desktop={services.onCommand !== undefined} onClose={() => setShortcutsOpen(false)} /> : null}
    </div>
  );
}
