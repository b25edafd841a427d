/**
 * What the model gets from an MCP tool: the host turns the SDK's result into a bounded plain outcome (call-outcome.ts),
 * the worker turns that into the agent tool's result, capped like the built-in tools' output (mcp-result.ts).
 */
import { describe, expect, it } from "vitest";
import { usableSchema } from "../../../../../src/agent-worker/tools/mcp/mcp-tool";
import { MAX_IMAGE_CHARS, MAX_TEXT_CHARS, toCallOutcome } from "../../../../../src/mcp-host/call-outcome";
import { progressUpdate, toToolResult } from "../../../../../src/agent-worker/tools/mcp/mcp-result";
import { MAX_BYTES, MAX_LINES } from "../../../../../src/agent-worker/tools/workspace/limits";

const source = { server: "Everything", tool: "t" };
const PNG = "iVBORw0KGgo=";

describe("the host's outcome of a call", () => {
  it("keeps text, images, resource links and embedded resources, and says what it could not keep", () => {
    const outcome = toCallOutcome({
      content: [
        { type: "text", text: "hello" },
        { type: "image", data: PNG, mimeType: "image/png" },
        { type: "audio", data: "AAAA", mimeType: "audio/wav" },
        { type: "resource_link", uri: "file:///a.txt", name: "a.txt", description: "a file", extra: 1 },
        { type: "resource", resource: { uri: "mem://x", mimeType: "text/plain", text: "inside" } },
        { type: "resource", resource: { uri: "mem://bin", blob: "AAAAAAAA" } },
        { type: "hologram" },
      ],
    });
    expect(outcome).toEqual({
      isError: false,
      content: [
        { type: "text", text: "hello" },
        { type: "image", data: PNG, mimeType: "image/png" },
        { type: "audio", mimeType: "audio/wav", bytes: 3 },
        { type: "resource_link", uri: "file:///a.txt", name: "a.txt", description: "a file" },
        { type: "resource", uri: "mem://x", mimeType: "text/plain", text: "inside" },
        { type: "resource", uri: "mem://bin", blobBytes: 6 },
        { type: "note", text: 'A piece of the result of type "hologram" is not supported and was left out.' },
      ],
    });
  });

  it("caps what a server could send without end, and passes structured content on when there is no text", () => {
    const outcome = toCallOutcome({ content: [{ type: "text", text: "x".repeat(MAX_TEXT_CHARS + 5) }, { type: "image", data: "A".repeat(MAX_IMAGE_CHARS + 4), mimeType: "image/png" }] });
    expect((outcome.content[0] as { text: string }).text).toMatch(/\[… 5 more characters left out\]$/);
    expect(outcome.content[1]).toMatchObject({ type: "note", text: expect.stringContaining("too large") });
    expect(toCallOutcome({ content: [], structuredContent: { sum: 5 } })).toEqual({ content: [], isError: false, structured: { sum: 5 } });
    expect(toCallOutcome({ toolResult: { ok: true } })).toEqual({ content: [{ type: "text", text: '{"ok":true}' }], isError: false });
    expect(toCallOutcome(null)).toEqual({ content: [], isError: false });
  });
});

describe("the agent tool's result", () => {
  it("gives the model the text, then the images it can read; other pieces in words", () => {
    const result = toToolResult(
      {
        isError: false,
        content: [
          { type: "text", text: "Here it is:" },
          { type: "image", data: PNG, mimeType: "image/png" },
          { type: "image", data: PNG, mimeType: "image/svg+xml" },
          { type: "resource_link", uri: "https://x.test/r", name: "r", mimeType: "text/html" },
          { type: "resource", uri: "mem://bin", blobBytes: 2048 },
          { type: "note", text: "An image was too large to pass on." },
        ],
      },
      source,
    );
    expect(result.content).toEqual([
      {
        type: "text",
        text: [
          "Here it is:",
          "[an image of type image/svg+xml was left out: models take PNG, JPEG, GIF or WebP]",
          "Resource: r <https://x.test/r> (text/html)",
          "[resource <mem://bin> (binary, 2.0KB) was left out]",
          "[An image was too large to pass on.]",
        ].join("\n"),
      },
      { type: "image", data: PNG, mimeType: "image/png" },
    ]);
    expect(result.details).toEqual(source);
  });

  it("is capped like the built-in tools' output, saying so", () => {
    const many = Array.from({ length: MAX_LINES + 10 }, (_, i) => `line ${i}`).join("\n");
    const result = toToolResult({ isError: false, content: [{ type: "text", text: many }] }, source);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain(`[Output truncated: showing ${MAX_LINES} of ${MAX_LINES + 10} lines (50.0KB limit).]`);
    expect(result.details.truncated).toMatchObject({ totalLines: MAX_LINES + 10, shownLines: MAX_LINES });
    // One long line (JSON, say): its start, not nothing.
    const wide = (toToolResult({ isError: false, content: [{ type: "text", text: `{"data":"${"y".repeat(2 * MAX_BYTES)}"}` }] }, source).content[0] as { text: string }).text;
    expect(wide.startsWith('{"data":"yyy')).toBe(true);
    expect(wide).toMatch(/\[Output truncated: showing the first 50.0KB of 100.0KB\.\]$/);
    expect(Buffer.byteLength(wide)).toBeLessThan(MAX_BYTES + 100);
  });

  it("fails the call when the tool says it failed, with its text", () => {
    expect(() => toToolResult({ isError: true, content: [{ type: "text", text: "no such repo" }] }, source)).toThrow("no such repo");
    expect(() => toToolResult({ isError: true, content: [] }, source)).toThrow("The tool t reported an error.");
  });

  it("says so when there is no output at all", () => {
    expect(toToolResult({ isError: false, content: [] }, source).content).toEqual([{ type: "text", text: "(no output)" }]);
  });

  it("shows progress as the card's running text", () => {
    expect(progressUpdate({ progress: 2, total: 5, message: "copying" }, source).content).toEqual([{ type: "text", text: "Progress: 2 of 5 - copying" }]);
    expect(progressUpdate({ progress: 7 }, source).content).toEqual([{ type: "text", text: "Progress: 7" }]);
  });
});

describe("the agent tool's parameters", () => {
  it("are the server's schema without its top-level $schema and $id, and any object when it cannot be compiled", () => {
    const schema = { $schema: "http://json-schema.org/draft-07/schema#", $id: "echo", type: "object", properties: { message: { type: "string" } }, required: ["message"] };
    expect(usableSchema(schema)).toEqual({ type: "object", properties: { message: { type: "string" } }, required: ["message"] });
    expect(usableSchema({ type: "object", properties: { a: { type: "string", pattern: "(" } } })).toEqual({ type: "object", properties: {}, additionalProperties: true });
  });
});

