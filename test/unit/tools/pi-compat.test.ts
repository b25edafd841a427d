import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import recorded from "./pi-compat/pi-0.73.1.json";
import { scenarios } from "./pi-compat/scenarios";
import { createWorkspace, textOf, type WorkspaceFixture } from "./workspace-fixture";

/**
 * Prompts and agent definitions written for pi must work unchanged: the tools' names, descriptions and parameter
 * schemas, and their answers (texts, markers, errors, diffs, files written), are compared with what pi coding-agent
 * 0.73.1's own tools answered to the same scenarios (recorded by pi-compat/record.ts).
 */
let ws: WorkspaceFixture | undefined;
afterEach(() => ws?.remove());

/** Where we answer differently on purpose, and why. */
const DEVIATIONS: Record<string, { why: string; expected: Record<string, unknown> }> = {
  "edit: normalised quotes": {
    why: "pi diffs its normalised copy of the file; the diff here shows the file as it really was",
    expected: { diff: "-1 say(\u2018hi\u2019)\n+1 say('bye')\n 2 end" },
  },
};

/** Descriptions that say more than pi's, on purpose: what our tool does differently, for the model to know. */
const DESCRIPTION_DEVIATIONS: Record<string, { why: string; change: (pi: string) => string }> = {
  grep: {
    why: "pi's rg searches .git/ (it runs with --hidden); ours skips it (object files and packed refs are noise), and says so",
    change: (pi) => pi.replace("Respects .gitignore.", "Respects .gitignore, and skips .git folders."),
  },
};

/** Saved-output paths differ by design (pi: the system temp folder; here: the session folder). */
const samePaths = (text: string) => text.replace(/Full output: [^\]]+\]/g, "Full output: <file>]");

describe("pi compatibility", () => {
  it("has pi's tools: names, labels, descriptions and parameter schemas", () => {
    ws = createWorkspace();
    for (const definition of recorded.definitions) {
      const ours = ws.tool(definition.name);
      const deviation = DESCRIPTION_DEVIATIONS[definition.name];
      const expected = deviation ? { ...definition, description: deviation.change(definition.description) } : definition;
      expect({ name: ours.name, label: ours.label, description: ours.description, parameters: JSON.parse(JSON.stringify(ours.parameters)) }).toEqual(
        expected,
      );
    }
  });

  for (const scenario of scenarios) {
    const expected = recorded.results.find((r) => r.name === scenario.name) as
      | { name: string; text?: string; error?: string; diff?: string; firstChangedLine?: number; after?: string }
      | undefined;
    it(`answers as pi does: ${scenario.name}`, async () => {
      expect(expected, "scenario recorded").toBeDefined();
      ws = createWorkspace();
      for (const [path, content] of Object.entries(scenario.files)) {
        mkdirSync(dirname(join(ws.root, path)), { recursive: true });
        writeFileSync(join(ws.root, path), content);
      }
      const actual: Record<string, unknown> = { name: scenario.name };
      try {
        const result = await ws.result(scenario.tool, structuredClone(scenario.params));
        actual.text = samePaths(textOf(result));
        if (result.details?.diff !== undefined) actual.diff = result.details.diff;
        if (result.details?.firstChangedLine !== undefined) actual.firstChangedLine = result.details.firstChangedLine;
      } catch (error) {
        actual.error = samePaths((error as Error).message);
      }
      if (scenario.after) actual.after = readFileSync(join(ws.root, scenario.after), "utf8");
      const want = { ...expected!, ...DEVIATIONS[scenario.name]?.expected };
      if (want.text !== undefined) want.text = samePaths(want.text);
      if (want.error !== undefined) want.error = samePaths(want.error);
      expect(actual).toEqual(want);
    });
  }
});
