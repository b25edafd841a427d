/**
 * testkit/harness-per-test.ts: what a test started is gone after it (its harnesses closed, the loopback server no
 * longer answering, the broker's data folder and the temp folders removed), and the next test starts afresh.
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { harnessPerTest } from "../../../testkit/harness-per-test";

const harnesses = harnessPerTest("paddock-harness-per-test-");
const left: { urls: string[]; dirs: string[] } = { urls: [], dirs: [] };

describe("harnessPerTest", () => {
  it("starts harnesses for a test (two here) and makes its folders", async () => {
    for (let i = 0; i < 2; i++) {
      const h = await harnesses.start();
      left.urls.push(h.server.baseUrl);
      left.dirs.push(h.dataDir);
      expect((await fetch(`${h.server.baseUrl}/models`)).ok).toBe(true);
    }
    left.dirs.push(harnesses.folders.make({ "a.txt": "a" }));
    expect(left.dirs.every((dir) => existsSync(dir))).toBe(true);
  });

  it("has closed and removed all of them after that test", async () => {
    expect(left.urls).toHaveLength(2);
    for (const url of left.urls) await expect(fetch(`${url}/models`)).rejects.toThrow();
    expect(left.dirs.filter((dir) => existsSync(dir))).toEqual([]);
  });
});
