import { describe, expect, it } from "vitest";
import { groupNotices, noticeCount, noticeLevel } from "../../../../../src/renderer/components/common/notice-groups";

const notice = (id: number, text: string, level = "warning") => ({ id, text, level });
const same = (n: { text: string; level: string }) => `${n.level}\u0000${n.text}`;

describe("identical notices merge", () => {
  it("into one with a count, where the first of them was; others keep their place", () => {
    const summary = "Could not summarise earlier messages";
    const groups = groupNotices([notice(1, summary), notice(2, "Worker restarted"), notice(3, summary), notice(4, summary)], same);
    expect(groups.map((g) => [g.first.id, g.count, g.all.map((n) => n.id)])).toEqual([[1, 3, [1, 3, 4]], [2, 1, [2]]]);
    expect(groups.map((g) => noticeCount(g.count))).toEqual(["×3", ""]);
  });

  it("only when they say the same thing at the same level", () => {
    const groups = groupNotices([notice(1, "Saved", "info"), notice(2, "Saved", "error"), notice(3, "saved", "info")], same);
    expect(groups.map((g) => g.count)).toEqual([1, 1, 1]);
    expect(groupNotices([], same)).toEqual([]);
  });
});

describe("noticeLevel", () => {
  it("only a failure shows as an error; a warning and a restarted worker show as warnings", () => {
    expect(noticeLevel("error")).toBe("error");
    expect(noticeLevel("warning")).toBe("warning");
    expect(noticeLevel("worker-restarted")).toBe("warning");
  });
});
