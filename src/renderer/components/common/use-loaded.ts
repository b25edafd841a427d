import { useEffect, useState, type DependencyList } from "react";
import { errorText } from "../../../shared/error-text";

/** What `useLoaded` has: nothing yet, the value, or why it could not be had (the error's text, for showing). */
export type Loaded<T> = { state: "loading" } | { state: "loaded"; value: T } | { state: "failed"; error: string };

/**
 * Loads once per change of `deps` (a dialog's content from main or the worker). An answer that arrives after the
 * component went away, or after `deps` changed, is dropped: it never lands in a later load's place.
 */
export function useLoaded<T>(load: () => Promise<T>, deps: DependencyList): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: "loading" });
  useEffect(() => {
    let live = true;
    setLoaded({ state: "loading" });
    load().then(
      (value) => live && setLoaded({ state: "loaded", value }),
      (e: unknown) => live && setLoaded({ state: "failed", error: errorText(e) }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller names what the load depends on
  }, deps);
  return loaded;
}
