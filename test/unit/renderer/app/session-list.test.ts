/** The sidebar's chat list as data: main's pushes, a rename shown at once, and what deleting a chat does (with undo). */
import { describe, expect, it } from "vitest";
import { newestSession, planDelete, upsertSession, withTitle, withoutActivity, withoutSession } from "../../../../src/renderer/app/session-list";
import type { SessionSummary } from "../../../../src/shared/protocol/app-api";

const chat = (id: string, updated: number, extra: Partial<SessionSummary> = {}): SessionSummary => ({ id, title: `Chat ${id}`, created: 1, updated, messageCount: 1, ...extra });

describe("the session list", () => {
  it("puts a pushed chat in once, newest first, and takes a removed one out", () => {
    const list = [chat("a", 3), chat("b", 1)];
    expect(upsertSession(list, chat("b", 5)).map((s) => s.id)).toEqual(["b", "a"]);
    expect(upsertSession(list, chat("c", 2)).map((s) => s.id)).toEqual(["a", "c", "b"]);
    expect(upsertSession(upsertSession(list, chat("c", 2)), chat("c", 2))).toHaveLength(3);
    expect(withoutSession(list, "a").map((s) => s.id)).toEqual(["b"]);
    expect(newestSession([chat("a", 3), chat("b", 7)])?.id).toBe("b");
    expect(newestSession([])).toBeUndefined();
  });

  it("shows a new title at once, and no chat running while the host is away", () => {
    const list = [chat("a", 3, { activity: "running" }), chat("b", 1, { activity: "waiting" })];
    expect(withTitle(list, "b", "Trip").map((s) => s.title)).toEqual(["Chat a", "Trip"]);
    expect(withoutActivity(list).map((s) => s.activity)).toEqual([undefined, undefined]);
    expect(withoutActivity(list).every((s) => !("activity" in s))).toBe(true);
  });
});

describe("deleting a chat", () => {
  const list = [chat("old", 1), chat("mid", 2), chat("new", 3)];

  it("moves off the open chat first: to the next one in the list, the previous at the end", () => {
    expect(planDelete(list, "new", "new")).toEqual({ next: "mid", newChatAfter: false, undo: { sessionId: "new", title: "Chat new" } });
    expect(planDelete(list, "old", "old").next).toBe("mid");
  });

  it("moves nowhere when another chat is deleted, and offers to undo it by its title (or \"Chat\")", () => {
    expect(planDelete(list, "mid", "new")).toEqual({ next: undefined, newChatAfter: false, undo: { sessionId: "mid", title: "Chat mid" } });
    expect(planDelete([chat("a", 1, { title: "" }), chat("b", 2)], "a", "b").undo).toEqual({ sessionId: "a", title: "Chat" });
  });

  it("says which branch a worktree chat's undo toast is about (its worktree goes once the undo window is over)", () => {
    const worktree = { repositoryRoot: "/r", path: "/w/r-x", folder: "/w/r-x", branch: "paddock/chat-1", base: "b", startedFrom: "b", carried: false };
    expect(planDelete([chat("w", 1, { worktree }), chat("b", 2)], "w", "b").undo).toEqual({ sessionId: "w", title: "Chat w", worktreeBranch: "paddock/chat-1" });
  });

  it("asks for a new chat once the only chat, the open one, is gone", () => {
    expect(planDelete([chat("only", 1)], "only", "only")).toMatchObject({ next: undefined, newChatAfter: true });
  });
});
