/**
 * Records what pi coding-agent's own tools answer to each scenario, into pi-0.73.1.json. pi is not a dependency of
 * Paddock; install it in a folder of its own and pass that folder:
 *   mkdir /tmp/pi && cd /tmp/pi && npm init -y && npm install @mariozechner/pi-coding-agent@0.73.1
 *   node --import tsx test/unit/tools/pi-compat/record.ts /tmp/pi > test/unit/tools/pi-compat/pi-0.73.1.json
 * (pi's grep needs `rg` on PATH; find is left out: pi runs fd, which it downloads.)
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { scenarios } from "./scenarios";

const piFolder = process.argv[2];
const pi = await import(pathToFileURL(join(piFolder, "node_modules/@mariozechner/pi-coding-agent/dist/index.js")).href);
const factories: Record<string, (cwd: string) => any> = {
  read: pi.createReadToolDefinition,
  bash: pi.createBashToolDefinition,
  edit: pi.createEditToolDefinition,
  write: pi.createWriteToolDefinition,
  grep: pi.createGrepToolDefinition,
  find: pi.createFindToolDefinition,
  ls: pi.createLsToolDefinition,
};
const definitions = Object.values(factories).map((make) => {
  const tool = make(tmpdir());
  return { name: tool.name, label: tool.label, description: tool.description, parameters: JSON.parse(JSON.stringify(tool.parameters)) };
});
const results = [];
for (const scenario of scenarios) {
  const root = mkdtempSync(join(tmpdir(), "pi-record-"));
  for (const [path, content] of Object.entries(scenario.files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  const tool = factories[scenario.tool](root);
  const params = tool.prepareArguments ? tool.prepareArguments(structuredClone(scenario.params)) : scenario.params;
  const entry: Record<string, unknown> = { name: scenario.name };
  try {
    const result = await tool.execute("record", params, undefined, undefined, undefined);
    entry.text = result.content.map((c: { text?: string }) => c.text ?? "").join("\n");
    if (result.details?.diff !== undefined) entry.diff = result.details.diff;
    if (result.details?.firstChangedLine !== undefined) entry.firstChangedLine = result.details.firstChangedLine;
  } catch (error) {
    entry.error = (error as Error).message;
  }
  if (scenario.after) entry.after = readFileSync(join(root, scenario.after), "utf8");
  results.push(entry);
  rmSync(root, { recursive: true, force: true });
}
console.log(JSON.stringify({ recordedFrom: "@mariozechner/pi-coding-agent 0.73.1", definitions, results }, null, 2));
