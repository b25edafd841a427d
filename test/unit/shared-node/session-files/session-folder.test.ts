/** Where a session's files live (session-folder.ts): the names users' data folders already hold, so they never change. */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { attachmentsDir, bashOutputDir, sessionDirIn, sessionTempDir, transcriptFileIn } from "../../../../src/shared-node/session-files/session-folder";

describe("a session's files", () => {
  it("are its transcript beside its folder, which holds attachments, saved command output and temporary files", () => {
    const sessions = join("/data", "sessions");
    const folder = sessionDirIn(sessions, "s-1");
    expect(transcriptFileIn(sessions, "s-1")).toBe(join("/data", "sessions", "s-1.jsonl"));
    expect(folder).toBe(join("/data", "sessions", "s-1"));
    expect([attachmentsDir(folder), bashOutputDir(folder), sessionTempDir(folder)]).toEqual([
      join(folder, "attachments"),
      join(folder, "bash-output"),
      join(folder, "tmp"),
    ]);
  });
});
