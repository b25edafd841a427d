/**
 * The worker-harness rig of an integration test file whose tests each start their own harness (testkit/worker-harness.ts),
 * apart from it because it registers a vitest hook (the benchmarks import the harness outside vitest).
 */
import { afterEach } from "vitest";
import { startHarness, type Harness } from "./worker-harness";
import { TempFolders } from "./temp-folders";

/**
 * The rig of a test file whose tests each start their own harness (call it at the file's top level): `start` is
 * startHarness, and every harness a test started is closed after it, then the temp folders made with `folders` are
 * removed (`folders`: a prefix for their names, or a TempFolders of the file's own).
 */
export function harnessPerTest(folders: TempFolders | string = new TempFolders()): { start: typeof startHarness; folders: TempFolders } {
  const temp = typeof folders === "string" ? new TempFolders(folders) : folders;
  const started: Harness[] = [];
  afterEach(async () => {
    try {
      for (const harness of started.splice(0).reverse()) await harness.close();
    } finally {
      temp.removeAll();
    }
  });
  return {
    start: async (options) => {
      const harness = await startHarness(options);
      started.push(harness);
      return harness;
    },
    folders: temp,
  };
}
