/**
 * Attachments into the model's context, at the last step before a request (the Agent's `convertToLlm`): a user
 * message's refs become content the model reads, ahead of what the user typed. A text file becomes a text part
 * headed by its name; an image becomes an image part for a model that reads images, and for one that does not, a
 * line saying it was left out (a chat can change models after an image was sent). A file that cannot be read is
 * named in a line too: one damaged file never fails a whole request.
 */
import type { ImageContent, Message, TextContent } from "@earendil-works/pi-ai";
import { attachmentKind, attachmentsOf, type AttachmentRef } from "../../../shared/protocol/attachments";
import { errorText } from "../../../shared/error-text";

export interface AttachmentSource {
  /** The attachment's bytes in base64; rejects when it cannot be read. */
  read(id: string): Promise<string>;
}

/**
 * `messages` with every user message's attachments turned into content; messages without attachments are returned
 * as they are (the same objects). Never mutates its input; never rejects for an attachment that cannot be read.
 */
export async function withAttachments(messages: readonly Message[], source: AttachmentSource, acceptsImages: boolean): Promise<Message[]> {
  return Promise.all(
    messages.map(async (message) => {
      const refs = attachmentsOf(message);
      if (refs.length === 0) return message;
      const parts = await Promise.all(refs.map((ref) => attachmentPart(ref, source, acceptsImages)));
      const typed = typeof message.content === "string" ? (message.content ? [{ type: "text" as const, text: message.content }] : []) : message.content;
      const { attachments: _refs, ...rest } = message as Message & { attachments?: unknown };
      return { ...rest, content: [...parts, ...typed] } as Message;
    }),
  );
}

/** How one attached file reaches the model. */
async function attachmentPart(ref: AttachmentRef, source: AttachmentSource, acceptsImages: boolean): Promise<TextContent | ImageContent> {
  const name = quoted(ref.name);
  if (attachmentKind(ref) === "image" && !acceptsImages) return note(`[Image ${name} left out: this model does not read images.]`);
  let data: string;
  try {
    data = await source.read(ref.id);
  } catch (error) {
    return note(`[Attached file ${name} could not be read: ${errorText(error)}]`);
  }
  if (attachmentKind(ref) === "image") return { type: "image", data, mimeType: ref.mimeType };
  return note(`<file name=${name}>\n${Buffer.from(data, "base64").toString("utf8")}\n</file>`);
}

function note(text: string): TextContent {
  return { type: "text", text };
}

function quoted(name: string): string {
  return `"${name.replace(/"/g, "'")}"`;
}
