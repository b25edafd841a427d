import { describe, expect, it } from "vitest";
import { frameCoalesced } from "../../../../src/renderer/store/frame-coalesced";

function source() {
  let view = { n: 0 };
  const listeners = new Set<() => void>();
  return {
    subscribe(l: () => void) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    getView: () => view,
    bump() {
      view = { n: view.n + 1 };
      for (const l of listeners) l();
    },
  };
}

describe("a frame-coalesced view", () => {
  it("publishes many source changes as one change per frame, and the view holds still in between", () => {
    const src = source();
    const frames: (() => void)[] = [];
    const view = frameCoalesced(src, (run) => frames.push(run));
    let notified = 0;
    view.subscribe(() => notified++);
    src.bump();
    src.bump();
    src.bump();
    expect(view.getView().n).toBe(0);
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(notified).toBe(1);
    expect(view.getView().n).toBe(3);
  });

  it("catches up with changes made while nobody listened", () => {
    const src = source();
    const view = frameCoalesced(src, (run) => run());
    src.bump();
    view.subscribe(() => {});
    expect(view.getView().n).toBe(1);
  });
});
