import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import recorded from "./pi-compat/pi-1.6.0.json";
import { scenarios } from "./pi-compat/scenarios";
import { WORKSPACE_TOOL_PROMPTS } from "../../../../../src/agent-worker/tools/workspace";
import { isToolErrorResult } from "../../../../../src/shared/agent/tool-failure";
import { createWorkspace, textOf, type WorkspaceFixture } from "./workspace-fixture";

/**
 * Prompts and agent definitions written for pi must work unchanged: the tools' names, descriptions and parameter
 * schemas, the lines they add to the system prompt, and their answers (texts, markers, errors, diffs, files written,
 * whether a result is an error), are compared with what pi coding-agent 1.6.0's own tools answered to the same
 * scenarios (recorded by pi-compat/record.ts).
 */
let ws: WorkspaceFixture | undefined;
afterEach(() => ws?.remove());

/** Where we answer differently on purpose, and why. */
const WRITE_COUNTS = "pi 1.6.0 no longer says how much it wrote (0.73.1 counted UTF-16 units as bytes); ours says the real UTF-8 bytes, which tells the model the file holds what it meant";
const DEVIATIONS: Record<string, { why: string; expected: Record<string, unknown> }> = {
  "write: creates folders": { why: WRITE_COUNTS, expected: { text: "Successfully wrote 6 bytes to a/b/c.txt" } },
  "write: overwrites, multi-byte": { why: WRITE_COUNTS, expected: { text: "Successfully wrote 11 bytes to w.txt" } },
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
  it("has pi's tools: names, labels, descriptions, parameter schemas and prompt lines", () => {
    ws = createWorkspace();
    const tools = ws.tool;
    const ours = recorded.definitions.map(({ name }) => {
      const tool = tools(name);
      const prompt = WORKSPACE_TOOL_PROMPTS[name];
      return {
        name: tool.name,
        label: tool.label,
        description: tool.description,
        parameters: JSON.parse(JSON.stringify(tool.parameters)),
        promptSnippet: prompt?.snippet,
        promptGuidelines: prompt?.guidelines,
      };
    });
    const expected = recorded.definitions.map((definition) => {
      const deviation = DESCRIPTION_DEVIATIONS[definition.name];
      return deviation ? { ...definition, description: deviation.change(definition.description) } : definition;
    });
    expect(ours).toEqual(expected);
  });

  for (const scenario of scenarios) {
    const expected = recorded.results.find((r) => r.name === scenario.name) as
      | { name: string; text?: string; isError?: boolean; error?: string; diff?: string; firstChangedLine?: number; after?: string }
      | undefined;
    it(`answers as pi does: ${scenario.name}`, async () => {
      expect(expected, "scenario recorded").toBeDefined();
      ws = createWorkspace(undefined, { shellCommandPrefix: scenario.commandPrefix });
      for (const [path, content] of Object.entries(scenario.files)) {
        mkdirSync(dirname(join(ws.root, path)), { recursive: true });
        writeFileSync(join(ws.root, path), content);
      }
      const actual: Record<string, unknown> = { name: scenario.name };
      try {
        const result = await ws.result(scenario.tool, structuredClone(scenario.params));
        actual.text = samePaths(textOf(result));
        if (isToolErrorResult(result)) actual.isError = true;
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
