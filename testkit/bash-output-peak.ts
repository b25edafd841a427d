/**
 * Runs the bash tool on a command that prints a lot, in this process alone, and prints one JSON line:
 * { baselineMb, peakGrowthMb, outputBytes, savedBytes, ms }. Sampled every 5 ms, so the peak is this process's own
 * resident memory while the output streamed through (the tool's tail, the file's buffer, the pipes).
 * Usage: node --import tsx testkit/bash-output-peak.ts <workspace> <sessionDir> <megabytes>
 */
import { statSync } from "node:fs";
import { unsandboxedShell, workspaceTools } from "../src/agent-worker/tools/workspace";

const [root, sessionDir, megabytes] = process.argv.slice(2);
const bytes = Math.round(Number(megabytes) * 1e6);
const bash = workspaceTools({ root, sessionDir, sandbox: unsandboxedShell() }).find((tool) => tool.name === "bash")!;

global.gc?.();
const baseline = process.memoryUsage().rss;
let peak = baseline;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 5);
const started = performance.now();
const result = await bash.execute("peak", { command: `yes 'a line of output, sixty-four bytes long, give or take a few.' | head -c ${bytes}` });
const ms = performance.now() - started;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
const saved = (result.details as { fullOutputPath?: string } | undefined)?.fullOutputPath;
console.log(
  JSON.stringify({
    baselineMb: baseline / 2 ** 20,
    peakGrowthMb: (peak - baseline) / 2 ** 20,
    outputBytes: bytes,
    savedBytes: saved ? statSync(saved).size : 0,
    ms,
  }),
);
