/**
 * An MCP tool's result as the model gets it: the text of its pieces (resource links and binary pieces in words),
 * capped like the built-in tools' output (pi's 2,000 lines / 50 KB, head kept, with a marker saying so), and its
 * images as image parts. A result the tool marked `isError` becomes a thrown Error, so the loop makes an error result
 * of it as for any failing tool.
 */
import type { ImageContent, TextContent } from "@earendil-works/pi-ai";
import type { AgentToolResult } from "../../../shared/agent/types";
import type { McpCallOutcome, McpCallProgress, McpContent } from "../../../shared/protocol/mcp-host-protocol";
import { formatSize, MAX_BYTES } from "../workspace/limits";
import { truncateHead } from "../workspace/truncate";

/** Image types models take; others are named in the text instead. */
const MODEL_IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
/** Images passed on per result. */
const MAX_IMAGES = 8;

export interface McpResultDetails {
  server: string;
  tool: string;
  /** Set when the text was cut to the limit. */
  truncated?: { totalLines: number; totalBytes: number; shownLines: number };
}

export function toToolResult(outcome: McpCallOutcome, source: { server: string; tool: string }): AgentToolResult<McpResultDetails> {
  const lines: string[] = [];
  const images: ImageContent[] = [];
  for (const piece of outcome.content) {
    if (piece.type === "image" && MODEL_IMAGE_TYPES.has(piece.mimeType) && images.length < MAX_IMAGES) images.push({ type: "image", data: piece.data, mimeType: piece.mimeType });
    else lines.push(describePiece(piece));
  }
  if (outcome.structured !== undefined) lines.push(JSON.stringify(outcome.structured, null, 2));
  const text = lines.join("\n");
  const cut = truncateHead(text);
  const shown = !cut.truncated
    ? text
    : cut.firstLineExceedsLimit
      ? // One long line (JSON, often): its start rather than nothing.
        `${Buffer.from(text).subarray(0, MAX_BYTES).toString()}\n\n[Output truncated: showing the first ${formatSize(MAX_BYTES)} of ${formatSize(cut.totalBytes)}.]`
      : `${cut.content}\n\n[Output truncated: showing ${cut.outputLines} of ${cut.totalLines} lines (${formatSize(MAX_BYTES)} limit).]`;
  if (outcome.isError) throw new Error(shown || `The tool ${source.tool} reported an error.`);
  const content: (TextContent | ImageContent)[] = [];
  if (shown !== "" || images.length === 0) content.push({ type: "text", text: shown || "(no output)" });
  content.push(...images);
  return {
    content,
    details: {
      ...source,
      ...(cut.truncated ? { truncated: { totalLines: cut.totalLines, totalBytes: cut.totalBytes, shownLines: cut.outputLines } } : {}),
    },
  };
}

function describePiece(piece: McpContent): string {
  switch (piece.type) {
    case "text":
      return piece.text;
    case "image":
      return piece.mimeType.startsWith("image/") && MODEL_IMAGE_TYPES.has(piece.mimeType)
        ? `[more images (${piece.mimeType}) were left out]`
        : `[an image of type ${piece.mimeType} was left out: models take PNG, JPEG, GIF or WebP]`;
    case "audio":
      return `[audio (${piece.mimeType}, ${formatSize(piece.bytes)}) was left out]`;
    case "resource_link":
      return `Resource: ${piece.title ?? piece.name ?? piece.uri} <${piece.uri}>${piece.mimeType ? ` (${piece.mimeType})` : ""}${piece.description ? ` - ${piece.description}` : ""}`;
    case "resource":
      return piece.text !== undefined
        ? `Resource <${piece.uri}>:\n${piece.text}`
        : `[resource <${piece.uri}> (${piece.mimeType ?? "binary"}${piece.blobBytes !== undefined ? `, ${formatSize(piece.blobBytes)}` : ""}) was left out]`;
    case "note":
      return `[${piece.text}]`;
  }
}

/** A progress notification as the tool card's running text ("Progress: 3 of 5 - copying"). */
export function progressUpdate(progress: Omit<McpCallProgress, "callId">, source: { server: string; tool: string }): AgentToolResult<McpResultDetails & { progress: Omit<McpCallProgress, "callId"> }> {
  const amount = progress.total !== undefined ? `${progress.progress} of ${progress.total}` : `${progress.progress}`;
  const text = `Progress: ${amount}${progress.message ? ` - ${progress.message}` : ""}`;
  return { content: [{ type: "text", text }], details: { ...source, progress } };
}
