/**
 * The IPC channel names shared by main and the preload. Plain constants with no imports, so the sandboxed preload
 * can bundle them without pulling anything else in.
 */

/** invoke(method, args): one AppApi call, validated in main. */
export const CALL_CHANNEL = "paddock:call";
/** invoke(sessionId): asks for a session port; main then posts the port on the same channel name. */
export const SESSION_PORT_CHANNEL = "paddock:session-port";
/** main -> page: a menu command ("open-settings" | "new-chat"). */
export const COMMAND_CHANNEL = "paddock:command";
/** main -> page: one AppEvent (chats changing, chats wanting attention), the same for every window. */
export const EVENT_CHANNEL = "paddock:event";
