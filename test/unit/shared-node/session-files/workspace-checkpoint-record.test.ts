/** The `workspace-checkpoint` record: replayed in order as the chat's timeline (kept through a reset), a damaged one skipped and reported. */
import { appendFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { loadTranscript } from "../../../../src/shared-node/session-files/transcript-store";
import { useTempTranscript } from "../../../../testkit/temp-transcript";
import { parseWorkspaceCheckpointRecord } from "../../../../src/shared-node/session-files/workspace-checkpoint-record";

const temp = useTempTranscript("paddock-ws-checkpoint-", "s1.jsonl");
const run = { t: "workspace-checkpoint" as const, id: "000000000001-000001-aaaaaaaa", workspace: "/w", at: 0, cause: "run" as const };
const tool = {
  t: "workspace-checkpoint" as const,
  id: "000000000002-000002-bbbbbbbb",
  workspace: "/w",
  at: 1,
  cause: "tool" as const,
  by: { kind: "tool" as const, id: "c1", name: "bash", label: "rm -rf old" },
};
const revert = {
  t: "workspace-checkpoint" as const,
  id: "000000000003-000003-cccccccc",
  workspace: "/w",
  at: 3,
  cause: "revert" as const,
  by: { kind: "revert" as const, id: "a1", name: "rewind" },
  action: { id: "a1", before: tool.id, paths: ["old/x.txt"] },
};

describe("workspace-checkpoint records", () => {
  it("replay in order as the chat's timeline, through a reset; a transcript without any has none", async () => {
    await temp.write({ t: "message", message: { role: "user", content: "hi", timestamp: 1 } }, run, tool, { t: "reset" }, revert);
    const loaded = await loadTranscript(temp.file);
    expect(loaded.problems).toEqual([]);
    expect(loaded.workspaceCheckpoints).toEqual([run, tool, revert].map(({ t: _t, ...c }) => c));
  });

  it("a damaged one is skipped and reported, the rest kept", async () => {
    await temp.write(run);
    await appendFile(temp.file, `${JSON.stringify({ ...tool, by: { kind: "someone", id: 1 } })}\n${JSON.stringify({ ...revert, at: -1 })}\n`);
    const loaded = await loadTranscript(temp.file);
    expect(loaded.workspaceCheckpoints).toHaveLength(1);
    expect(loaded.problems.map((p) => p.detail)).toEqual([
      "workspace-checkpoint record with an invalid author",
      "workspace-checkpoint record without a valid message count",
    ]);
  });

  it("keeps only its known fields", () => {
    expect(parseWorkspaceCheckpointRecord({ ...revert, extra: 1, by: { ...revert.by, more: 2 } })).toEqual(revert);
    expect(parseWorkspaceCheckpointRecord({ ...run, cause: "why" })).toBe("workspace-checkpoint record with an unknown cause");
    expect(parseWorkspaceCheckpointRecord({ ...revert, action: { id: "a", before: "b", paths: [1] } })).toBe("workspace-checkpoint record with an invalid action");
  });
});
