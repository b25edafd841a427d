import type { ImageContent, TextContent } from "@earendil-works/pi-ai";

/**
 * The text of a message's content: a string as it is; text parts joined by `separator`, each image shown as
 * `image(part)` (default: left out). One helper for every place that shows or compares message text; callers pick
 * the separator and image label that suit them (a title, a chat row, a tool result).
 */
export function contentText(
  content: string | readonly (TextContent | ImageContent)[],
  separator: string,
  image: (part: ImageContent) => string = () => "",
): string {
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? part.text : image(part))).join(separator);
}
