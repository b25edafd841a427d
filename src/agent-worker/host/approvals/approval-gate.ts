/**
 * Tool calls the user decides on (asked from the session's `beforeToolCall`, see session/tool-call-guard.ts). A call whose tool Settings allow runs at once;
 * one the user allowed for this chat or for its project (its tool, or for `bash` the exact command: see
 * command-grants.ts) too, unless it changes a file the sandbox protects from commands (git hooks, shell start-up
 * files), which asks every time; any other waits for an answer given on the session channel: allow once, allow for
 * this chat, allow for this project (main keeps it for the workspace's folder), or deny (with a reason the model is
 * given). A sandboxed command's connection to a host no rule allows asks here too (allow once, for the project, deny). While a question waits the session counts as "waiting for you" (the worker lives on, the sidebar and
 * notifications say so); with no window on the chat for the timeout it is denied, and so is everything still waiting
 * when the run is stopped.
 *
 * A question asked while nobody watches the chat (no window on it, or the run is unattended: a schedule's, which
 * says so when it starts) is parked: `decideCall` answers `{ parked: decision }` at once, and the call's tool (wrapped
 * by the session's tool-call guard) waits for the decision while the other calls of the same turn run (pi's parallel
 * tool execution), the chat counts as waiting (main's notifier asks), and a window opened later shows
 * it. With no answer before the run ends (stopped, a budget reached, the worker closing) or the timeout it is denied
 * with that reason, which the model is told and the transcript keeps. An unattended run's timeout runs even while a
 * window shows the chat; a chat a window shows outside an unattended run asks as before.
 *
 * The chat's permission profile (shared/protocol/permission-profiles.ts) comes first: a call it refuses is refused
 * with its reason, whatever Settings and grants say; one it allows runs without asking unless it changes a protected
 * file; anything else is decided as above (Ask's behaviour, the chat's and the project's grants included).
 */
import type { ToolPolicy } from "../../../shared/settings/schema";
import type { ApprovalAnswer, ApprovalRequest } from "../../../shared/protocol/session-protocol";
import type { BeforeToolCallContext } from "../../../shared/agent/types";
import { hasHiddenCharacters } from "../../../shared/security/hidden-characters";
import { commandGrant, describeCommandGrant, legacyCommandGrant } from "./command-grants";
import { grantLabel, isGrantableHost, isProjectGrant } from "../../../shared-node/session-files/grant-format";
import { denied, type CallBlock, type CallDecision, type CallVerdict } from "./call-decision";
import type { ProfileVerdict } from "../../../shared/protocol/permission-profiles";

/**
 * What is done with a tool's calls: Settings' "allow" or "ask", or "every-call": ask each time, with no "allow for
 * this chat" (a shell that runs outside any sandbox, a change of a file the sandbox protects: no earlier answer may
 * stand for a later call).
 */
export type GatePolicy = ToolPolicy | "every-call";

export interface ApprovalGateOptions {
  /**
   * What the chat's permission profile does with a call of `toolName` now (permission-profiles.ts `decide`); absent:
   * Ask's behaviour. A rejection counts as "settings" (the call is decided as in Ask).
   */
  profile?(toolName: string): ProfileVerdict | Promise<ProfileVerdict>;
  /** What Settings (and the sandbox) say for a tool now; must not reject. */
  policy(toolName: string): GatePolicy | Promise<GatePolicy>;
  /** A line saying what the call would do, and for file changes the diff; must not throw. */
  describe(toolName: string, args: unknown): Promise<{ summary: string; diff?: string }>;
  /**
   * Why this call must be asked about every time whatever Settings and grants say (it changes a file the sandbox
   * protects from commands: protected-paths.ts), or undefined. Must not reject.
   */
  protection?(toolCallId: string, toolName: string, args: unknown): Promise<string | undefined>;
  /** The waiting questions changed: tell the mirrors and main. Must not throw. */
  changed(pending: ApprovalRequest[]): void;
  /** Journals "allowed for this chat" (resolves once on disk). */
  saveGrant(grant: string): Promise<void>;
  /**
   * Keeps "allowed in this project" (main stores it for the workspace's folder and tells every chat there); absent
   * or returning false from `hasProject`: the chat has no project (no workspace), and no such answer is offered.
   */
  saveProjectGrant?(grant: string): Promise<void>;
  hasProject?(): boolean;
  /** How long a question may wait while no window shows the chat (or, in an unattended run, at all). */
  timeoutMs(): number;
}

interface Waiting {
  request: ApprovalRequest;
  grant?: string;
  /** "Allow for this project" is offered. */
  project: boolean;
  settle(result: CallDecision): void;
}

/** A call to decide on (see `ApprovalGate.ask`). */
export interface GateCall {
  id: string;
  toolName: string;
  args: unknown;
  from?: ApprovalRequest["from"];
  described?: { summary: string; diff?: string };
  policy?: GatePolicy;
  protection?: string;
  /**
   * A sandboxed command's connection to a host no rule allows (`args` is `{ host, port }`): allowed once, for the
   * project (`net:<host>`), or denied; never "for this chat". Asked whatever Settings say of tools.
   */
  network?: boolean;
}

export class ApprovalGate {
  private readonly grants: Set<string>;
  /** What the chat's project allows (main's list for the workspace's folder, replaced whenever it changes). */
  private project = new Set<string>();
  private readonly waiting = new Map<string, Waiting>();
  private viewers = 0;
  /** The run under way is unattended (nobody is expected to answer while it runs: a schedule's). */
  private unattended = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly options: ApprovalGateOptions,
    grants: readonly string[] = [],
  ) {
    this.grants = new Set(grants);
  }

  /** Main's list of what the chat's project allows, whole (a grant removed there is gone here at once). */
  setProjectGrants(grants: readonly string[]): void {
    this.project = new Set(grants.filter((g) => isProjectGrant(g)));
  }

  /** The hosts the project allows (its `net:` grants), for the sandbox's list. */
  projectHosts(): string[] {
    return [...this.project].filter((g) => g.startsWith("net:")).map((g) => g.slice(4));
  }

  /** Whether a grant (the chat's, or the project's) allows what `grant` covers. */
  allows(grant: string): boolean {
    return this.grants.has(grant) || this.project.has(grant);
  }

  /** The questions waiting now, oldest first. */
  pending(): ApprovalRequest[] {
    return [...this.waiting.values()].map((w) => w.request);
  }

  /**
   * Decides one of the Agent's own calls (asked from its `beforeToolCall`): at once, or, while nobody watches the run,
   * parked (a decision to come). Never throws (a failure to describe the call still asks).
   */
  readonly decideCall = async (context: BeforeToolCallContext, signal?: AbortSignal): Promise<CallVerdict> =>
    this.decide({ id: context.toolCall.id, toolName: context.toolCall.name, args: context.args }, signal, true);

  /**
   * Decides one call: at once when the tool's policy or a grant allows it, else by asking the user. Also for calls
   * that are not this agent's own: a subagent's (`from` labels it in the chat, `described` is what the subagent saw,
   * `protection` what it found protected) and questions of the chat's own (`policy: "every-call"`: a yes or no,
   * nothing to grant). A call that changes a protected file asks every time, saying why. Never parked: the asker
   * waits. Never throws.
   */
  async ask(call: GateCall, signal?: AbortSignal): Promise<CallDecision> {
    const verdict = await this.decide(call, signal, false);
    return verdict && "parked" in verdict ? verdict.parked : verdict;
  }

  private async decide(call: GateCall, signal: AbortSignal | undefined, parkable: boolean): Promise<CallVerdict> {
    const { id, toolName: name } = call;
    const verdict = await this.profileVerdict(name);
    if (verdict.decision === "refuse") return refused(verdict.reason);
    const protection = call.described ? call.protection : await this.options.protection?.(id, name, call.args).catch(() => UNCHECKED);
    const policy: GatePolicy = call.network
      ? "ask"
      : protection !== undefined
        ? "every-call"
        : (call.policy ?? (await Promise.resolve(this.options.policy(name)).catch((): GatePolicy => "ask")));
    if (policy === "allow") return undefined;
    // The profile allows it (not a protected file, not a question of the chat's own, not a network question).
    if (verdict.decision === "allow" && protection === undefined && call.policy === undefined && !call.network) return undefined;
    const grant = policy === "every-call" ? undefined : call.network ? networkGrant(call.args) : grantFor(name, call.args);
    if (grant !== undefined && this.allows(grant)) return undefined;
    const legacy = policy === "every-call" || call.network || name !== "bash" ? undefined : legacyGrantFor(call.args);
    if (legacy !== undefined && this.grants.has(legacy)) return undefined;
    const project = grant !== undefined && isProjectGrant(grant) && this.options.saveProjectGrant !== undefined && (this.options.hasProject?.() ?? true);
    if (signal?.aborted) return stopped();
    const described: { summary: string; diff?: string } =
      call.described ?? (await this.options.describe(name, call.args).catch(() => ({ summary: name })));
    const request: ApprovalRequest = {
      toolCallId: id,
      toolName: name,
      summary: protection !== undefined ? `${described.summary} — ${protection}` : described.summary,
      ...(described.diff ? { diff: described.diff } : {}),
      ...(grant !== undefined && !call.network ? { scope: describeGrant(grant) } : {}),
      ...(project ? { project: grantLabel(grant).label } : {}),
      ...(call.network ? { network: true } : {}),
      ...(call.from ? { from: call.from } : {}),
      askedAt: Date.now(),
    };
    if (this.waiting.has(id)) return { block: true, reason: "This call is already waiting for an answer." };
    const parked = parkable && !this.watched();
    if (parked) request.parked = true;
    const decision = new Promise<CallDecision>((resolve) => {
      const onAbort = () => this.settle(id, parked ? denied(RUN_ENDED) : stopped());
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(id, {
        request,
        grant,
        project,
        settle: (result) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(result);
        },
      });
      this.publish();
    });
    return parked ? { parked: decision } : decision;
  }

  /** The profile's word on a call of `toolName`, as `ask` applies it; also what a subagent checks first. Never rejects. */
  async profileVerdict(toolName: string): Promise<ProfileVerdict> {
    if (!this.options.profile) return { decision: "settings" };
    return Promise.resolve()
      .then(() => this.options.profile!(toolName))
      .catch((): ProfileVerdict => ({ decision: "settings" }));
  }

  /** The user's answer. Rejects when nothing with that id waits (answered elsewhere, or timed out meanwhile). */
  async answer(toolCallId: string, answer: ApprovalAnswer, reason?: string): Promise<void> {
    const waiting = this.waiting.get(toolCallId);
    if (!waiting) throw new Error("That question is no longer waiting (it was answered, or the run stopped).");
    if (answer === "chat") {
      if (waiting.grant === undefined || waiting.request.network) throw new Error("This call can only be allowed once.");
      this.grants.add(waiting.grant);
      await this.options.saveGrant(waiting.grant);
    }
    if (answer === "project") {
      if (waiting.grant === undefined || !waiting.project || !this.options.saveProjectGrant) throw new Error("This call cannot be allowed for the project.");
      await this.options.saveProjectGrant(waiting.grant);
      this.project.add(waiting.grant);
    }
    const why = reason?.trim();
    this.settle(toolCallId, answer === "deny" ? denied(why ? `The user denied this call: ${why}` : "The user denied this call.") : undefined);
  }

  /** How many windows show the chat: the timeout runs only while none does (or the run is unattended). */
  setViewers(count: number): void {
    this.viewers = count;
    this.arm();
  }

  /** A run starts unattended (true) or ends, or starts watched (false): see the class's comment. */
  setUnattended(unattended: boolean): void {
    this.unattended = unattended;
    this.arm();
  }

  /** Whether someone is taken to watch the run: a window shows the chat, and the run is not unattended. */
  private watched(): boolean {
    return this.viewers > 0 && !this.unattended;
  }

  /** "Allowed for this chat" is forgotten (a reset starts the chat afresh). */
  clearGrants(): void {
    this.grants.clear();
  }

  /** Denies everything waiting (the worker is shutting down); a parked call says the run ended without an answer. */
  denyAll(reason: string): void {
    for (const [id, waiting] of [...this.waiting]) this.settle(id, denied(waiting.request.parked ? RUN_ENDED : reason));
  }

  private settle(id: string, result: CallDecision): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    this.waiting.delete(id);
    waiting.settle(result);
    this.publish();
  }

  private publish(): void {
    this.options.changed(this.pending());
    this.arm();
  }

  private arm(): void {
    const due = this.waiting.size > 0 && !this.watched();
    if (!due) {
      clearTimeout(this.timer);
      this.timer = undefined;
      return;
    }
    if (this.timer) return;
    const ms = this.options.timeoutMs();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const why = this.unattended ? "the run is unattended" : "no window showed the chat";
      for (const id of [...this.waiting.keys()]) this.settle(id, denied(`Nobody answered within ${duration(ms)} (${why}), so the call was not made.`));
    }, ms);
    this.timer.unref?.();
  }
}

const STOPPED = "The run was stopped before the user answered.";
/** Why a parked call was not made: the run ended (stopped, a budget reached, the worker closing) first. */
export const RUN_ENDED = "Denied: no answer before the run ended, so the call was not made.";

/** A block because the chat's permission profile does not allow the call: "denied" on its card, the reason for the model. */
function refused(reason: string): CallBlock {
  return denied(reason);
}

/** A block because the run was stopped while the call waited: "stopped" on its card. */
function stopped(): CallBlock {
  return { block: true, reason: STOPPED, ending: "stopped" };
}
/** What a question says when finding out whether its call changes a protected file failed (so it asks, as for one). */
const UNCHECKED = "it could not be checked whether this changes a file the sandbox protects";

function duration(ms: number): string {
  if (ms < 60_000) {
    const seconds = Math.round(ms / 100) / 10;
    return `${seconds} second${seconds === 1 ? "" : "s"}`;
  }
  const minutes = Math.round(ms / 60_000);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/**
 * What "allow for this chat" covers for a call: its tool (`tool:edit`), or for `bash` the exact command
 * (command-grants.ts); undefined when nothing broader than this call can
 * be allowed; nor for a command holding a character that does not show as itself (a newline, U+202E: the question
 * may read as another command).
 */
export function grantFor(toolName: string, args: unknown): string | undefined {
  if (toolName !== "bash") return `tool:${toolName}`;
  const given: unknown = (args as { command?: unknown })?.command;
  const command = typeof given === "string" ? given : "";
  // Judged before trim(), which would drop a U+FEFF, U+2028 or no-break space at either end; a final newline is harmless.
  if (hasHiddenCharacters(command.replace(/^[ \t\n]+|[ \t\n]+$/g, ""))) return undefined;
  return commandGrant(command.trim());
}

/** What an older version would have granted this command with (`bash:ls`), matched only against the chat's grants. */
function legacyGrantFor(args: unknown): string | undefined {
  const given: unknown = (args as { command?: unknown })?.command;
  if (typeof given !== "string" || hasHiddenCharacters(given.replace(/^[ \t\n]+|[ \t\n]+$/g, ""))) return undefined;
  return legacyCommandGrant(given);
}

/** `net:<host>` for a connection's host, when it can be granted by name (else it can only be allowed once). */
function networkGrant(args: unknown): string | undefined {
  const host: unknown = (args as { host?: unknown })?.host;
  if (typeof host !== "string") return undefined;
  const lower = host.toLowerCase();
  return isGrantableHost(lower) ? `net:${lower}` : undefined;
}

/** The grant as the user reads it on the button: "edit", or the exact command. */
function describeGrant(grant: string): string {
  return describeCommandGrant(grant) ?? grant.slice(5);
}
