import { useCallback, useState } from "react";
import type { AppApi, AppNotice } from "../../shared/protocol/app-api";
import { errorText } from "../../shared/error-text";

export interface Notices {
  /** Main's notices not yet dismissed, oldest first. */
  notices: AppNotice[];
  /** Fetches main's new notices (at load, when the window has the focus back) and adds them. */
  take(): void;
  dismiss(id: number): void;
  /** The last thing the user asked for that failed, in words, until dismissed. */
  failure: string | null;
  /** Shows `error` as the failure (stable: hooks and handlers pass it along as their error path). */
  report(error: unknown): void;
  dismissFailure(): void;
}

/** The banners above the chat: main's notices (taken from main, each dismissed by the user) and the last failure. */
export function useNotices(app: AppApi): Notices {
  const [notices, setNotices] = useState<AppNotice[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const report = useCallback((e: unknown) => setFailure(errorText(e)), []);
  const take = useCallback(() => {
    app.takeNotices().then((fresh) => fresh.length > 0 && setNotices((old) => [...old, ...fresh]), report);
  }, [app, report]);
  return {
    notices, take, failure, report,
    dismiss: (id) => setNotices((old) => old.filter((o) => o.id !== id)),
    dismissFailure: () => setFailure(null),
  };
}
