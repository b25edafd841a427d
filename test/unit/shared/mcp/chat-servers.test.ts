import { describe, expect, it } from "vitest";
import { chatUsesServer, ofChatServers } from "../../../../src/shared/mcp/chat-servers";

const items = [
  { serverId: "everything", name: "simple-prompt" },
  { serverId: "files", name: "readme" },
  { serverId: "everything", name: "args-prompt" },
];

describe("a chat's MCP servers", () => {
  it("without a choice, uses every server (those added later too)", () => {
    expect(chatUsesServer(undefined, "anything")).toBe(true);
    expect(ofChatServers(items, undefined)).toEqual(items);
  });

  it("with a choice, only the chosen servers' items, in their order; none for []", () => {
    expect(chatUsesServer(["files"], "everything")).toBe(false);
    expect(chatUsesServer(["files"], "files")).toBe(true);
    expect(ofChatServers(items, ["everything"]).map((i) => i.name)).toEqual(["simple-prompt", "args-prompt"]);
    expect(ofChatServers(items, [])).toEqual([]);
  });
});
