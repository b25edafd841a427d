/**
 * "Open full output": the whole output a command saved (bash keeps its last 2,000 lines / 50 KB for the model and
 * saves everything to `<session>/bash-output/`, naming the file in its result's `details.fullOutputPath`). Read only
 * when the call is this chat's and the file is in this chat's own saved-output folder: a path in a result (a
 * transcript can be edited, an old one restored) is never followed elsewhere.
 */
import { realpath } from "node:fs/promises";
import { sep } from "node:path";
import type { AgentMessage } from "../../../shared/agent/types";
import { TOOL_OUTPUT_MAX_BYTES, type ToolOutputFile } from "../../../shared/protocol/session-protocol";
import { readRegularFile } from "../../../shared-node/regular-file";
import { bashOutputDir } from "../../../shared-node/session-files/session-folder";
import { isRecord } from "../../../shared/is-record";

export async function readToolOutput(messages: readonly AgentMessage[], toolCallId: string, sessionDir: string): Promise<ToolOutputFile> {
  const result = messages.find((m) => m.role === "toolResult" && m.toolCallId === toolCallId);
  if (!result) throw new Error("That call is not in this chat (any more).");
  const details = result.role === "toolResult" ? result.details : undefined;
  const path = isRecord(details) && typeof details.fullOutputPath === "string" ? details.fullOutputPath : undefined;
  if (!path) throw new Error("This call saved no full output: all of it is shown.");
  let real: string;
  let folder: string;
  try {
    [real, folder] = await Promise.all([realpath(path), realpath(bashOutputDir(sessionDir))]);
  } catch {
    throw new Error(`The saved output is gone (${path}).`);
  }
  if (!real.startsWith(folder + sep)) throw new Error("The saved output is not in this chat's folder, so it is not opened.");
  const read = await readRegularFile(real, { maxBytes: TOOL_OUTPUT_MAX_BYTES, larger: "cut", real: true });
  if (!read.ok) throw new Error(`The saved output could not be read: it is ${read.reason}.`);
  // A cut may fall inside a character: the decoder's replacement shows there, at the very end.
  return { path: real, text: read.bytes.toString("utf8"), size: read.size, cut: read.cut };
}
