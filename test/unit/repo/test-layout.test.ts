/**
 * test/unit mirrors src (issue 23 §5): the test of `src/<folder>/<module>.ts` sits in `test/unit/<folder>/`, so the
 * test for a module is where one looks for it. Besides the mirror of src there are only the tests of the test kit
 * (`test/unit/testkit/`, mirroring `testkit/`), the repository's own checks (`test/unit/repo/`: lint walls, workflows,
 * packaging, this layout) and a test's data folder, named after the test beside it (`pi-compat/` next to
 * `pi-compat.test.ts`).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix } from "node:path";
import { describe, expect, it } from "vitest";

/** The repository's own checks, and the tests of the repository's other top-level folders they mirror. */
const OUTSIDE_SRC: Record<string, string> = { repo: "", testkit: "testkit" };

/** Every file below `dir`, as a path relative to it with forward slashes. */
function filesBelow(dir: string, prefix = ""): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? filesBelow(dir, path) : [path];
  });
}

const isFolder = (path: string) => existsSync(path) && statSync(path).isDirectory();

/** Whether test/unit's folder `folder` (relative, "" for test/unit itself) has a place in the layout of `root`. */
function fits(root: string, folder: string, testFiles: ReadonlySet<string>): boolean {
  if (folder === "") return false;
  const [top] = folder.split("/");
  if (top in OUTSIDE_SRC) return top === "repo" || (folder === top && isFolder(join(root, OUTSIDE_SRC[top])));
  if (isFolder(join(root, "src", folder))) return true;
  // A test's data folder: `x/` beside `x.test.ts`, in a folder that fits itself.
  return testFiles.has(`${folder}.test.ts`) && fits(root, posix.dirname(folder) === "." ? "" : posix.dirname(folder), testFiles);
}

/** The files below `root`'s test/unit that sit in a folder mirroring no folder of src (nor one named above). */
function misplaced(root: string): string[] {
  const files = filesBelow(join(root, "test/unit"));
  const testFiles = new Set(files.filter((file) => file.endsWith(".test.ts")));
  return files.filter((file) => !fits(root, posix.dirname(file) === "." ? "" : posix.dirname(file), testFiles));
}

describe("test/unit's layout", () => {
  it("mirrors src: every file sits in a folder of src, of the test kit, of the repository's checks, or a test's data", () => {
    expect(misplaced(process.cwd())).toEqual([]);
  });

  it("names a file in test/unit itself, in a folder src does not have, or in a data folder with no test beside it", () => {
    const root = mkdtempSync(join(tmpdir(), "paddock-test-layout-"));
    try {
      const put = (path: string) => {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), "");
      };
      for (const path of ["src/main/broker/core.ts", "testkit/temp-folders.ts"]) put(path);
      const fine = [
        "test/unit/main/broker/core.test.ts",
        "test/unit/main/broker/core/recorded.json",
        "test/unit/testkit/temp-folders.test.ts",
        "test/unit/repo/walls.test.ts",
        "test/unit/repo/packaging/icons.test.ts",
      ];
      const wrong = [
        "test/unit/core.test.ts",
        "test/unit/broker/core.test.ts",
        "test/unit/main/brokers/core.test.ts",
        "test/unit/main/broker/fixtures/recorded.json",
        "test/unit/testkit/more/helpers.test.ts",
      ];
      for (const path of [...fine, ...wrong]) put(path);
      expect(misplaced(root).sort()).toEqual(wrong.map((path) => path.slice("test/unit/".length)).sort());
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
