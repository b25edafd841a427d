/** Which chat "New chat" opens: the untouched one there is (this one first), so empty chats never pile up. */
import { describe, expect, it } from "vitest";
import { chatForNewChat } from "../../../../src/renderer/app/new-chat";
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
