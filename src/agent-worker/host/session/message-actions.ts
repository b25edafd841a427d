/**
 * Edit and resend, Regenerate, switching between versions, and Delete, as the session's worker runs them. Each one
 * changes the Agent's state by one small event (Agent.changePath) and journals one small record (branch-records.ts);
 * a run it starts then goes on like any other. All refuse while a run is active: the transcript's end is the run's.
 *
 * Delete removes the message and what follows it up to the next user message (the replies and tool results that
 * answered or depend on it), so what the model is sent stays well-formed. Messages before the newest compaction
 * marker cannot be deleted: its summary already speaks for them. Edit and Regenerate before a marker are fine: the
 * marker goes with the tail it sits in, so no summary of messages that changed stays in force.
 */
import type { Agent } from "../../agent/agent";
import type { AgentMessage } from "../../../shared/agent/types";
import { branchAt, deletionRange, lastReplyStart } from "../../../shared/agent/branches";
import { attachmentsOf, type AttachmentRef } from "../../../shared/protocol/attachments";
import type { BranchRecord } from "../../../shared-node/session-files/branch-records";
import type { RunContract } from "../../../shared/protocol/run-contract";

export interface MessageActionsHost {
  readonly agent: Agent;
  /** Throws the "pick a model" error when the chat has none. */
  requireModel(): void;
  /** The user message a prompt would send: checks attachments (and images against the model); rejects otherwise. */
  userMessage(text: string, attachments: readonly AttachmentRef[]): Promise<AgentMessage>;
  journal(record: BranchRecord): Promise<void>;
  /** Starts a run with `message` under `contract`; resolves once the message is accepted (journaled), the run going on. */
  prompt(message: AgentMessage, contract?: RunContract): Promise<void>;
  /**
   * The run contract the message at `index` was answered under (a message sent in Plan): its new version, or a new
   * version of its reply, goes under it again. Absent: none.
   */
  termsAt?(index: number): RunContract;
  /** A run is about to start on the Agent directly (Regenerate) under `contract`; `undo` if it never started. */
  runStarting?(contract: RunContract): { undo(): void };
  /** The path changed outside a run: tell main (message count, outcome). */
  changed(): void;
}

export class MessageActions {
  constructor(private readonly host: MessageActionsHost) {}

  private get messages(): readonly AgentMessage[] {
    return this.host.agent.state.messages;
  }

  /**
   * The user message at `index` gets `text` (its attachments kept) as a new version: the messages from it on are
   * kept as the earlier version, and the model answers the new one. Resolves once the new version is accepted
   * (journaled), while the model answers.
   */
  async editMessage(index: number, text: string): Promise<void> {
    this.idle("edit a message");
    this.host.requireModel();
    const old = this.messages[index];
    if (old?.role !== "user") throw new Error(`Message ${index} is not a message of yours: only those can be edited.`);
    const attachments = attachmentsOf(old);
    if (text.trim() === "" && attachments.length === 0) throw new Error("The edited message is empty: write something, or delete the message instead.");
    // Built (and checked) before anything changes, so a refusal leaves the chat as it was.
    const message = await this.host.userMessage(text, attachments);
    this.idle("edit a message");
    await this.branchAndRun(index, () => this.host.prompt(message, this.host.termsAt?.(index)));
  }

  /** The last reply gets a new version: the model answers the last user message again. Resolves when settled. */
  async regenerate(): Promise<void> {
    this.idle("regenerate");
    this.host.requireModel();
    const at = lastReplyStart(this.messages);
    if (at === undefined) throw new Error("There is no reply to regenerate.");
    const starting = this.host.runStarting?.(this.host.termsAt?.(at) ?? {});
    await this.branchAndRun(at, () => this.host.agent.continue()).catch((error: unknown) => {
      starting?.undo();
      throw error;
    });
  }

  /** Shows version `version` (0-based) of the messages at `at`. Does nothing when it is shown already. */
  async switchBranch(at: number, version: number): Promise<void> {
    this.idle("switch versions");
    const info = branchAt(this.host.agent.data.branches, at);
    if (!info) throw new Error(`Message ${at} has no other versions.`);
    if (version >= info.count) throw new Error(`Message ${at} has ${info.count} versions; there is no version ${version + 1}.`);
    if (version === info.active) return;
    this.host.agent.changePath({ type: "switch_branch", at, version });
    this.host.changed();
    await this.host.journal({ t: "switch", at, version });
  }

  /** Deletes the message at `index` and what answered it (see the file's comment). */
  async deleteMessage(index: number): Promise<void> {
    this.idle("delete a message");
    const messages = this.messages;
    const message = messages[index];
    if (!message) throw new Error(`There is no message ${index} to delete.`);
    if (message.role === "compaction") throw new Error("A compaction summary cannot be deleted: the model needs it in place of the messages it summarises.");
    const marker = messages.findLastIndex((m) => m.role === "compaction");
    if (index < marker) throw new Error("This message is summarised by a compaction further down; it can no longer be deleted.");
    const { start, count } = deletionRange(messages, index);
    this.host.agent.changePath({ type: "delete_messages", start, count });
    this.host.changed();
    await this.host.journal({ t: "delete", start, count });
  }

  /**
   * Branches and starts the run with no await in between, so nothing can start first; the branch record is
   * appended before the run's first message record (appends keep call order).
   */
  private async branchAndRun(at: number, run: () => Promise<void>): Promise<void> {
    this.host.agent.changePath({ type: "branch", at });
    const journaled = this.host.journal({ t: "branch", at });
    const started = run();
    await journaled;
    await started;
  }

  private idle(action: string): void {
    if (this.host.agent.state.isStreaming) throw new Error(`The agent is working: wait for it to finish (or stop it), then ${action}.`);
  }
}
