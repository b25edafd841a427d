import { describe, expect, it } from "vitest";
import { agentToolNames, listsMcpTool, MAX_AGENT_TOOL_NAME } from "../../../../src/shared/mcp/agent-tool-names";

/** What OpenAI and Anthropic accept, and Gemini's first character. */
const PROVIDER_SAFE = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

describe("the names the model calls MCP tools by", () => {
  it("are the server's id and the tool's name, joined by two underscores", () => {
    expect(agentToolNames("github", ["create_issue", "list-repos"])).toEqual(["github__create_issue", "github__list-repos"]);
  });

  it("replace characters providers refuse, and start with a letter or underscore", () => {
    const names = agentToolNames("2fa", ["files.read", "añadir", "a b/c"]);
    expect(names).toEqual(["_2fa__files_read", "_2fa__a_adir", "_2fa__a_b_c"]);
    for (const name of names) expect(name).toMatch(PROVIDER_SAFE);
  });

  it("stay within 64 characters, and long names that share a start stay apart", () => {
    const long = "x".repeat(100);
    const names = agentToolNames("a-server-with-a-rather-long-id-of-forty", [`${long}1`, `${long}2`]);
    for (const name of names) {
      expect(name.length).toBeLessThanOrEqual(MAX_AGENT_TOOL_NAME);
      expect(name).toMatch(PROVIDER_SAFE);
    }
    expect(new Set(names).size).toBe(2);
  });

  it("are unique within a server when sanitizing makes two names equal, and stable from one listing to the next", () => {
    const names = agentToolNames("s", ["a.b", "a_b", "a-b"]);
    expect(names[0]).toBe("s__a_b");
    expect(names[1]).not.toBe("s__a_b");
    expect(new Set(names).size).toBe(3);
    expect(agentToolNames("s", ["a.b", "a_b", "a-b"])).toEqual(names);
  });

  it("a subagent definition lists a tool by its name or all of a server's by `<server>__*`", () => {
    const tool = { serverId: "github", agentName: "github__create_issue" };
    expect(listsMcpTool(["read", "github__create_issue"], tool)).toBe(true);
    expect(listsMcpTool(["github__*"], tool)).toBe(true);
    expect(listsMcpTool(["git__*", "github__list"], tool)).toBe(false);
    expect(listsMcpTool(["read", "bash"], tool)).toBe(false);
  });
});
