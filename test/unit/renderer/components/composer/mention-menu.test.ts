import { describe, expect, it } from "vitest";
import { matchResources, mentionAt, withMention, withoutMention } from "../../../../../src/renderer/components/composer/mention-menu";
import type { McpResourceInfo } from "../../../../../src/shared/protocol/mcp-host-protocol";

describe("mentionAt", () => {
  it("finds the @word the caret ends, at the start or after white space", () => {
    expect(mentionAt("@", 1)).toEqual({ query: "", start: 0, end: 1 });
    expect(mentionAt("look at @src/cs", 15)).toEqual({ query: "src/cs", start: 8, end: 15 });
    expect(mentionAt("one\n@csv and more", 8)).toEqual({ query: "csv", start: 4, end: 8 });
  });

  it("is not a mention in an address, inside a word, after a space, or with the caret elsewhere", () => {
    expect(mentionAt("mail me@example.com", 19)).toBeUndefined();
    expect(mentionAt("@src/csv.ts and", 15)).toBeUndefined();
    expect(mentionAt("@csv ", 5)).toBeUndefined();
    expect(mentionAt("plain text", 10)).toBeUndefined();
  });
});

describe("withMention", () => {
  it("puts the chosen path in place of what was typed, a folder with its slash, the caret after it", () => {
    expect(withMention("explain @cs", mentionAt("explain @cs", 11)!, "src/csv.ts", false)).toEqual({ draft: "explain @src/csv.ts ", caret: 20, inserted: "@src/csv.ts " });
    expect(withMention("@s please", mentionAt("@s please", 2)!, "src", true)).toEqual({ draft: "@src/ please", caret: 6, inserted: "@src/ " });
  });
});

describe("withoutMention (the mentioned file was refused)", () => {
  it("takes the inserted @path out, the caret moving with the text before it", () => {
    expect(withoutMention("not @logo.bin ", "@logo.bin ", 4, 14)).toEqual({ draft: "not ", caret: 4 });
    // Typed on after it meanwhile: the caret stays after what was typed.
    expect(withoutMention("not @logo.bin and more", "@logo.bin ", 4, 22)).toEqual({ draft: "not and more", caret: 12 });
    // The caret before it does not move.
    expect(withoutMention("not @logo.bin x", "@logo.bin ", 4, 2)).toEqual({ draft: "not x", caret: 2 });
  });

  it("of two alike, removes the one nearest where it was put; text typed before it shifted it", () => {
    expect(withoutMention("@a.bin and @a.bin ", "@a.bin ", 11, 18)).toEqual({ draft: "@a.bin and ", caret: 11 });
    expect(withoutMention("hello @a.bin ", "@a.bin ", 0, 13)).toEqual({ draft: "hello ", caret: 6 });
  });

  it("leaves a draft whose mention the user edited meanwhile", () => {
    expect(withoutMention("not @logo.b", "@logo.bin ", 4, 11)).toBeUndefined();
    expect(withoutMention("", "@logo.bin ", 0, 0)).toBeUndefined();
  });
});

describe("MCP resources in the @ menu", () => {
  const resource = (name: string, uri = `demo://resource/static/document/${name}`): McpResourceInfo => ({ serverId: "everything", serverName: "Everything", uri, name });

  it("match by name or address, case aside, names starting with the query first; at most twenty", () => {
    const list = [resource("features.md"), resource("architecture.md"), resource("README"), resource("notes", "file:///srv/arch/notes")];
    expect(matchResources(list, "ARCH").map((r) => r.name)).toEqual(["architecture.md", "notes"]);
    expect(matchResources(list, "md").map((r) => r.name)).toEqual(["features.md", "architecture.md"]);
    expect(matchResources(list, "zzz")).toEqual([]);
    expect(matchResources(Array.from({ length: 30 }, (_, i) => resource(`doc${i}.md`)), "doc")).toHaveLength(20);
  });
});
