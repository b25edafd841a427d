import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PageViewers } from "../../../src/web-host/page-viewers";

let detached: [string, string][];
let pages: PageViewers;
beforeEach(() => {
  vi.useFakeTimers();
  detached = [];
  pages = new PageViewers((sessionId, viewerId) => detached.push([sessionId, viewerId]), 15_000);
});
afterEach(() => {
  pages.dispose();
  vi.useRealTimers();
});

describe("a page's viewers follow its events socket", () => {
  it("a page whose socket closes and stays closed lets go of its viewers", () => {
    const closed = pages.connected("p1");
    pages.add("p1", "chat-a", "v1");
    pages.add("p1", "chat-b", "v2");
    closed();
    vi.advanceTimersByTime(14_999);
    expect(detached).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(detached).toEqual([["chat-a", "v1"], ["chat-b", "v2"]]);
  });

  it("a socket back within the grace keeps them; a viewer the page detached itself is not detached again", () => {
    const first = pages.connected("p1");
    pages.add("p1", "chat-a", "v1");
    pages.add("p1", "chat-b", "v2");
    first();
    vi.advanceTimersByTime(10_000);
    const second = pages.connected("p1"); // the host restarted, or the network blinked
    vi.advanceTimersByTime(60_000);
    expect(detached).toEqual([]);
    pages.remove("p1", "v1");
    second();
    vi.advanceTimersByTime(15_000);
    expect(detached).toEqual([["chat-b", "v2"]]);
  });

  it("a viewer attached before the page's socket opened is released if the socket never comes", () => {
    pages.add("p2", "chat-c", "v3");
    vi.advanceTimersByTime(15_000);
    expect(detached).toEqual([["chat-c", "v3"]]);
  });

  it("pages without viewers, or with a socket open, run no timer", () => {
    pages.connected("p3")();
    const open = pages.connected("p4");
    pages.add("p4", "chat-d", "v4");
    expect(vi.getTimerCount()).toBe(0);
    open();
    expect(vi.getTimerCount()).toBe(1);
  });
});
