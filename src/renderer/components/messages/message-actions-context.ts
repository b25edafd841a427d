import { createContext } from "react";
import type { MessageActionsValue } from "./message-actions";

/** The message rows' actions (see MessageActionsValue); absent: rows show none (a view without them). */
export const MessageActionsContext = createContext<MessageActionsValue | null>(null);

/**
 * The message list, for an action that changes rows below the one acted on (a version switch): the list stops
 * following the newest message, so the row stays where the reader is instead of the list jumping to the new end.
 */
export const ListFollowContext = createContext<{ stopFollowing(): void } | null>(null);
