/**
 * A store view for React that changes at most once per animation frame. The mirror applies every event batch as
 * it arrives (up to two per frame while text streams); rendering more often than the screen refreshes would only
 * burn the frame budget. Between frames `getView()` keeps returning the view React last saw, so
 * `useSyncExternalStore` never sees a view change without a notification.
 */
export interface ViewSource<V> {
  subscribe(listener: () => void): () => void;
  getView(): V;
}

/** The page's next frame; a timer where there is no page (Node tests). */
export function nextFrame(run: () => void): void {
  const raf = (globalThis as { requestAnimationFrame?: (callback: () => void) => number }).requestAnimationFrame;
  if (raf) raf(run);
  else setTimeout(run, 16);
}

/**
 * Runs `fn` in a task after the next frame, i.e. once the page has painted what it has. Returns a function that
 * cancels it if it has not run yet.
 */
export function afterNextPaint(fn: () => void): () => void {
  let cancelled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  nextFrame(() => {
    if (!cancelled) timer = setTimeout(fn, 0);
  });
  return () => {
    cancelled = true;
    clearTimeout(timer);
  };
}

export function frameCoalesced<V>(source: ViewSource<V>, schedule: (run: () => void) => void = nextFrame): ViewSource<V> {
  let published = source.getView();
  let pending = false;
  const listeners = new Set<() => void>();
  const publish = () => {
    pending = false;
    const next = source.getView();
    if (next === published) return;
    published = next;
    for (const listener of [...listeners]) listener();
  };
  let unsubscribeSource: (() => void) | undefined;
  return {
    getView: () => published,
    subscribe(listener) {
      listeners.add(listener);
      unsubscribeSource ??= source.subscribe(() => {
        if (pending) return;
        pending = true;
        schedule(publish);
      });
      // Catch up with anything that changed while nobody was listening.
      if (source.getView() !== published) publish();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          unsubscribeSource?.();
          unsubscribeSource = undefined;
          pending = false;
        }
      };
    },
  };
}
