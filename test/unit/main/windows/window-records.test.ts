/**
 * The window list a relaunch reopens: what closing a window, quitting, and closing the last window (the usual way
 * to quit on Windows and Linux) leave on record, and where a saved window reopens.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { WindowRecords, type WindowRecordStore } from "../../../../src/main/windows/window-records";
import { DEFAULT_SETTINGS, type Settings, type WindowRecord } from "../../../../src/shared/settings/schema";

const A = { x: 10, y: 20, width: 900, height: 700 };
const B = { x: 300, y: 200, width: 800, height: 600 };
const SCREEN = [{ x: 0, y: 0, width: 1920, height: 1080 }];

function store(windows: WindowRecord[] = []): WindowRecordStore & { windows: WindowRecord[] } {
  const s = {
    windows,
    get: (): Settings => ({ ...structuredClone(DEFAULT_SETTINGS), windows: s.windows }) as Settings,
    setWindows: (w: WindowRecord[]) => void (s.windows = w),
  };
  return s;
}

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe("the windows a relaunch reopens", () => {
  it("on Windows and Linux, closing the last window (which quits) keeps its record and its maximized state", () => {
    const saved = store();
    const records = new WindowRecords<string>(saved, { lastCloseQuits: true });
    records.opened("w1", "chat-1", A, false);
    records.changed("w1", A, true); // maximized
    records.closed("w1");
    expect(saved.windows).toEqual([{ sessionId: "chat-1", bounds: A, maximized: true }]);
    records.quit(); // window-all-closed → app.quit() → before-quit
    expect(saved.windows).toEqual([{ sessionId: "chat-1", bounds: A, maximized: true }]);
  });

  it("closing one of several windows forgets it; closing the last on macOS (the app stays) forgets it too", () => {
    const saved = store();
    const records = new WindowRecords<string>(saved, { lastCloseQuits: true });
    records.opened("w1", "chat-1", A, false);
    records.opened("w2", "chat-2", B, false);
    records.closed("w1");
    expect(saved.windows).toEqual([{ sessionId: "chat-2", bounds: B }]);

    const mac = store();
    const onMac = new WindowRecords<string>(mac, { lastCloseQuits: false });
    onMac.opened("w1", "chat-1", A, false);
    onMac.closed("w1");
    expect(mac.windows).toEqual([]);
  });

  it("a window opened after the last one closed (the quit did not happen) replaces it", () => {
    const saved = store();
    const records = new WindowRecords<string>(saved, { lastCloseQuits: true });
    records.opened("w1", "chat-1", A, false);
    records.closed("w1");
    records.opened("w2", "chat-2", B, false);
    records.quit();
    expect(saved.windows).toEqual([{ sessionId: "chat-2", bounds: B }]);
  });

  it("a quit keeps every window, closed one by one after it; moves are saved after a pause, never after the quit", () => {
    const saved = store();
    const records = new WindowRecords<string>(saved, { lastCloseQuits: false, debounceMs: 500 });
    records.opened("w1", "chat-1", A, false);
    records.opened("w2", "chat-2", B, false);
    records.changed("w2", { ...B, x: 400 }, false);
    expect(saved.windows[1].bounds).toEqual(B);
    vi.advanceTimersByTime(500);
    expect(saved.windows[1].bounds).toEqual({ ...B, x: 400 });
    records.changed("w1", { ...A, x: 50 }, false);
    records.quit();
    records.closed("w1");
    records.closed("w2");
    vi.advanceTimersByTime(1000);
    expect(saved.windows).toEqual([{ sessionId: "chat-1", bounds: { ...A, x: 50 } }, { sessionId: "chat-2", bounds: { ...B, x: 400 } }]);
  });

  it("reopens at saved bounds still on a display, else at the default place; maximized either way", () => {
    const records = new WindowRecords<string>(store([
      { sessionId: "on-screen", bounds: A },
      { sessionId: "unplugged", bounds: { x: 3000, y: 0, width: 800, height: 600 }, maximized: true },
    ]), { lastCloseQuits: true });
    expect(records.restorable(SCREEN)).toEqual([{ sessionId: "on-screen", bounds: A }, { sessionId: "unplugged", maximized: true }]);
  });
});
