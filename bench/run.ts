/**
 * `npm run bench` (after `npm run build`): runs every benchmark in turn, prints a table and writes
 * bench/results/latest.json ({ ipc, worker, broker, renderer, reliability, background, tools, subagents, checkpoints, soak, machine, timestamp }). Loopback only; every loop is
 * bounded and every wait has a timeout. Not part of `npm test`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { arch, cpus, loadavg, platform, release, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { benchAttachments } from "./attachments";
import { benchBackground } from "./background";
import { benchBroker } from "./broker";
import { benchBudgets } from "./budgets";
import { benchChangesPanel } from "./changes-panel";
import { benchCheckpoints } from "./checkpoints";
import { benchCompaction } from "./compaction";
import { benchDrafts } from "./drafts";
import { benchEndpoints } from "./endpoints";
import { benchIpc } from "./ipc";
import { benchKeyboard } from "./keyboard";
import { benchMcp } from "./mcp";
import type { Metric } from "./lib/metrics";
import { benchReading } from "./reading";
import { benchReliability } from "./reliability";
import { benchChat, benchSearch } from "./search";
import { benchSchedules } from "./schedules";
import { benchSoak } from "./soak";
import { benchRenderer } from "./renderer";
import { benchSubagents } from "./subagents";
import { benchTools } from "./tools";
import { benchWorker } from "./worker";

const groups: [string, () => Promise<Record<string, Metric>>][] = [
  ["ipc", benchIpc],
  ["worker", benchWorker],
  ["broker", benchBroker],
  ["renderer", benchRenderer],
  ["reliability", benchReliability],
  ["background", benchBackground],
  ["tools", benchTools],
  ["subagents", benchSubagents],
  ["attachments", benchAttachments],
  ["compaction", benchCompaction],
  ["search", benchSearch],
  ["chat", benchChat],
  ["keyboard", benchKeyboard],
  ["endpoints", benchEndpoints],
  ["mcp", benchMcp],
  ["reading", benchReading],
  ["drafts", benchDrafts],
  ["soak", benchSoak],
  ["budgets", benchBudgets],
  ["schedules", benchSchedules],
  ["checkpoints", async () => ({ ...(await benchCheckpoints()), ...(await benchChangesPanel()) })],
];

// `node --import tsx bench/run.ts ipc worker` runs only those groups; the others keep their last results.
const only = process.argv.slice(2);
const unknown = only.filter((name) => !groups.some(([g]) => g === name));
if (unknown.length > 0) throw new Error(`Unknown bench group(s): ${unknown.join(", ")}`);
const selected = only.length > 0 ? groups.filter(([g]) => only.includes(g)) : groups;

const startedAt = new Date();
const loadBefore = loadavg();
const latestFile = resolve("bench/results/latest.json");
const previous = only.length > 0 && existsSync(latestFile) ? (JSON.parse(readFileSync(latestFile, "utf8")) as Record<string, unknown>) : {};
const results: Record<string, Record<string, Metric>> = {};
for (const [name] of groups) if (!selected.some(([g]) => g === name) && previous[name]) results[name] = previous[name] as Record<string, Metric>;
for (const [name, run] of selected) {
  const t0 = performance.now();
  process.stdout.write(`bench: ${name}... `);
  results[name] = await run();
  process.stdout.write(`${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
}

const report = {
  ...results,
  machine: {
    cpu: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    memoryGb: Math.round(totalmem() / 1e8) / 10,
    platform: `${platform()} ${release()} ${arch()}`,
    node: process.version,
    loadAverageBefore: loadBefore.map((l) => Math.round(l * 100) / 100),
    loadAverageAfter: loadavg().map((l) => Math.round(l * 100) / 100),
  },
  timestamp: startedAt.toISOString(),
  durationSec: Math.round((Date.now() - startedAt.getTime()) / 100) / 10,
};

const rows = Object.entries(results).flatMap(([group, metrics]) =>
  Object.entries(metrics).map(([key, m]) => [`${group}.${key}`, `${m.value} ${m.unit}`, `${m.compare} ${m.target}`, m.pass ? "pass" : "MISS"]),
);
const header = ["metric", "value", "target", ""];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ");
console.log(`\n${line(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}\n${rows.map(line).join("\n")}`);

const dir = resolve("bench/results");
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, "latest.json"), `${JSON.stringify(report, null, 2)}\n`);
console.log(`\nwrote ${join(dir, "latest.json")}`);
