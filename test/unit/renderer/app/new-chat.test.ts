/** Which chat "New chat" opens: the untouched one there is (this one first), so empty chats never pile up. */
import { describe, expect, it } from "vitest";
import { chatForNewChat, inProject, projectForNewChat } from "../../../../src/renderer/app/new-chat";
import { emptyChatToReuse } from "../../../../src/shared/protocol/empty-chat";
import type { SessionSummary } from "../../../../src/shared/protocol/app-api";
import type { SessionView } from "../../../../src/renderer/store/session-view";
import { createAgentStateData } from "../../../../src/shared/agent/state";

const chat = (id: string, extra: Partial<SessionSummary> = {}): SessionSummary => ({ id, title: "New chat", created: 1, updated: 1, messageCount: 0, ...extra });
const view = (sessionId: string, extra: Partial<SessionView> = {}): SessionView => ({
  sessionId, state: createAgentStateData(), historyStart: 0, steering: [], followUp: [], held: [], toolRuns: {}, approvals: [], connection: "ready", notices: [], ...extra,
});

describe("New chat", () => {
  it("stays in the chat shown when it is untouched", () => {
    expect(chatForNewChat([chat("a"), chat("b", { updated: 5 })], "a", view("a"))).toBe("a");
  });

  it("takes the newest untouched chat otherwise, and none that was used, renamed, given a folder, or is a subagent's", () => {
    const list = [
      chat("used", { messageCount: 2, title: "Trip" }),
      chat("old-empty", { updated: 2 }),
      chat("new-empty", { updated: 9 }),
      chat("renamed", { title: "Ideas", updated: 20 }),
      chat("folder", { workspace: "/work", updated: 21 }),
      chat("busy", { activity: "running", updated: 22 }),
      chat("sub", { parent: { sessionId: "used", toolCallId: "t", agent: "scout" }, updated: 23 }),
    ];
    expect(chatForNewChat(list, "used", view("used"))).toBe("new-empty");
    expect(emptyChatToReuse(list.filter((s) => !s.id.endsWith("empty")))).toBeUndefined();
  });

  it("trusts the chat's live view over the list, which learns of a first message later", () => {
    const list = [chat("a")];
    const sending = view("a", { state: { ...createAgentStateData(), isStreaming: true } });
    expect(chatForNewChat(list, "a", sending)).toBeUndefined();
    expect(chatForNewChat(list, "a", view("a", { followUp: [{ role: "user", content: "x", timestamp: 1 }] }))).toBeUndefined();
    expect(chatForNewChat(list, "a", undefined)).toBe("a");
  });
});

describe("New chat in the current project", () => {
  const worktree = { repositoryRoot: "/work/app", path: "/wt/x1", folder: "/wt/x1", branch: "paddock/chat-1", base: "main", startedFrom: "abc", carried: false };
  const list = [chat("in-app", { workspace: "/work/app", messageCount: 3 }), chat("loose", { messageCount: 1 }), chat("wt", { workspace: "/wt/x1", worktree, messageCount: 1 })];

  it("is the chat shown's folder, a worktree chat's repository folder, none for a chat without one or not listed", () => {
    expect(projectForNewChat(list, "in-app")).toBe("/work/app");
    expect(projectForNewChat(list, "wt")).toBe("/work/app");
    expect(projectForNewChat(list, "loose")).toBeUndefined();
    expect(projectForNewChat(list, "a-subagent")).toBeUndefined();
    expect(projectForNewChat(list, undefined)).toBeUndefined();
  });

  it("opens a chat already empty in the project (the one shown first), else an untouched one without a folder, else none", () => {
    const empties = [
      chat("empty-app-old", { workspace: "/work/app", updated: 2 }),
      chat("empty-app-new", { workspace: "/work/app", updated: 5 }),
      chat("empty-blog", { workspace: "/work/blog", updated: 9 }),
      chat("loose-empty", { updated: 7 }),
      chat("wt-empty", { workspace: "/wt/x1", worktree, updated: 11 }),
    ];
    expect(chatForNewChat([...list, ...empties], "in-app", view("in-app"), "/work/app")).toBe("empty-app-new");
    expect(chatForNewChat([...list, ...empties], "empty-app-old", view("empty-app-old"), "/work/app")).toBe("empty-app-old");
    // The one shown has just been sent its first message: not empty, whatever the list says.
    const sending = view("empty-app-old", { state: { ...createAgentStateData(), isStreaming: true } });
    expect(chatForNewChat([...list, ...empties], "empty-app-old", sending, "/work/app")).toBe("empty-app-new");
    expect(chatForNewChat([...list, ...empties], "in-app", view("in-app"), "/work/shop")).toBe("loose-empty");
    expect(chatForNewChat([...list, empties[2]], "in-app", view("in-app"), "/work/app")).toBeUndefined();
    // Without a project, a chat given a folder is never reused (as before).
    expect(chatForNewChat([...list, empties[0]], "in-app", view("in-app"))).toBeUndefined();
  });

  it("gives the chat the project's folder without asking again, and says main's reason when it cannot", async () => {
    const calls: unknown[][] = [];
    const set = (answer: Awaited<ReturnType<typeof inProject>> | { refused: { folder: string; reason: string } } | Error) => ({
      setWorkspace: async (...args: unknown[]) => {
        calls.push(args);
        if (answer instanceof Error) throw answer;
        return answer;
      },
    });
    expect(await inProject(set(chat("n", { workspace: "/work/app" })), "n", "/work/app")).toMatchObject({ id: "n", workspace: "/work/app" });
    expect(calls).toEqual([["n", "/work/app", true]]);
    await expect(inProject(set({ refused: { folder: "/home/ann", reason: "Your home folder…" } }), "n", "/home/ann")).rejects.toThrow("/home/ann: Your home folder…");
    await expect(inProject(set(new Error("There is no folder at /work/gone")), "n", "/work/gone")).rejects.toThrow("There is no folder at /work/gone");
  });
});
