import { createContext } from "react";
import type { ApprovalAnswer, ApprovalRequest } from "../../../shared/protocol/session-protocol";

/** The chat's waiting questions, by tool call, and how to answer one; ChatView provides it, tool cards ask it. */
export interface Approvals {
  pending: ReadonlyMap<string, ApprovalRequest>;
  answer(toolCallId: string, answer: ApprovalAnswer, reason?: string): Promise<void>;
}

export const ApprovalsContext = createContext<Approvals>({ pending: new Map(), answer: async () => {} });
