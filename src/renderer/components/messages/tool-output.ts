import { createContext } from "react";
import type { ToolOutputFile } from "../../../shared/protocol/session-protocol";

/**
 * Reads a call's saved full output (the chat's `toolOutput` command) for "Open full output"; null where there is no
 * chat to ask (then the card only says what it shows). A subagent's nested view provides its own session's.
 */
export const ToolOutputContext = createContext<((toolCallId: string) => Promise<ToolOutputFile>) | null>(null);
