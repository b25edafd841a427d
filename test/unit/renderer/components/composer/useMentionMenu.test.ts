import { describe, expect, it } from "vitest";
import { matchResources } from "../../../../../src/renderer/components/composer/useMentionMenu";
import type { McpResourceInfo } from "../../../../../src/shared/protocol/mcp-host-protocol";

const resource = (name: string, uri = `demo://resource/static/document/${name}`): McpResourceInfo => ({ serverId: "everything", serverName: "Everything", uri, name });

describe("MCP resources in the @ menu", () => {
  it("match by name or address, case aside, names starting with the query first; at most twenty", () => {
    const list = [resource("features.md"), resource("architecture.md"), resource("README"), resource("notes", "file:///srv/arch/notes")];
    expect(matchResources(list, "ARCH").map((r) => r.name)).toEqual(["architecture.md", "notes"]);
    expect(matchResources(list, "md").map((r) => r.name)).toEqual(["features.md", "architecture.md"]);
    expect(matchResources(list, "zzz")).toEqual([]);
    expect(matchResources(Array.from({ length: 30 }, (_, i) => resource(`doc${i}.md`)), "doc")).toHaveLength(20);
  });
});
