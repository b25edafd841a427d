import { describe, expect, it } from "vitest";
import { pathScore, rankPaths } from "../../../../src/shared/mentions/path-ranking";
import type { WorkspaceEntry } from "../../../../src/shared/protocol/workspace-files";

const file = (path: string): WorkspaceEntry => ({ path, kind: "file" });
const folder = (path: string): WorkspaceEntry => ({ path, kind: "folder" });
const TREE: WorkspaceEntry[] = [
  folder("src"), folder("src/components"), folder("src/components/composer"), folder("test"), folder("docs"),
  file("README.md"), file("package.json"), file("src/csv.ts"), file("src/components/composer/Composer.tsx"),
  file("src/components/composer/slash-menu.ts"), file("src/components/cs-view/index.ts"), file("test/csv.test.ts"),
  file("docs/architecture.md"), file("src/parse-csv-lines.ts"),
];
const ranked = (query: string, limit = 50) => rankPaths(TREE, query, limit).map((e) => e.path);

describe("rankPaths", () => {
  it("puts the file named exactly as typed first, then names starting with it, then names holding it, then paths", () => {
    expect(ranked("csv.ts")[0]).toBe("src/csv.ts");
    const csv = ranked("csv");
    expect(csv.slice(0, 2)).toEqual(["src/csv.ts", "test/csv.test.ts"]); // names starting with "csv", shorter first
    expect(csv[2]).toBe("src/parse-csv-lines.ts"); // "csv" inside the name
    expect(csv.indexOf("src/components/cs-view/index.ts")).toBeGreaterThan(2); // scattered only
  });

  it("matches scattered characters in order, case aside, word starts first; leaves out paths without them", () => {
    expect(ranked("rdme")).toEqual(["README.md"]);
    expect(ranked("COMPOSER")[0]).toBe("src/components/composer");
    expect(ranked("s/c/comp")).toContain("src/components/composer/Composer.tsx");
    expect(ranked("zzz")).toEqual([]);
    expect(ranked("smn")[0]).toBe("src/components/composer/slash-menu.ts"); // s(lash)-m(e)n(u)
  });

  it("a path typed with a folder narrows to it", () => {
    expect(ranked("test/csv")[0]).toBe("test/csv.test.ts");
    expect(ranked("./src/csv.ts")[0]).toBe("src/csv.ts");
  });

  it("with nothing typed lists the top of the tree, folders first; keeps to the limit", () => {
    expect(ranked("", 5)).toEqual(["docs", "src", "test", "README.md", "package.json"]);
    expect(ranked("s", 3)).toHaveLength(3);
    expect(rankPaths(TREE, "csv", 0)).toEqual([]);
  });

  it("scores a match in one piece above any scattered one", () => {
    expect(pathScore("a/very/long/path/to/xyz.ts", "xyz")!).toBeGreaterThan(pathScore("x/y/z.ts", "xyz")!);
    expect(pathScore("abc", "abd")).toBeUndefined();
  });

  it("ranks 45,000 paths in well under the time of a key press", () => {
    const many: WorkspaceEntry[] = [];
    for (let i = 0; i < 45_000; i++) many.push(file(`packages/pkg${i % 300}/src/module${i}/file${i}.ts`));
    const started = performance.now();
    const top = rankPaths(many, "pkg12mod4", 50);
    expect(performance.now() - started).toBeLessThan(500);
    expect(top).toHaveLength(50);
  });
});
