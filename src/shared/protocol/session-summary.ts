/**
 * A chat as the sidebar knows it, declared once: the schema main checks its session index file against, and the
 * types pages and main use (`SessionSummary` is what pages get; `SessionRecord` what the index file keeps).
 */
import { Type, type Static } from "typebox";
import { SESSION_ID_PATTERN } from "./ids";
import { WorktreeRecordSchema } from "./worktrees";

/** Ids become file names (transcripts, session folders): one from a tampered file must not name a path elsewhere. */
const SessionIdSchema = Type.String({ pattern: SESSION_ID_PATTERN.source });

/** A subagent's session: the chat and tool call it worked for, and which agent it was. */
export const SessionParentSchema = Type.Object({
  sessionId: SessionIdSchema,
  toolCallId: Type.String(),
  agent: Type.String(),
});

/** What main keeps about every chat. Unknown fields are allowed (and dropped), so a newer Paddock's index still loads. */
const keptFields = {
  id: SessionIdSchema,
  title: Type.String(),
  /** ms since epoch */
  created: Type.Number(),
  updated: Type.Number(),
  /** Which model, by provider id and model id (custom endpoints use provider `custom:<id>`). */
  model: Type.Optional(Type.Object({ provider: Type.String(), id: Type.String() })),
  messageCount: Type.Integer({ minimum: 0 }),
  /** A run finished or failed while no window showed the chat; cleared when the chat is opened. */
  unread: Type.Optional(Type.Union([Type.Literal("done"), Type.Literal("failed")])),
  /** The folder the chat's file and shell tools work in (absolute, resolved); absent: the chat has none of those tools. */
  workspace: Type.Optional(Type.String({ minLength: 1 })),
  /** A subagent's session: never in the sidebar; opened from its parent's tool card. */
  parent: Type.Optional(SessionParentSchema),
  /**
   * A chat made with "New chat in a worktree": the git worktree main made for it (its `folder` is `workspace`), until
   * the user keeps its branch or discards it. A subagent task's worktree is in its launch instead.
   */
  worktree: Type.Optional(WorktreeRecordSchema),
};

/** A chat as pages see it. */
export const SessionSummarySchema = Type.Object({
  ...keptFields,
  /** What the agent is doing right now (absent: idle). */
  activity: Type.Optional(Type.Union([Type.Literal("running"), Type.Literal("waiting")])),
});

/** A chat as the session index keeps it. */
export const SessionRecordSchema = Type.Object({
  ...keptFields,
  /** When the chat was soft-deleted (ms since epoch); absent while it is live. */
  deleted: Type.Optional(Type.Number()),
  /**
   * A subagent's set-up as main launched it (main/broker/child-launch.ts declares and checks it), kept so the child
   * opens as that subagent after a restart. Unchecked here: a damaged launch must not cost the index its entry.
   */
  launch: Type.Optional(Type.Unknown()),
});

export type SessionSummary = Static<typeof SessionSummarySchema>;
export type SessionRecord = Static<typeof SessionRecordSchema>;
export type SessionParent = Static<typeof SessionParentSchema>;
