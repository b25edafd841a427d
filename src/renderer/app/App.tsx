import { useEffect, useRef, useState } from "react";
import type { AppEvent, ModelRef } from "../../shared/protocol/app-api";
import { ChatView } from "../views/ChatView";
import { NewWorktreeChatDialog } from "../components/worktrees/NewWorktreeChatDialog";
import { SettingsView } from "../views/SettingsView";
import { SetupView } from "../views/SetupView";
import { Sidebar } from "../components/sidebar/Sidebar";
import { NoticeBanner, NoticeStack } from "../components/common/NoticeBanner";
import { groupNotices } from "../components/common/notice-groups";
import { Toast, ToastAnnouncer } from "../components/common/Toast";
import { ShortcutsDialog } from "../components/common/ShortcutsDialog";
import { useDrawer } from "./useDrawer";
import { useSidebarHidden } from "./useSidebarHidden";
import { focusComposerSoon, useAppShortcuts } from "./useAppShortcuts";
import type { AppShortcut } from "../../shared/shortcuts";
import { ServicesContext } from "../context/ServicesContext";
import type { AppServices } from "../services/app-services";
import type { PageCommand } from "../../shared/protocol/desktop-bridge";
import { useSessionHandle } from "../store/useSessionHandle";
import type { MessageTarget } from "../components/find/useChatFind";
import { useTheme } from "./useTheme";
import "../styles/index.css";
import { isModelChosen } from "../../shared/agent/state";
import { chatForNewChat, inProject, projectForNewChat } from "./new-chat";
import { newestSession } from "./session-list";
import { useSessionList } from "./useSessionList";
import { useAppData } from "./useAppData";
import { useNotices } from "./useNotices";
import { useAttention } from "./useAttention";
import { draftCacheFor } from "../components/composer/draft-cache";

/** The whole page. Everything outside comes through `services`, so hosts and test fixtures plug in the same way. */
export function App({ services }: { services: AppServices }) {
  return (
    <ServicesContext.Provider value={services}>
      <AppShell services={services} />
    </ServicesContext.Provider>
  );
}

/**
 * The page's shell: composes the hooks that hold its state (useAppData: what it loads; useSessionList: the chat
 * list; useNotices and useAttention: what it tells the user) with where the user is (the chat shown, Settings,
 * setup) and lays out the sidebar, the banners and the view.
 */
function AppShell({ services }: { services: AppServices }) {
  const { app } = services;
  const [activeId, setActiveId] = useState<string | undefined>(undefined);
  const [route, setRoute] = useState<"chat" | "settings">("chat");
  const [setupSkipped, setSetupSkipped] = useState(false);
  /** Asked for from Settings: the welcome setup shows whatever is configured, until finished or skipped. */
  const [setupAsked, setSetupAsked] = useState(false);
  const [worktreeChatOpen, setWorktreeChatOpen] = useState(false);
  /** The narrow window's sidebar drawer (focus in and out, Esc, inert page behind). */
  const drawer = useDrawer();
  /** The sidebar hidden by the user in a wide window (its button, the header's, Ctrl/Cmd+B), remembered. */
  const sidebar = useSidebarHidden(drawer.narrow, () => (drawer.open ? drawer.hide() : drawer.show()));
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const handle = useSessionHandle(services, activeId);
  /** Set by Settings while shown: leaving it asks first when edits are not saved (SettingsView). */
  const settingsGuard = useRef<((leave: () => void) => void) | undefined>(undefined);
  const leaveSettings = (then: () => void) => {
    if (route === "settings" && settingsGuard.current) settingsGuard.current(then);
    else then();
  };
  /** A search result opened: the chat shows that message once it has loaded it. */
  const [target, setTarget] = useState<(MessageTarget & { sessionId: string }) | undefined>(undefined);
  /** A chat to open with its Changes panel on a span (a scheduled run's: the sidebar's "3 files changed"). */
  const [changesSpan, setChangesSpan] = useState<{ sessionId: string; from: string; to: string; label: string; nonce: number }>();

  const notices = useNotices(app);
  const { report } = notices;
  const list = useSessionList(app, report);
  const { data, loadError, hostStatus, load, setSettings, reloadProviders, addModel, finishSetup: finishOnboarding } = useAppData(services, {
    loaded: async (sessions) => {
      list.replace(sessions);
      notices.take();
      const newest = newestSession(sessions);
      setActiveId((current) => current ?? services.initialSessionId ?? newest?.id);
      if (!services.initialSessionId && !newest) {
        const created = await app.createSession();
        // Main's push about the new chat may have come first: add it once.
        list.add(created);
        setActiveId(created.id);
      }
    },
    // Nothing runs while the host is away (its workers stop with it): the sidebar must not say otherwise.
    hostAway: list.clearActivity,
  });

  useTheme(data?.settings.theme ?? "system");

  const { take: takeNotices } = notices;
  const { refresh: refreshSessions } = list;
  useEffect(() => {
    const onFocus = () => {
      takeNotices();
      void refreshSessions();
      // Models may have changed in another window's Settings (an endpoint's limits, "Models read images"): the
      // picker lists them as they are now. (Open chats' models follow at once: main tells their workers.)
      void reloadProviders().catch(() => undefined);
    };
    window.addEventListener("focus", onFocus);
    return () => window.removeEventListener("focus", onFocus);
  }, [takeNotices, refreshSessions, reloadProviders]);

  /** `keepDrawer`: a chat deleted in the drawer opens another; the drawer stays, and the focus in its list. */
  const openSession = (id: string, where: "this-window" | "new-window", keepDrawer = false) => {
    if (!keepDrawer) drawer.hide();
    if (where === "new-window") {
      app.openSession(id, "new-window").catch(report);
      return;
    }
    leaveSettings(() => {
      setRoute("chat");
      setActiveId(id);
      // Main keeps which session each window shows (for restoring windows on relaunch).
      app.openSession(id, "this-window").catch(report);
    });
  };

  /**
   * "New chat" (sidebar, menu, shortcut): in the current project (the chat shown's, projectForNewChat), or in
   * `project` (a project's own New chat; null: none). Opens an untouched chat if there is one (this one first), else
   * creates one; in a project, the chat is given the project's folder before it opens.
   */
  const newChat = (project?: string | null) => {
    const folder = project === undefined ? projectForNewChat(list.sessions, activeId) : project ?? undefined;
    const reuse = chatForNewChat(list.sessions, activeId, handle?.getView(), folder);
    const chat = reuse !== undefined ? Promise.resolve(reuse) : app.createSession().then((created) => {
      list.add(created);
      return created.id;
    });
    chat.then(async (id) => {
      if (folder !== undefined && list.sessions.find((s) => s.id === id)?.workspace !== folder) {
        // A folder that has gone since: said, and the chat opens without one.
        try {
          list.add(await inProject(app, id, folder));
        } catch (e) {
          report(e);
        }
      }
      openSession(id, "this-window");
    }).catch(report);
  };

  // The app's shortcuts (shared/shortcuts.ts) and Electron's menu commands of the same names do the same.
  const shortcutActions: Record<AppShortcut, () => void> = {
    "new-chat": newChat,
    "focus-composer": () => {
      drawer.hide();
      setShortcutsOpen(false);
      leaveSettings(() => {
        setRoute("chat");
        focusComposerSoon();
      });
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
    closeSettings: route === "settings" ? () => leaveSettings(() => setRoute("chat")) : undefined,
  });

  const attention = useAttention(services, {
    enabled: data?.settings.background.notifications ?? false,
    activeId, chatShown: route === "chat",
    open: (id) => openSession(id, "this-window"),
    undo: list.undo, restore: list.restore, dismissUndo: list.dismissUndo,
  });

  // Main pushes every chat's changes (titles, activity, unread) to every window: the sidebar never polls.
  const onEventRef = useRef<(event: AppEvent) => void>(() => {});
  onEventRef.current = (event) => {
    list.onEvent(event);
    attention.onEvent(event);
    // A chat's draft saved in another window: this one follows it (draft-cache.ts).
    if (event.type === "draft") draftCacheFor(services.app).remote(event);
  };
  useEffect(() => services.onEvent((event) => onEventRef.current(event)), [services]);

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
    const model = await finishOnboarding(suggested);
    setSetupAsked(false);
    if (model && handle && !isModelChosen(handle.getView().state.model)) {
      await handle.commands.setModel({ provider: model.provider, id: model.id });
    }
  };

  const { toast } = attention;

  // Main's notices and the last failure, identical ones merged with a count (notice-groups.ts).
  const appNotices = notices.notices.length > 0 || notices.failure ? (
    <>
      {groupNotices(notices.notices, (n) => `${n.level}\u0000${n.text}`).map(({ key, first, all, count }) => (
        <NoticeBanner key={key} level={first.level} text={first.text} count={count} onDismiss={() => all.forEach((n) => notices.dismiss(n.id))} />
      ))}
      {notices.failure ? <NoticeBanner level="error" text={notices.failure} onDismiss={notices.dismissFailure} /> : null}
    </>
  ) : null;
  const chatShown = !showSetup && route !== "settings" && Boolean(handle);

  // A chat the sidebar does not list (a subagent's, opened from its parent's card) is named by the chat itself.
  const activeSession = list.sessions.find((s) => s.id === activeId);
  const activeTitle = activeSession?.title;

  return (
    <div className={`app${drawer.open ? " sidebar-open" : ""}${sidebar.hidden && !drawer.narrow ? " sidebar-hidden" : ""}`}>
      <Sidebar
        sessions={list.sessions}
        activeId={activeId}
        settingsOpen={route === "settings"}
        onNewChat={newChat}
        onNewWorktreeChat={() => setWorktreeChatOpen(true)}
        onOpen={openSession}
        onOpenChanges={(sessionId, span) => {
          setChangesSpan({ sessionId, ...span, nonce: Date.now() });
          openSession(sessionId, "this-window");
        }}
        onOpenMessage={(hit) => {
          const [start, end] = hit.ranges[0] ?? [0, 0];
          setTarget({ sessionId: hit.sessionId, messageIndex: hit.messageIndex, text: hit.snippet.slice(start, end), nonce: Date.now() });
          openSession(hit.sessionId, "this-window");
        }}
        onError={report}
        onRename={list.rename}
        onDelete={(id) => list.remove(id, activeId, { open: (next) => openSession(next, "this-window", true), newChat })}
        onHide={drawer.narrow ? drawer.hide : sidebar.hide}
        navRef={drawer.ref}
        inert={drawer.narrow && !drawer.open}
        onOpenSettings={() => {
          drawer.hide();
          setSetupAsked(false);
          if (route === "settings") leaveSettings(() => setRoute("chat"));
          else setRoute("settings");
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
        {/* Over the chat, the chat's own notices with them (ChatView); over Settings or setup, on their own. */}
        {appNotices && !chatShown ? <NoticeStack>{appNotices}</NoticeStack> : null}
        {showSetup ? (
          <SetupView settings={settings} providerStatus={providerStatus} onReady={finishSetup}
            onRecheck={async () => void (await reloadProviders())} onSkip={() => {
              setSetupSkipped(true);
              setSetupAsked(false);
            }} />
        ) : route === "settings" ? (
          <SettingsView settings={settings} models={models} providerStatus={providerStatus}
            onSettings={setSettings}
            onProvidersChanged={() => void reloadProviders().catch(report)}
            onShowSetup={() => {
              setSetupAsked(true);
              setRoute("chat");
            }}
            leaveGuard={settingsGuard}
            onClose={() => setRoute("chat")} />
        ) : handle ? (
          <ChatView key={handle.getView().sessionId} handle={handle} title={activeTitle} worktree={activeSession?.worktree} models={models} abortSettings={settings.abort}
            hostDown={hostStatus === "reconnecting"} target={target?.sessionId === activeId ? target : undefined} changesSpan={changesSpan?.sessionId === activeId ? changesSpan : undefined} defaultInstructions={settings.defaultSystemPrompt} defaultProfile={settings.tools.defaultProfile} runBudget={settings.budgets?.run} mcpServers={settings.mcpServers} onToggleSidebar={drawer.narrow ? drawer.show : sidebar.hidden ? sidebar.show : undefined}
            appNotices={appNotices} onAddModel={addModel}
            onOpenSettings={() => setRoute("settings")} onOpenChat={(id) => openSession(id, "this-window")} />
        ) : (
          <div className="center-screen"><span className="spinner" aria-label="Opening chat" /></div>
        )}
      </main>
      <ToastAnnouncer text={toast?.text} />
      {worktreeChatOpen ? (
        <NewWorktreeChatDialog folder={activeSession?.worktree?.repositoryRoot ?? activeSession?.workspace}
          onCancel={() => setWorktreeChatOpen(false)}
          onCreated={(created) => {
            setWorktreeChatOpen(false);
            list.add(created);
            openSession(created.id, "this-window");
          }} />
      ) : null}
      {shortcutsOpen ? <ShortcutsDialog desktop={services.onCommand !== undefined} onClose={() => setShortcutsOpen(false)} /> : null}
    </div>
  );
}
