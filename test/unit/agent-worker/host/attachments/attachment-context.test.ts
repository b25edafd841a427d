/**
 * What the model is sent for a message with attachments, and what a chat's own options make of its requests.
 */
import { describe, expect, it } from "vitest";
import type { Message, UserMessage } from "@earendil-works/pi-ai";
import { withAttachments } from "../../../../../src/agent-worker/host/attachments/attachment-context";
import { chatInstructions, requestParameters } from "../../../../../src/agent-worker/host/prompt/chat-request";
import { workspacePrompt } from "../../../../../src/agent-worker/host/prompt/system-prompt";
import {
  attachmentsOf,
  formatBytes,
  imagesRefused,
  readsImages,
  sizeProblem,
  type AttachmentRef,
  type UserMessageWithAttachments,
} from "../../../../../src/shared/protocol/attachments";
import { chatOptionsProblem, hasChatOptions, normalizeChatOptions } from "../../../../../src/shared/protocol/chat-options";

const image: AttachmentRef = { id: `${"a".repeat(64)}.png`, name: "chart.png", mimeType: "image/png", size: 4 };
const notes: AttachmentRef = { id: `${"b".repeat(64)}.txt`, name: 'my "notes".md', mimeType: "text/plain", size: 11 };
const stored = new Map([
  [image.id, "iVBORw=="],
  [notes.id, Buffer.from("line 1\nline 2").toString("base64")],
]);
const source = {
  read: async (id: string) => {
    const data = stored.get(id);
    if (data === undefined) throw new Error("The attachment is missing from this chat's folder.");
    return data;
  },
};
const asked = (text: string, attachments?: AttachmentRef[]): UserMessageWithAttachments => ({
  role: "user",
  content: text ? [{ type: "text", text }] : [],
  timestamp: 1,
  ...(attachments ? { attachments } : {}),
});

describe("attachments in the model's context", () => {
  it("puts an image (for a model that reads images) and a named text file ahead of what the user typed", async () => {
    const message = asked("What do these say?", [image, notes]);
    const [sent] = await withAttachments([message], source, true);
    expect(sent).toEqual({
      role: "user",
      timestamp: 1,
      content: [
        { type: "image", data: "iVBORw==", mimeType: "image/png" },
        { type: "text", text: "<file name=\"my 'notes'.md\">\nline 1\nline 2\n</file>" },
        { type: "text", text: "What do these say?" },
      ],
    });
    expect(message.attachments).toEqual([image, notes]); // the transcript's message is untouched
  });

  it("says an image was left out for a model that reads text only, and names a file that cannot be read", async () => {
    const gone: AttachmentRef = { ...image, id: `${"c".repeat(64)}.png`, name: "gone.png" };
    const [textOnly] = await withAttachments([asked("", [image])], source, false);
    expect(textOnly.content).toEqual([{ type: "text", text: '[Image "chart.png" left out: this model does not read images.]' }]);
    const [missing] = await withAttachments([asked("look", [gone])], source, true);
    expect(missing.content).toEqual([
      { type: "text", text: "[Attached file \"gone.png\" could not be read: The attachment is missing from this chat's folder.]" },
      { type: "text", text: "look" },
    ]);
  });

  it("passes every other message on as the same object", async () => {
    const plain: Message = { role: "user", content: "hi", timestamp: 2 };
    const reply: Message = { role: "assistant", content: [], api: "x", provider: "p", model: "m", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: 3 };
    const out = await withAttachments([plain, reply], source, true);
    expect(out[0]).toBe(plain);
    expect(out[1]).toBe(reply);
  });

  it("reads only well-formed refs from a message (a damaged transcript's entries are left out)", () => {
    const damaged = { ...asked("x"), attachments: [image, { id: "../../etc/passwd", name: "p" }, null] } as unknown as UserMessage;
    expect(attachmentsOf(damaged)).toEqual([image]);
    expect(attachmentsOf({ role: "user", content: "x", timestamp: 0 })).toEqual([]);
  });

  it("words limits and refusals once, for page and worker", () => {
    expect(sizeProblem("image", "a.png", 12_900_000)).toBe("a.png is 12.3 MB: images can be at most 10 MB.");
    expect(sizeProblem("text", "b.txt", 1024)).toBeUndefined();
    expect(formatBytes(812)).toBe("812 bytes");
    expect(formatBytes(14_540)).toBe("14.2 KB");
    expect(imagesRefused("GPT-3.5")).toBe("GPT-3.5 does not read images: remove the images, or choose a model that does.");
    expect(readsImages({ input: ["text", "image"] })).toBe(true);
    expect(readsImages({ input: ["text"] })).toBe(false);
  });
});

describe("a chat's own instructions and parameters", () => {
  it("instructions: the chat's own, else Settings' default, else none", () => {
    expect(chatInstructions({ systemPrompt: "  Be brief.  " }, "Default.")).toBe("Be brief.");
    expect(chatInstructions({}, "Default.")).toBe("Default.");
    expect(chatInstructions({ systemPrompt: "   " }, "  ")).toBeUndefined();
    expect(chatInstructions({}, undefined)).toBeUndefined();
  });

  it("in a workspace the chat's instructions are added to Paddock's prompt, which keeps its tools, rules and folder", () => {
    const parts = { tools: [{ name: "read", snippet: "Read a file" }], workspace: "/w", contextFiles: [] };
    const own = workspacePrompt({ ...parts, instructions: chatInstructions({ systemPrompt: "Answer in French." }, "") });
    expect(own.startsWith("You are a coding assistant running inside Paddock")).toBe(true);
    expect(own).toContain("<user_instructions>\nAnswer in French.\n</user_instructions>");
    expect(own).toContain("- read: Read a file");
    expect(own).toContain("<cwd>\n/w\n</cwd>");
    expect(workspacePrompt({ ...parts, instructions: chatInstructions({}, "") })).not.toContain("<user_instructions>");
  });

  it("request parameters: temperature as set, max output tokens capped at the model's maximum, defaults left out", () => {
    expect(requestParameters({}, { maxTokens: 8192 })).toEqual({});
    expect(requestParameters({ temperature: 0, maxTokens: 500 }, { maxTokens: 8192 })).toEqual({ temperature: 0, maxTokens: 500 });
    expect(requestParameters({ maxTokens: 100_000 }, { maxTokens: 8192 })).toEqual({ maxTokens: 8192 });
  });

  it("checks options from a page or a transcript, and keeps blank instructions as none", () => {
    expect(chatOptionsProblem({ systemPrompt: "x", temperature: 0.7, maxTokens: 256 })).toBeUndefined();
    expect(chatOptionsProblem({ temperature: 2.5 })).toBe("temperature must be a number from 0 to 2");
    expect(chatOptionsProblem({ maxTokens: 1.5 })).toMatch(/whole number/);
    expect(chatOptionsProblem({ systemPrompt: "x".repeat(50_001) })).toMatch(/at most 50,000 characters/);
    expect(chatOptionsProblem({ top_p: 1 })).toBe('unknown chat option "top_p"');
    expect(chatOptionsProblem(null)).toBe("chat options must be an object");
    expect(normalizeChatOptions({ systemPrompt: " \n", temperature: 0 })).toEqual({ temperature: 0 });
    expect(hasChatOptions({})).toBe(false);
    expect(hasChatOptions({ temperature: 0 })).toBe(true);
  });
});
