import { describe, expect, it } from "vitest";
import { matchMcpPrompts, promptArguments } from "../../../../../src/renderer/components/composer/slash-menu";
import type { McpPromptInfo } from "../../../../../src/shared/protocol/mcp-host-protocol";

const prompt = (name: string, args: McpPromptInfo["arguments"] = [], serverName = "Everything"): McpPromptInfo => ({ serverId: serverName.toLowerCase(), serverName, name, arguments: args });
const ARGS = prompt("args-prompt", [{ name: "city", required: true }, { name: "state", required: false }]);

describe("MCP prompts in the / menu", () => {
  it("match by name: those starting with what is typed first, then those holding it, by name", () => {
    const list = [prompt("simple-prompt"), ARGS, prompt("resource-prompt"), prompt("review", [], "Git")];
    expect(matchMcpPrompts(list, "").map((p) => p.name)).toEqual(["args-prompt", "resource-prompt", "review", "simple-prompt"]);
    expect(matchMcpPrompts(list, "re").map((p) => p.name)).toEqual(["resource-prompt", "review"]);
    expect(matchMcpPrompts(list, "PROMPT").map((p) => p.name)).toEqual(["args-prompt", "resource-prompt", "simple-prompt"]);
    expect(matchMcpPrompts(list, "zzz")).toEqual([]);
  });

  it("take the arguments filled in, blanks left out; none while a required one is blank", () => {
    expect(promptArguments(ARGS, {})).toBeUndefined();
    expect(promptArguments(ARGS, { city: "  " })).toBeUndefined();
    expect(promptArguments(ARGS, { city: " Lisbon ", state: "" })).toEqual({ city: "Lisbon" });
    expect(promptArguments(ARGS, { city: "Porto", state: "Norte" })).toEqual({ city: "Porto", state: "Norte" });
    expect(promptArguments(prompt("simple-prompt"), {})).toEqual({});
  });
});
