import { describe, expect, it } from "vitest";
import { followScrolls, LayoutFrame, type Frames, type ListLayout } from "../../../../../src/renderer/components/common/layout-frame";
import { jumpPlacement } from "../../../../../src/renderer/components/messages/jump-placement";

/** Animation frames run by hand: `next()` runs what was asked for the coming frame. */
function manualFrames(): Frames & { asked: number; pending(): number; next(): void } {
  let queue = new Map<number, () => void>();
  let id = 0;
  return {
    asked: 0,
    request(callback) {
      this.asked++;
      queue.set(++id, callback);
      return id;
    },
    cancel(handle) {
      queue.delete(handle);
    },
    pending: () => queue.size,
    next() {
      const running = queue;
      queue = new Map();
      for (const callback of running.values()) callback();
    },
  };
}

const LAYOUT: ListLayout = { list: { top: 60, bottom: 700 }, bodyTop: 50, panels: [{ top: 600, bottom: 690, askedBottom: 630, actions: { top: 650, bottom: 680 } }] };

/** A frame over a scrolling body, its reads counted, with the notices' and the jump button's placements (their measures and writes logged). */
function setUp() {
  const frames = manualFrames();
  const body = new EventTarget();
  let reads = 0;
  let following = 0;
  const frame = new LayoutFrame(() => {
    reads++;
    return LAYOUT;
  }, frames);
  frame.followWith((schedule) => {
    following++;
    const stop = followScrolls(body, schedule);
    return () => {
      following--;
      stop();
    };
  });
  const log: string[] = [];
  const placed: Record<string, unknown> = {};
  const removeNotices = frame.add(() => {
    log.push("measure notices");
    return (layout) => {
      log.push("write notices");
      placed.notices = layout.panels.length;
    };
  });
  const removeJumpPlacement = frame.add(() => {
    log.push("measure jump");
    return (layout) => {
      log.push("write jump");
      placed.jump = jumpPlacement(layout.list, 30, layout.panels);
    };
  });
  const removeJump = () => removeJumpPlacement();
  const scroll = () => body.dispatchEvent(new Event("scroll"));
  return { frames, frame, body, reads: () => reads, following: () => following, log, placed, scroll, removeNotices, removeJump };
}

describe("one layout pass per frame for the notices and Jump to latest", () => {
  it("many scroll events in one frame: one frame asked for, the list's layout read once, each placement placed once", () => {
    const t = setUp();
    t.frames.next(); // the pass asked for when the placements were added
    t.log.length = 0;
    const reads = t.reads();
    const asked = t.frames.asked;
    for (let i = 0; i < 50; i++) t.scroll();
    expect(t.frames.asked - asked).toBe(1);
    expect(t.reads()).toBe(reads);
    t.frames.next();
    expect(t.reads() - reads).toBe(1);
    // Every placement measures before any writes: the browser lays out once.
    expect(t.log).toEqual(["measure notices", "measure jump", "write notices", "write jump"]);
    expect(t.placed).toEqual({ notices: 1, jump: 700 - 600 + 8 });
    // The next frame's scrolls: one more pass.
    t.scroll();
    t.scroll();
    t.frames.next();
    expect(t.reads() - reads).toBe(2);
  });

  it("adding placements asks for one pass; scrolls are followed only while there are placements", () => {
    const t = setUp();
    expect(t.frames.pending()).toBe(1);
    expect(t.following()).toBe(1);
    t.frames.next();
    expect(t.reads()).toBe(1);
    t.removeNotices();
    t.log.length = 0;
    t.scroll();
    t.frames.next();
    expect(t.log).toEqual(["measure jump", "write jump"]);
    expect(t.following()).toBe(1);
    // Nothing floats any more (no notices, no button): nothing is followed, a scroll asks for no frame.
    t.removeJump();
    expect(t.following()).toBe(0);
    t.scroll();
    expect(t.frames.pending()).toBe(0);
    // The page's order: the placements (children's layout effects) come before the body's watching (its parent's).
    const frames = manualFrames();
    const late = new LayoutFrame(() => LAYOUT, frames);
    late.add(() => undefined);
    let watching = 0;
    late.followWith(() => {
      watching++;
      return () => watching--;
    });
    expect(watching).toBe(1);
    late.dispose();
    expect(watching).toBe(0);
  });

  it("a pass asked for and then disposed of does not run", () => {
    const t = setUp();
    t.frame.dispose();
    t.frames.next();
    expect(t.reads()).toBe(0);
    expect(t.following()).toBe(0);
    // No placement: nothing to place, no frame asked for.
    const frames = manualFrames();
    new LayoutFrame(() => LAYOUT, frames).schedule();
    expect(frames.asked).toBe(0);
    // Placements with nothing to place (no notices, no button shown): the list is not read at all.
    let reads = 0;
    const idle = new LayoutFrame(() => {
      reads++;
      return LAYOUT;
    }, frames);
    idle.add(() => undefined);
    frames.next();
    expect(reads).toBe(0);
  });
});
