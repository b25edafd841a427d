/**
 * The approval and the file tools agree on which protected file (protected-paths.ts) a call may change. Before
 * asking, the approval judges a `write` or `edit` call's path (`judge`: the real path, remembered by call id when it
 * is protected). As it writes, the tool resolves the path again and changes a protected file only if it is the very
 * one the user was asked about for this call (`check`): a folder swapped for a symlink into `.git/hooks` after the
 * approval, by a command running beside the call, is refused.
 */
import { protectionOf } from "./protected-paths";
import type { WorkspacePaths } from "./workspace-paths";

/** The tools that change files, and the argument naming the file (after `prepareArguments`, as the gate sees it). */
const CHANGES_FILE: Readonly<Record<string, string>> = { write: "path", edit: "path" };

/** Calls remembered at most (questions denied or never run leave theirs behind until the id comes again). */
const MAX_REMEMBERED = 1000;

export class ProtectedChanges {
  private readonly asked = new Map<string, string>();

  constructor(private readonly paths: WorkspacePaths) {}

  /**
   * Why the call must be asked about every time (it changes a protected file; the text names it and says why), or
   * undefined. A path the gate refuses is undefined too: the tool then fails with the gate's own message. Never rejects.
   */
  async judge(toolCallId: string, toolName: string, args: unknown): Promise<string | undefined> {
    this.asked.delete(toolCallId);
    const key = Object.hasOwn(CHANGES_FILE, toolName) ? CHANGES_FILE[toolName] : undefined;
    const path = key && typeof args === "object" && args !== null ? (args as Record<string, unknown>)[key] : undefined;
    if (typeof path !== "string") return undefined;
    const real = await this.paths.resolve(path).catch(() => undefined);
    if (real === undefined) return undefined;
    const why = protectionOf(this.paths.display(real));
    if (why === undefined) return undefined;
    this.asked.set(toolCallId, real);
    if (this.asked.size > MAX_REMEMBERED) this.asked.delete(this.asked.keys().next().value!);
    return why;
  }

  /** Throws, saying why, when `real` is protected and is not the file this call was asked about. */
  check(toolCallId: string, real: string): void {
    const why = protectionOf(this.paths.display(real));
    if (why === undefined) return;
    const asked = this.asked.get(toolCallId);
    this.asked.delete(toolCallId);
    if (asked !== real) {
      throw new Error(`Refused to change ${this.paths.display(real)}: ${why}, and the user was not asked about it for this call. Call the tool again to ask.`);
    }
  }
}
