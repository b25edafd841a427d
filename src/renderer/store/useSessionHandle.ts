import { useCallback, useEffect, useState, useSyncExternalStore } from "react";
import type { SessionView } from "./session-view";
import type { AppServices, SessionHandle } from "../services/app-services";

/**
 * Opens the session's live view while `sessionId` is set and closes it when the id changes or the component
 * unmounts. Returns null until a handle exists.
 */
export function useSessionHandle(services: AppServices, sessionId: string | undefined): SessionHandle | null {
  const [handle, setHandle] = useState<SessionHandle | null>(null);
  useEffect(() => {
    if (!sessionId) {
      setHandle(null);
      return;
    }
    const opened = services.openSession(sessionId);
    setHandle(opened);
    return () => {
      opened.close();
    };
  }, [services, sessionId]);
  return handle;
}

/** The handle's current SessionView, re-rendering on every change. */
export function useSessionView(handle: SessionHandle): SessionView {
  // Called through the handle so implementations may use class methods that rely on `this`.
  const subscribe = useCallback((fn: () => void) => handle.subscribe(fn), [handle]);
  const getView = useCallback(() => handle.getView(), [handle]);
  return useSyncExternalStore(subscribe, getView);
}
