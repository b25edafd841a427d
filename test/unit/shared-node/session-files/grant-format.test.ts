/** The grant format the transcript journals "allow for this chat" in (grant-format.ts). */
import { describe, expect, it } from "vitest";
import { isGrant } from "../../../../src/shared-node/session-files/grant-format";
import { grantFor } from "../../../../src/agent-worker/host/approvals/approval-gate";

describe("the grant format", () => {
  it("transcripts' grants load, those of older versions too (which now match nothing broader than before)", () => {
    for (const grant of ["tool:edit", "bash:ls", "bash:npm test", "bash:sed", "bash=sed -n 1p notes.txt"]) expect(isGrant(grant)).toBe(true);
    for (const grant of ["bash=", "bash= x", "bash=a\nb", "tool:", "shell:ls", 42, `bash=${"x".repeat(1001)}`]) expect(isGrant(grant)).toBe(false);
  });

  it("holds every grant the approval gate makes", () => {
    for (const [tool, args] of [["edit", { path: "a" }], ["bash", { command: "ls -la src" }], ["bash", { command: "cargo build --release" }], ["bash", { command: "x".repeat(1000) }]] as const) {
      expect(isGrant(grantFor(tool, args)), tool).toBe(true);
    }
  });
});
