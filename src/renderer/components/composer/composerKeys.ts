/** What a key press in the composer asks for. Pure, so the mapping is easy to read and to test. */
export type ComposerIntent = "send" | "steer" | "follow-up" | "escape" | "newline" | "cycle-mode" | "none";

export interface ComposerKey {
  key: string;
  shiftKey: boolean;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  /** True while an IME composition is in progress: Enter then confirms the composition, not the message. */
  isComposing: boolean;
}

/**
 * Enter sends (or, while the agent runs, queues a steering message); Alt+Enter queues a follow-up while running;
 * Shift+Enter is a newline; Esc is handed to the abort logic; Shift+Tab cycles the chat's mode (its act profile →
 * Plan → back, as in Claude Code; plain Tab still moves the focus on).
 */
export function composerIntent(e: ComposerKey, running: boolean): ComposerIntent {
  if (e.isComposing) return "none";
  if (e.key === "Escape") return "escape";
  if (e.key === "Tab") return e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey ? "cycle-mode" : "none";
  if (e.key !== "Enter") return "none";
  if (e.shiftKey) return "newline";
  if (e.ctrlKey || e.metaKey) return running ? "steer" : "send";
  if (e.altKey) return running ? "follow-up" : "send";
  return running ? "steer" : "send";
}
