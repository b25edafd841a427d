/**
 * A tool call's result as the SDK hands it over (a CallToolResult, or the older `toolResult` form), turned into the
 * plain, bounded McpCallOutcome that travels to main and the chat's worker. The server is not trusted to keep to
 * the schema's spirit: sizes are capped here, unknown pieces become notes, nothing is thrown.
 */
import type { McpCallOutcome, McpContent } from "../shared/protocol/mcp-host-protocol";

/** Characters of text kept per piece (the worker cuts further, to what a built-in tool shows: 50 KB). */
export const MAX_TEXT_CHARS = 1_000_000;
/** Base64 characters of one image passed on (about 10 MB, the largest image a chat takes as an attachment). */
export const MAX_IMAGE_CHARS = 14_000_000;
/** Pieces per result. */
const MAX_PIECES = 100;

export function toCallOutcome(result: unknown): McpCallOutcome {
  const r = (typeof result === "object" && result !== null ? result : {}) as Record<string, unknown>;
  const isError = r.isError === true;
  if (!Array.isArray(r.content)) {
    // Protocol 2024-10-07's shape: `{ toolResult }`.
    return { content: "toolResult" in r ? [{ type: "text", text: capText(json(r.toolResult)) }] : [], isError };
  }
  const pieces = r.content.slice(0, MAX_PIECES).map(toContent);
  if (r.content.length > MAX_PIECES) pieces.push({ type: "note", text: `${r.content.length - MAX_PIECES} more pieces of the result were left out.` });
  const structured = r.structuredContent;
  const hasText = pieces.some((p) => p.type === "text");
  return { content: pieces, isError, ...(structured !== undefined && !hasText ? { structured: JSON.parse(capText(json(structured), true)) } : {}) };
}

function toContent(piece: unknown): McpContent {
  const p = (typeof piece === "object" && piece !== null ? piece : {}) as Record<string, unknown>;
  switch (p.type) {
    case "text":
      return { type: "text", text: capText(String(p.text ?? "")) };
    case "image": {
      const data = typeof p.data === "string" ? p.data : "";
      const mimeType = typeof p.mimeType === "string" ? p.mimeType : "application/octet-stream";
      if (data.length > MAX_IMAGE_CHARS) return { type: "note", text: `An image (${mimeType}, ${Math.round((data.length * 3) / 4 / 1_048_576)} MB) was too large to pass on.` };
      return { type: "image", data, mimeType };
    }
    case "audio":
      return { type: "audio", mimeType: String(p.mimeType ?? "audio"), bytes: Math.floor((String(p.data ?? "").length * 3) / 4) };
    case "resource_link":
      return {
        type: "resource_link",
        uri: String(p.uri ?? ""),
        ...optionalText(p, "name", "title", "description", "mimeType"),
      };
    case "resource": {
      const res = (typeof p.resource === "object" && p.resource !== null ? p.resource : {}) as Record<string, unknown>;
      return {
        type: "resource",
        uri: String(res.uri ?? ""),
        ...(typeof res.mimeType === "string" ? { mimeType: res.mimeType } : {}),
        ...(typeof res.text === "string" ? { text: capText(res.text) } : {}),
        ...(typeof res.blob === "string" ? { blobBytes: Math.floor((res.blob.length * 3) / 4) } : {}),
      };
    }
    default:
      return { type: "note", text: `A piece of the result of type "${String(p.type).slice(0, 40)}" is not supported and was left out.` };
  }
}

function optionalText(source: Record<string, unknown>, ...keys: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of keys) if (typeof source[key] === "string") out[key] = (source[key] as string).slice(0, 2_000);
  return out;
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "null";
  } catch {
    return "null";
  }
}

/** Text cut to MAX_TEXT_CHARS with a note of what was left out (or, for JSON that must still parse, `null`). */
function capText(text: string, mustParse = false): string {
  if (text.length <= MAX_TEXT_CHARS) return text;
  if (mustParse) return "null";
  return `${text.slice(0, MAX_TEXT_CHARS)}\n[… ${text.length - MAX_TEXT_CHARS} more characters left out]`;
}
