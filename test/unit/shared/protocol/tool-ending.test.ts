import { describe, expect, it } from "vitest";
import { toolEnding, withToolEnding } from "../../../../src/shared/protocol/tool-ending";

describe("a tool result's ending", () => {
  it("reads only the endings it knows, from an object", () => {
    expect(toolEnding({ ending: "stopped" })).toBe("stopped");
    expect(toolEnding({ ending: "denied", exitCode: 1 })).toBe("denied");
    expect(toolEnding({ ending: "timeout" })).toBe("timeout");
    for (const odd of [undefined, null, "stopped", { ending: "exploded" }, { ending: 1 }, {}]) expect(toolEnding(odd)).toBeUndefined();
  });

  it("sets one, keeping the other details and an ending the tool already set", () => {
    expect(withToolEnding({ exitCode: 130 }, "stopped")).toEqual({ exitCode: 130, ending: "stopped" });
    expect(withToolEnding({ ending: "timeout" }, "stopped")).toEqual({ ending: "timeout" });
    expect(withToolEnding(undefined, "stopped")).toEqual({ ending: "stopped" });
    expect(withToolEnding(["x"], "stopped")).toEqual({ ending: "stopped" });
  });
});
