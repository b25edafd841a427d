/**
 * When main shows a desktop notification (main/notifications/desktop-notifier.ts), and what the user is told when
 * the system cannot show one: once, in the app, whether the system has no notifications, refuses one (`failed`,
 * an unsigned macOS build) or throws.
 */
import { describe, expect, it } from "vitest";
import type { AppEvent } from "../../../../src/shared/protocol/app-api";
import { desktopNotifier, type NotificationSystem, type ShownNotification } from "../../../../src/main/notifications/desktop-notifier";

type Fake = ShownNotification & { text: { title: string; body: string }; shown: boolean; closed: boolean; click(): void; close(): void; fail(reason: string): void };

function fakeSystem(behaviour: { supported?: boolean; failOnShow?: string; throwOnCreate?: string } = {}): NotificationSystem & { made: Fake[] } {
  const made: Fake[] = [];
  return {
    made,
    isSupported: () => behaviour.supported ?? true,
    create: (text) => {
      if (behaviour.throwOnCreate) throw new Error(behaviour.throwOnCreate);
      const listeners = { click: [] as (() => void)[], close: [] as (() => void)[], failed: [] as ((reason: string) => void)[] };
      const fake: Fake = {
        text,
        shown: false,
        closed: false,
        onClick: (l) => void listeners.click.push(l),
        onClose: (l) => void listeners.close.push(l),
        onFailed: (l) => void listeners.failed.push(l),
        show: () => {
          fake.shown = true;
          if (behaviour.failOnShow) fake.fail(behaviour.failOnShow);
        },
        close: () => {
          fake.closed = true;
          listeners.close.forEach((l) => l());
        },
        click: () => listeners.click.forEach((l) => l()),
        fail: (reason) => listeners.failed.forEach((l) => l(reason)),
      };
      made.push(fake);
      return fake;
    },
  };
}

const attention = (sessionId: string, reason: "done" | "failed" | "waiting" = "done"): AppEvent => ({ type: "attention", sessionId, title: `Chat ${sessionId}`, reason });

function rig(system: NotificationSystem, inFront: string[] = [], enabled = true) {
  const told: string[] = [];
  const revealed: string[] = [];
  const notify = desktopNotifier({ system, enabled: () => enabled, isInFront: (id) => inFront.includes(id), reveal: (id) => revealed.push(id), tellUser: (t) => told.push(t) });
  return { notify, told, revealed };
}

describe("desktopNotifier", () => {
  it("shows one notification per chat not in front, the latest replacing the one before; a click reveals the chat", () => {
    const system = fakeSystem();
    const { notify, told, revealed } = rig(system, ["front"]);
    notify(attention("a"));
    notify(attention("front"));
    notify({ type: "settings", settings: {} } as unknown as AppEvent);
    notify(attention("a", "waiting"));
    expect(system.made.map((n) => n.text)).toEqual([
      { title: "Chat a", body: "The agent has finished." },
      { title: "Chat a", body: "The agent is waiting for you." },
    ]);
    expect(system.made[0]!.closed).toBe(true);
    system.made[1]!.click();
    expect(revealed).toEqual(["a"]);
    expect(told).toEqual([]);
  });

  it("shows nothing when the setting is off", () => {
    const system = fakeSystem();
    const { notify } = rig(system, [], false);
    notify(attention("a"));
    expect(system.made).toEqual([]);
  });

  it("a notification the system refuses (an unsigned macOS build's `failed`) is told once, however many fail", () => {
    const system = fakeSystem({ failOnShow: "Notifications are not allowed for this application" });
    const { notify, told } = rig(system);
    notify(attention("a"));
    notify(attention("b", "failed"));
    notify(attention("a", "waiting"));
    expect(system.made).toHaveLength(3);
    expect(told).toEqual([
      "Desktop notifications could not be shown: Notifications are not allowed for this application. Chats that want you are still marked in Paddock's sidebar.",
    ]);
  });

  it("a system without notifications is told once, when the first would have been shown", () => {
    const system = fakeSystem({ supported: false });
    const { notify, told } = rig(system, ["front"]);
    notify(attention("front"));
    expect(told).toEqual([]);
    notify(attention("a"));
    notify(attention("b"));
    expect(system.made).toEqual([]);
    expect(told).toEqual(["Desktop notifications could not be shown: this system does not support them. Chats that want you are still marked in Paddock's sidebar."]);
  });

  it("a notification that throws as it is made is told once, and nothing throws to main", () => {
    const { notify, told } = rig(fakeSystem({ throwOnCreate: "no notification server" }));
    expect(() => notify(attention("a"))).not.toThrow();
    notify(attention("b"));
    expect(told).toEqual(["Desktop notifications could not be shown: no notification server. Chats that want you are still marked in Paddock's sidebar."]);
  });
});
