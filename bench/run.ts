/**
 * `npm run bench` (after `npm run build`): runs every benchmark in turn, prints a table and writes
 * bench/results/latest.json ({ ipc, worker, broker, renderer, machine, timestamp }). Loopback only; every loop is
 * bounded and every wait has a timeout. Not part of `npm test`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { arch, cpus, loadavg, platform, release, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { benchBroker } from "./broker";
import { benchIpc } from "./ipc";
import type { Metric } from "./lib/metrics";
import { benchRenderer } from "./renderer";
import { benchWorker } from "./worker";

const groups: [string, () => Promise<Record<string, Metric>>][] = [
  ["ipc", benchIpc],
  ["worker", benchWorker],
  ["broker", benchBroker],
  ["renderer", benchRenderer],
];

const startedAt = new Date();
const loadBefore = loadavg();
const results: Record<string, Record<string, Metric>> = {};
for (const [name, run] of groups) {
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
