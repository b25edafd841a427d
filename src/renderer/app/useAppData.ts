import { useCallback, useEffect, useRef, useState } from "react";
import type { ModelOption, ModelRef, ProviderStatus, SessionSummary } from "../../shared/protocol/app-api";
import type { Settings } from "../../shared/settings/schema";
import { errorText } from "../../shared/error-text";
import { HostUnreachableError } from "../store/session-client";
import type { AppServices, HostStatus } from "../services/app-services";

/** What the page loads from its host before it shows anything. */
export interface AppDataValues {
  settings: Settings;
  models: ModelOption[];
  providerStatus: ProviderStatus[];
}

export interface AppDataOptions {
  /**
   * The chat list as a load found it (at start, and after the host came back): the page shows it and picks its
   * chat. A failure here (creating the first chat) fails the load.
   */
  loaded(sessions: SessionSummary[]): void | Promise<void>;
  /** The host went away (its workers stop with it). */
  hostAway(): void;
}

export interface AppData {
  /** Null until the first load succeeds. */
  data: AppDataValues | null;
  /** Why the load failed ("Try again" calls `load`); null otherwise. */
  loadError: string | null;
  /** Whether the host is reachable (where it can go away while the page stays: the browser host). */
  hostStatus: HostStatus;
  load(): Promise<void>;
  /** Settings as main saved them (Settings' own changes). */
  setSettings(settings: Settings): void;
  /** Models and provider status read again (keys or providers changed); returns the models. */
  reloadProviders(): Promise<ModelOption[]>;
  /** "Use <id> with <provider>" in the picker: the id joins settings' added models (once), and the lists reload. */
  addModel(ref: ModelRef): Promise<void>;
  /**
   * The welcome setup finished: providers read again, the user onboarded, and `suggested` (else the first model)
   * made the default. Returns that model, if any.
   */
  finishSetup(suggested?: ModelRef): Promise<ModelRef | undefined>;
}

/**
 * The page's data from its host: settings, models, provider status, loaded together with the chat list (handed to
 * `loaded`), loaded again when a host that was away comes back (what was pushed meanwhile is lost).
 */
export function useAppData(services: AppServices, options: AppDataOptions): AppData {
  const { app } = services;
  const [data, setData] = useState<AppDataValues | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [hostStatus, setHostStatus] = useState<HostStatus>("connected");
  /** The latest callbacks: a load started earlier hands its list to today's page. */
  const latest = useRef(options);
  latest.current = options;

  const load = useCallback(async () => {
    setLoadError(null);
    try {
      const [settings, models, providerStatus, list] = await Promise.all([
        app.getSettings(), app.listModels(), app.providerStatus(), app.listSessions(),
      ]);
      setData({ settings, models, providerStatus });
      await latest.current.loaded(list);
    } catch (e) {
      // A host that is away comes back by itself: the host status brings the next attempt (below).
      if (e instanceof HostUnreachableError) setHostStatus("reconnecting");
      setLoadError(errorText(e));
    }
  }, [app]);

  useEffect(() => {
    void load();
  }, [load]);

  // Back after the host was away: what was pushed meanwhile is lost, so reload what the page shows.
  useEffect(() => services.onHostStatus?.((status) => {
    setHostStatus(status);
    if (status === "reconnecting") latest.current.hostAway();
    else void load();
  }), [services, load]);

  const reloadProviders = useCallback(async () => {
    const [models, providerStatus] = await Promise.all([app.listModels(), app.providerStatus()]);
    setData((d) => (d ? { ...d, models, providerStatus } : d));
    return models;
  }, [app]);

  const setSettings = useCallback((settings: Settings) => setData((d) => (d ? { ...d, settings } : d)), []);

  const addModel = useCallback(async (ref: ModelRef) => {
    const settings = await app.getSettings();
    const added = settings.addedModels ?? [];
    if (!added.some((m) => m.provider === ref.provider && m.id === ref.id)) {
      setSettings(await app.updateSettings({ addedModels: [...added, { provider: ref.provider, id: ref.id }] }));
    }
    await reloadProviders();
  }, [app, reloadProviders, setSettings]);

  const finishSetup = async (suggested?: ModelRef) => {
    const fresh = await reloadProviders();
    const model = suggested ?? fresh[0];
    setSettings(await app.updateSettings({
      onboarded: true, ...(model ? { defaultModel: { provider: model.provider, id: model.id } } : {}),
    }));
    return model;
  };

  return { data, loadError, hostStatus, load, setSettings, reloadProviders, addModel, finishSetup };
}
