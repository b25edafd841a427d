/**
 * A subagent's launch: how main set up the child's worker (its agent's instructions and tools, its folder, model and
 * thinking level). Main decides it once, when the parent's `subagent` tool asks, and keeps it in the session index
 * next to the child's `parent` link (core.ts), so that the index alone says whether a session is a child and how its
 * worker starts, in this run of the app or any later one.
 *
 * Why the index and not the child's session folder: the launch bounds what the child may do (its tools), so it is
 * kept where only main writes, never in files the child's own worker writes. A launch that is missing (a child from
 * before launches were kept) or damaged opens the child with no tools and no instructions, and says so: never with a
 * wider tool set than its launch allowed.
 */
import { Type, type Static } from "typebox";
import { Value } from "typebox/value";
import type { ThinkingLevel } from "../../shared/agent/types";
import { ThinkingLevelSchema } from "../../shared/settings/schema";
import type { ModelRef } from "../../shared/protocol/app-api";
import type { FolderIdentity, SubagentSetup } from "../../shared/protocol/control-protocol";
import type { SessionRecord } from "../../shared/protocol/session-summary";
import { WorktreeRecordSchema } from "../../shared/protocol/worktrees";
import { PERMISSION_PROFILES, type PermissionProfile } from "../../shared/protocol/permission-profiles";
import type { Worktree } from "../../shared-node/git-worktrees/worktree-lifecycle";

export interface ChildLaunch {
  setup: SubagentSetup;
  /** The parent's `subagent` tool call that runs it. */
  toolCallId: string;
  /** The real path main checked; `workspaceIdentity` is what it was then (see WorkerInitOptions). */
  workspace?: string;
  workspaceIdentity?: FolderIdentity;
  model?: ModelRef;
  /** Set when it runs on the parent's model: the parent's thinking level goes with it (pi's dispatch defaults). */
  thinkingLevel?: ThinkingLevel;
  /**
   * `isolation: worktree`: the git worktree main made for the task (its `folder` is `workspace`). Kept so that its
   * changes can be listed, applied, kept or discarded after the task, in this run of the app or a later one.
   */
  worktree?: Worktree;
}

/**
 * What the index keeps of a launch (its `launch` field). The parent, its tool call and the agent's name are the
 * record's `parent` link, not repeated here.
 */
export const StoredLaunchSchema = Type.Object({
  version: Type.Literal(1),
  instructions: Type.String(),
  tools: Type.Array(Type.String()),
  workspace: Type.Optional(Type.String({ minLength: 1 })),
  workspaceIdentity: Type.Optional(Type.Object({ dev: Type.String(), ino: Type.String() })),
  model: Type.Optional(Type.Object({ provider: Type.String(), id: Type.String() })),
  thinkingLevel: Type.Optional(ThinkingLevelSchema),
  worktree: Type.Optional(WorktreeRecordSchema),
  /** Absent in launches kept before profiles: Ask. */
  profile: Type.Optional(Type.Enum([...PERMISSION_PROFILES])),
});
export type StoredLaunch = Static<typeof StoredLaunchSchema>;

/** A child's launch as the index has it; `problem` says, in words, why it is the no-tools fallback. */
export interface RecordedLaunch {
  launch: ChildLaunch;
  problem?: string;
}

/** The launch as the index keeps it. */
export function storedLaunch(launch: ChildLaunch): StoredLaunch {
  return {
    version: 1,
    instructions: launch.setup.instructions,
    tools: [...launch.setup.tools],
    ...(launch.setup.profile ? { profile: launch.setup.profile } : {}),
    ...(launch.workspace ? { workspace: launch.workspace } : {}),
    ...(launch.workspaceIdentity ? { workspaceIdentity: { ...launch.workspaceIdentity } } : {}),
    ...(launch.model ? { model: { ...launch.model } } : {}),
    ...(launch.thinkingLevel ? { thinkingLevel: launch.thinkingLevel } : {}),
    ...(launch.worktree ? { worktree: { ...launch.worktree } } : {}),
  };
}

/**
 * The launch of the session `record` is, if it is a subagent's (it has a `parent`); undefined for a chat. A launch
 * that is missing or does not match StoredLaunchSchema gives the fallback: the same agent and parent, no tools, no
 * instructions, no workspace, with a `problem` to tell the user.
 */
export function recordedLaunch(record: SessionRecord | undefined): RecordedLaunch | undefined {
  const parent = record?.parent;
  if (!record || !parent) return undefined;
  const setup = (instructions: string, tools: string[], profile?: PermissionProfile): SubagentSetup => ({
    parentSessionId: parent.sessionId,
    agent: parent.agent,
    instructions,
    tools,
    ...(profile ? { profile } : {}),
  });
  const stored = record.launch;
  if (Value.Check(StoredLaunchSchema, stored)) {
    return {
      launch: {
        setup: setup(stored.instructions, [...stored.tools], stored.profile),
        toolCallId: parent.toolCallId,
        ...(stored.workspace ? { workspace: stored.workspace } : {}),
        ...(stored.workspaceIdentity ? { workspaceIdentity: { ...stored.workspaceIdentity } } : {}),
        ...(stored.model ? { model: { ...stored.model } } : {}),
        ...(stored.thinkingLevel ? { thinkingLevel: stored.thinkingLevel } : {}),
        ...(stored.worktree ? { worktree: { ...stored.worktree } } : {}),
      },
    };
  }
  const why = stored === undefined ? "was not saved with it (it ran in an older Paddock)" : "is damaged";
  return {
    launch: { setup: setup("", []), toolCallId: parent.toolCallId, ...(record.model ? { model: { ...record.model } } : {}) },
    problem: `This ${parent.agent} subagent's set-up ${why}, so it opens without its instructions and without any tools.`,
  };
}
