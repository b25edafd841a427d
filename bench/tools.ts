/**
 * Workspace tools: grep against the rg command line on a large tree, the first lines of a 100 MB file, what the
 * sandbox adds to a command, and the memory of a process whose command prints 50 MB. Data is generated in a temporary
 * folder and removed after.
 */
import { execFile, spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import {
  createShellSandbox,
  detectSandbox,
  disposeSandboxRuntime,
  ripgrepPath,
  unsandboxedShell,
  workspaceTools,
  type ShellSandbox,
} from "../src/agent-worker/tools/workspace";
import type { AgentTool } from "../src/shared/agent/types";
import { median, metric, round, type Metric } from "./lib/metrics";

const TREE_FILES = 50_000;
const FILES_PER_DIR = 50;
const FILE_BYTES = 4_000; // 50,000 x 4 KB = 200 MB
const IGNORED_SHARE = 10; // every 10th folder is listed in .gitignore
const NEEDLE = "PADDOCK_NEEDLE_7f3a";
const GREP_RUNS = 5;
const LARGE_FILE_BYTES = 100 * 1024 * 1024;
const READ_RUNS = 9;
const BASH_RUNS = 15;
const RSS_RUNS = 3;

export async function benchTools(): Promise<Record<string, Metric>> {
  const base = mkdtempSync(join(tmpdir(), "paddock-bench-tools-"));
  try {
    return {
      ...(await benchGrep(join(base, "tree"))),
      ...(await benchRead(join(base, "large"))),
      ...(await benchBash(join(base, "bash"))),
      ...(await benchOutputMemory(join(base, "rss"))),
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
    await disposeSandboxRuntime();
  }
}

function toolsFor(root: string, sandbox: ShellSandbox = unsandboxedShell()): (name: string) => AgentTool<any> {
  mkdirSync(root, { recursive: true });
  const tools = workspaceTools({ root, sessionDir: `${root}-session`, sandbox });
  return (name) => tools.find((t) => t.name === name)!;
}

/** Text of words, so rg has to look at every byte; the needle lands in a few files only. */
function fileText(seed: number, withNeedle: boolean): string {
  const words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "theta", "lambda", "sigma", "omega"];
  let text = "";
  let x = seed * 2654435761;
  while (text.length < FILE_BYTES) {
    let line = "";
    while (line.length < 70) {
      x = (x * 1103515245 + 12345) >>> 0;
      line += `${words[x % words.length]}${x % 97} `;
    }
    text += `${line}\n`;
  }
  return withNeedle ? `${text}${NEEDLE}\n` : text;
}

async function benchGrep(root: string): Promise<Record<string, Metric>> {
  const dirs = TREE_FILES / FILES_PER_DIR;
  const ignored: string[] = [];
  for (let d = 0; d < dirs; d++) {
    const dir = join(root, `group${d % 20}`, `dir${d}`);
    mkdirSync(dir, { recursive: true });
    if (d % IGNORED_SHARE === 0) ignored.push(`dir${d}/`);
    for (let f = 0; f < FILES_PER_DIR; f++) {
      const n = d * FILES_PER_DIR + f;
      writeFileSync(join(dir, `file${f}.txt`), fileText(n, n % 5000 === 777)); // 10 files hold the needle, none ignored
    }
  }
  writeFileSync(join(root, ".gitignore"), `${ignored.join("\n")}\n`);

  const grep = toolsFor(root)("grep");
  const rg = await ripgrepPath();
  // The same query as the tool's: its flags, plain output instead of JSON.
  const rgArgs = ["--no-config", "--color=never", "--hidden", "--no-require-git", "--line-number", "--glob", "!.git", "--", NEEDLE, root];
  const runRg = () => {
    const t0 = performance.now();
    const out = spawnSync(rg, rgArgs, { cwd: root, encoding: "utf8", maxBuffer: 1 << 26 });
    if (out.status !== 0) throw new Error(`bench: rg failed: ${out.stderr}`);
    return { ms: performance.now() - t0, matches: out.stdout.trim().split("\n").length };
  };
  const runTool = async () => {
    const t0 = performance.now();
    const result = await grep.execute("bench", { pattern: NEEDLE });
    const text = result.content[0].type === "text" ? result.content[0].text : "";
    return { ms: performance.now() - t0, matches: text.split("\n").filter((l) => l.includes(NEEDLE)).length };
  };
  runRg(); // warm the page cache and the directory cache
  await runTool();
  const rgMs: number[] = [];
  const toolMs: number[] = [];
  let matches = { rg: 0, tool: 0 };
  for (let i = 0; i < GREP_RUNS; i++) {
    const a = runRg();
    const b = await runTool();
    rgMs.push(a.ms);
    toolMs.push(b.ms);
    matches = { rg: a.matches, tool: b.matches };
  }
  if (matches.rg !== matches.tool) throw new Error(`bench: grep found ${matches.tool} matches, rg ${matches.rg}`);
  return {
    grepVsRipgrepRatio: metric(median(toolMs) / median(rgMs), "<=", 1.3, "x", {
      note: `grep tool vs the rg command line (same flags, plain output), one rare pattern over ${TREE_FILES} files (${(TREE_FILES * FILE_BYTES) / 1e6} MB) with a .gitignore hiding every ${IGNORED_SHARE}th folder; median of ${GREP_RUNS} alternating warm runs.`,
      detail: { toolMs: round(median(toolMs), 1), rgMs: round(median(rgMs), 1), matches: matches.tool, toolSamples: toolMs.map((v) => round(v, 1)), rgSamples: rgMs.map((v) => round(v, 1)) },
    }),
  };
}

async function benchRead(root: string): Promise<Record<string, Metric>> {
  mkdirSync(root, { recursive: true });
  const file = openSync(join(root, "large.log"), "w");
  let written = 0;
  let lineNo = 0;
  while (written < LARGE_FILE_BYTES) {
    let block = "";
    for (let i = 0; i < 10_000; i++) block += `line ${++lineNo} ok\n`; // ~18 bytes a line: 2,000 lines < 50 KB
    written += writeSync(file, block);
  }
  closeSync(file);
  const read = toolsFor(root)("read");
  await read.execute("warm", { path: "large.log" });
  const samples: number[] = [];
  let marker = "";
  for (let i = 0; i < READ_RUNS; i++) {
    const t0 = performance.now();
    const result = await read.execute("bench", { path: "large.log" });
    samples.push(performance.now() - t0);
    const text = result.content[0].type === "text" ? result.content[0].text : "";
    marker = text.slice(text.lastIndexOf("\n[") + 1);
  }
  if (!marker.startsWith("[Showing lines 1-2000 of ")) throw new Error(`bench: unexpected read result ${marker}`);
  return {
    readLargeFileMs: metric(median(samples), "<=", 50, "ms", {
      note: `read tool, first 2,000 lines of a ${LARGE_FILE_BYTES / 2 ** 20} MB file (page cache warm), total line count included; median of ${READ_RUNS}.`,
      detail: { marker, samples: samples.map((v) => round(v, 1)) },
    }),
  };
}

async function benchBash(root: string): Promise<Record<string, Metric>> {
  const support = await detectSandbox();
  if (!support.available) {
    return { bashSandboxOverheadMs: metric(Number.NaN, "<=", 100, "ms", { note: `not measured: ${support.reason}` }) };
  }
  const plain = toolsFor(join(root, "plain"))("bash");
  const sandboxed = toolsFor(join(root, "sandboxed"), await createShellSandbox())("bash");
  const time = async (tool: AgentTool<any>) => {
    const t0 = performance.now();
    await tool.execute("bench", { command: "true" });
    return performance.now() - t0;
  };
  await time(plain);
  await time(sandboxed); // the runtime's one-time start (proxies) is not per command
  const plainMs: number[] = [];
  const sandboxedMs: number[] = [];
  for (let i = 0; i < BASH_RUNS; i++) {
    plainMs.push(await time(plain));
    sandboxedMs.push(await time(sandboxed));
  }
  return {
    bashSandboxOverheadMs: metric(median(sandboxedMs) - median(plainMs), "<=", 100, "ms", {
      note: `bash tool running \`true\`: median under ${support.kind} minus median without a sandbox, ${BASH_RUNS} alternating runs each (after the runtime's one-time start).`,
      detail: { sandboxedMs: round(median(sandboxedMs), 1), plainMs: round(median(plainMs), 1), sandboxedSamples: sandboxedMs.map((v) => round(v, 1)) },
    }),
  };
}

async function benchOutputMemory(root: string): Promise<Record<string, Metric>> {
  const script = resolve("testkit/bash-output-peak.ts");
  const growth: number[] = [];
  const runs: unknown[] = [];
  for (let i = 0; i < RSS_RUNS; i++) {
    const dir = join(root, `run${i}`);
    mkdirSync(join(dir, "workspace"), { recursive: true });
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", script, join(dir, "workspace"), join(dir, "session"), "50"]);
    const figures = JSON.parse(stdout.trim().split("\n").at(-1)!) as { peakGrowthMb: number; savedBytes: number; ms: number };
    if (figures.savedBytes !== 50_000_000) throw new Error(`bench: the full output was not saved (${figures.savedBytes} bytes)`);
    growth.push(figures.peakGrowthMb);
    runs.push(figures);
  }
  return {
    bashOutputPeakRssMb: metric(median(growth), "<=", 64, "MB", {
      note: `RSS growth (sampled every 5 ms) of a process of its own while the bash tool runs a command printing 50 MB; median of ${RSS_RUNS}.`,
      detail: { runs },
    }),
  };
}
