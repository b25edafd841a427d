/** The marker where the user took files back: the note the model gets names the files (at most 50, the rest counted). */
import { describe, expect, it } from "vitest";
import { filesRestoredForModel } from "../../../../src/shared/agent/files-restored";
import { estimateTokens } from "../../../../src/shared/agent/context-tokens";

describe("filesRestoredForModel", () => {
  it("names what the user did and the files, and asks the model to read them again", () => {
    const note = filesRestoredForModel({ role: "filesRestored", action: "rewind", paths: ["a.ts", "b/c.ts"], timestamp: 1 });
    expect(note).toBe(
      "[Paddock: the user rewound the workspace's files; these files in the workspace are not as you last saw them: a.ts, b/c.ts. Read a file again before relying on its content.]",
    );
  });

  it("counts the files past the fiftieth, and the context meter counts the note", () => {
    const paths = Array.from({ length: 53 }, (_, i) => `f${i}`);
    const message = { role: "filesRestored" as const, action: "revert" as const, paths, timestamp: 1 };
    expect(filesRestoredForModel(message)).toContain("f49 and 3 more.");
    expect(estimateTokens(message)).toBe(Math.ceil(filesRestoredForModel(message).length / 4));
  });
});
