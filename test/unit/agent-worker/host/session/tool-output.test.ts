import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../../../src/shared/agent/types";
import { readToolOutput } from "../../../../../src/agent-worker/host/session/tool-output";
import { TOOL_OUTPUT_MAX_BYTES } from "../../../../../src/shared/protocol/session-protocol";

let base: string;
let sessionDir: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "paddock-tool-output-")));
  sessionDir = join(base, "session");
  mkdirSync(join(sessionDir, "bash-output"), { recursive: true });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const result = (toolCallId: string, details: unknown): AgentMessage =>
  ({ role: "toolResult", toolCallId, toolName: "bash", content: [{ type: "text", text: "tail" }], details, isError: false, timestamp: 1 }) as AgentMessage;

describe("a call's saved full output", () => {
  it("reads the file the call's details name, in the chat's saved-output folder", async () => {
    const path = join(sessionDir, "bash-output", "bash-1.log");
    const text = Array.from({ length: 3001 }, (_, i) => i + 1).join("\n");
    writeFileSync(path, text);
    expect(await readToolOutput([result("c1", { fullOutputPath: path })], "c1", sessionDir)).toEqual({ path, text, size: text.length, cut: false });
  });

  it("cuts a huge one to its start, saying so", async () => {
    const path = join(sessionDir, "bash-output", "bash-2.log");
    writeFileSync(path, Buffer.alloc(TOOL_OUTPUT_MAX_BYTES + 10, 0x61));
    const read = await readToolOutput([result("c1", { fullOutputPath: path })], "c1", sessionDir);
    expect(read).toMatchObject({ size: TOOL_OUTPUT_MAX_BYTES + 10, cut: true });
    expect(read.text.length).toBe(TOOL_OUTPUT_MAX_BYTES);
  });

  it("refuses, in words, a call that saved none, an unknown call, a file gone, and a path outside the folder or through a link", async () => {
    const outside = join(base, "secret.txt");
    writeFileSync(outside, "secret");
    const linked = join(sessionDir, "bash-output", "link.log");
    symlinkSync(outside, linked);
    const messages = [result("none", undefined), result("gone", { fullOutputPath: join(sessionDir, "bash-output", "x.log") }), result("out", { fullOutputPath: outside }), result("link", { fullOutputPath: linked })];
    await expect(readToolOutput(messages, "none", sessionDir)).rejects.toThrow("This call saved no full output");
    await expect(readToolOutput(messages, "other", sessionDir)).rejects.toThrow("not in this chat");
    await expect(readToolOutput(messages, "gone", sessionDir)).rejects.toThrow("The saved output is gone");
    await expect(readToolOutput(messages, "out", sessionDir)).rejects.toThrow("not in this chat's folder");
    await expect(readToolOutput(messages, "link", sessionDir)).rejects.toThrow("not in this chat's folder");
  });
});
