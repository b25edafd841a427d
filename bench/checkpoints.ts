/**
 * Checkpoints (src/shared-node/checkpoints/) on a workspace of ~45,000 files / ~600 MB: part of this checkout's
 * node_modules copied once into a temporary folder under a name no .gitignore ignores. Compared in the same run
 * with what a shadow git repository (`git --git-dir=<elsewhere> --work-tree=<workspace>`) takes for the same change:
 * `git add -A && git write-tree`.
 *
 * - editCallMs: a checkpoint after `write`/`edit` (the changed path named), median of 15.
 * - bashCallVsGitRatio: a full-tree checkpoint after a command changed 10 files (6 modified, 2 created, 2 deleted),
 *   over git's incremental snapshot of the same kind of change, medians of 5 each, interleaved.
 * - firstSnapshotBlocksMs: the first snapshot of the workspace runs in the background: the longest the event loop
 *   was held up while it ran (what a first model request would wait), the call's own return included.
 * - rewind100FilesMs: restoring 100 changed files (the full scan that finds what to restore included), median of 3.
 * Alternatives measured for the note (docs/checkpoints.md) go in `detail`.
 */
import { execFileSync } from "node:child_process";
import { gzipSync } from "node:zlib";
import { constants, copyFileSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { openCheckpointStore } from "../src/shared-node/checkpoints/checkpoint-store";
import { checkpointStoreBytes } from "../src/shared-node/checkpoints/maintenance";
import { median, metric, round, withTimeout, type Metric } from "./lib/metrics";

const TARGET_FILES = 45_000;
const EDIT_RUNS = 15;
const BASH_RUNS = 5;
const REWIND_RUNS = 3;

export async function benchCheckpoints(): Promise<Record<string, Metric>> {
  const base = mkdtempSync(join(tmpdir(), "paddock-bench-checkpoints-"));
  try {
    const ws = join(base, "workspace");
    const tree = copyTree(resolve("node_modules"), join(ws, "vendor"), TARGET_FILES);
    const files = listFiles(ws);
    const shadow = join(base, "shadow.git");
    const git = (...args: string[]) => execFileSync("git", [`--git-dir=${shadow}`, `--work-tree=${ws}`, ...args], { stdio: "pipe", maxBuffer: 64 * 1024 * 1024 });
    git("init", "-q");
    let t = performance.now();
    git("add", "-A");
    git("write-tree");
    const gitFirstMs = performance.now() - t;

    // The first snapshot, in the background; the event loop's longest wait while it runs.
    const data = join(base, "data");
    const heapBefore = process.memoryUsage().heapUsed;
    const store = openCheckpointStore(data, ws, "bench-chat");
    let longestStall = 0;
    let last = performance.now();
    let running = true;
    const tick = () => {
      const now = performance.now();
      longestStall = Math.max(longestStall, now - last);
      last = now;
      if (running) setImmediate(tick);
    };
    t = performance.now();
    const baselinePromise = store.baseline();
    const callReturnMs = performance.now() - t;
    last = performance.now();
    setImmediate(tick);
    let checkpoint = await withTimeout(baselinePromise, 600_000, "first checkpoint");
    const baselineTotalMs = performance.now() - t;
    running = false;
    const firstSnapshotBlocksMs = Math.max(callReturnMs, longestStall);
    const heapAfterBaseline = process.memoryUsage().heapUsed;

    // editCall: one file written, its path named.
    const editTimes: number[] = [];
    for (let i = 0; i < EDIT_RUNS; i++) {
      const path = files[(i * 2654435761) % files.length];
      writeFileSync(join(ws, path), `// edited ${i}\n${readFileSync(join(ws, path), "utf8").slice(0, 2000)}`);
      t = performance.now();
      checkpoint = await store.snapshot({ paths: [path] });
      editTimes.push(performance.now() - t);
    }

    // bashCall: 10 files changed by "a command", then a full-tree checkpoint; git's incremental snapshot interleaved.
    let round_ = 0;
    const changeTen = () => {
      round_++;
      for (let i = 0; i < 6; i++) {
        const path = files[(round_ * 7919 + i * 104729) % files.length];
        writeFileSync(join(ws, path), `// bash round ${round_}\n`);
      }
      writeFileSync(join(ws, `vendor/new-${round_}-a.txt`), `new ${round_}\n`);
      writeFileSync(join(ws, `vendor/new-${round_}-b.txt`), `new ${round_} b\n`);
      for (const suffix of ["a", "b"]) {
        const old = join(ws, `vendor/new-${round_ - 1}-${suffix}.txt`);
        if (round_ > 1) unlinkSync(old);
      }
    };
    const oursBash: number[] = [];
    const gitBash: number[] = [];
    const noChangeScan: number[] = [];
    for (let i = 0; i < BASH_RUNS; i++) {
      changeTen();
      t = performance.now();
      git("add", "-A");
      git("write-tree");
      gitBash.push(performance.now() - t);
      changeTen();
      t = performance.now();
      checkpoint = await store.snapshot();
      oursBash.push(performance.now() - t);
      t = performance.now();
      await store.snapshot();
      noChangeScan.push(performance.now() - t);
    }
    t = performance.now();
    execFileSync("git", [`--git-dir=${shadow}`, `--work-tree=${ws}`, "status", "--porcelain"], { stdio: "pipe", maxBuffer: 64 * 1024 * 1024 });
    const gitStatusMs = performance.now() - t;

    // rewind: 100 files changed after a checkpoint, then restored; back and forth.
    const rewindTimes: number[] = [];
    for (let r = 0; r < REWIND_RUNS; r++) {
      const before = await store.snapshot();
      const changed: string[] = [];
      for (let i = 0; i < 100; i++) {
        const path = files[(r * 31337 + i * 7727 + 13) % files.length];
        writeFileSync(join(ws, path), `// rewind round ${r} file ${i}\n`);
        changed.push(path);
      }
      const after = await store.snapshot({ paths: changed });
      t = performance.now();
      const result = await store.restore(before, { expectedId: after });
      rewindTimes.push(performance.now() - t);
      if (result.conflicts.length > 0 || result.restored.length !== 100) throw new Error(`bench: rewind restored ${result.restored.length}, ${result.conflicts.length} conflicts`);
    }
    await store.close();
    const storeBytes = checkpointStoreBytes(data);

    const alternatives = await measureAlternatives(ws, files, base);
    const gitMedian = median(gitBash);
    const note = `${tree.files} files, ${Math.round(tree.bytes / 1e6)} MB copied from node_modules`;
    return {
      editCallMs: metric(median(editTimes), "<=", 20, "ms", { note: `a write's checkpoint (path named), median of ${EDIT_RUNS}; ${note}` }),
      bashCallVsGitRatio: metric(median(oursBash) / gitMedian, "<=", 0.5, "x", {
        note: "full-tree checkpoint after 10 files changed, over git add -A && write-tree on a shadow repository",
        detail: { oursMs: round(median(oursBash), 1), gitMs: round(gitMedian, 1), oursRunsMs: oursBash.map((v) => round(v, 1)), gitRunsMs: gitBash.map((v) => round(v, 1)), noChangeFullScanMs: round(median(noChangeScan), 1), gitStatusMs: round(gitStatusMs, 1), alternatives },
      }),
      firstSnapshotBlocksMs: metric(firstSnapshotBlocksMs, "<=", 100, "ms", {
        note: "longest event-loop stall while the first snapshot ran in the background (the call's return included)",
        detail: { callReturnMs: round(callReturnMs, 2), longestStallMs: round(longestStall, 1), backgroundTotalMs: Math.round(baselineTotalMs), gitFirstAddWriteTreeMs: Math.round(gitFirstMs), heapAfterBaselineMb: round((heapAfterBaseline - heapBefore) / 1e6, 1), storeMb: round(storeBytes / 1e6, 1), lastCheckpoint: checkpoint },
      }),
      rewind100FilesMs: metric(median(rewindTimes), "<=", 500, "ms", { note: `restore of 100 changed files (scan included), median of ${REWIND_RUNS}`, detail: { runsMs: rewindTimes.map((v) => round(v, 1)) } }),
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/** Copies top-level entries of `from` into `to` until about `targetFiles` files; returns what was copied. */
function copyTree(from: string, to: string, targetFiles: number): { files: number; bytes: number } {
  mkdirSync(to, { recursive: true });
  let files = 0;
  let bytes = 0;
  for (const name of readdirSync(from).sort()) {
    if (files >= targetFiles) break;
    if (name.startsWith(".")) continue;
    const count = countFiles(join(from, name));
    if (files + count.files > targetFiles * 1.02) continue;
    execFileSync("cp", ["-a", "--reflink=auto", join(from, name), join(to, name)]);
    files += count.files;
    bytes += count.bytes;
  }
  return { files, bytes };
}

function countFiles(path: string): { files: number; bytes: number } {
  const st = lstatSync(path);
  if (!st.isDirectory()) return { files: 1, bytes: st.size };
  let files = 0;
  let bytes = 0;
  for (const name of readdirSync(path)) {
    const c = countFiles(join(path, name));
    files += c.files;
    bytes += c.bytes;
  }
  return { files, bytes };
}

function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith(".js")) out.push(path);
    }
  };
  walk("");
  return out.sort();
}

/** Sync vs async walk (readdir + lstat of every entry), gzip's cost and gain, copyFile with and without FICLONE. */
async function measureAlternatives(ws: string, files: string[], base: string): Promise<Record<string, unknown>> {
  const syncWalk = () => {
    let n = 0;
    const walk = (abs: string) => {
      for (const name of readdirSync(abs)) {
        const st = lstatSync(join(abs, name));
        n++;
        if (st.isDirectory()) walk(join(abs, name));
      }
    };
    walk(ws);
    return n;
  };
  const asyncWalk = async () => {
    let n = 0;
    const walk = async (abs: string): Promise<void> => {
      const names = await readdir(abs);
      const stats = await Promise.all(names.map((name) => lstat(join(abs, name))));
      n += names.length;
      await Promise.all(names.filter((_, i) => stats[i].isDirectory()).map((name) => walk(join(abs, name))));
    };
    await walk(ws);
    return n;
  };
  const time = async (f: () => unknown) => {
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await f();
      runs.push(performance.now() - t);
    }
    return round(median(runs), 1);
  };
  const sample = files.slice(0, 2000).map((p) => readFileSync(join(ws, p)));
  const rawBytes = sample.reduce((a, b) => a + b.length, 0);
  let t = performance.now();
  const gz = sample.reduce((a, b) => a + gzipSync(b, { level: 1 }).length, 0);
  const gzipMs = performance.now() - t;
  const copyDir = join(base, "copies");
  mkdirSync(copyDir);
  const copies = (flags: number) => {
    for (let i = 0; i < 500; i++) copyFileSync(join(ws, files[i]), join(copyDir, `${flags}-${i}`), flags);
  };
  t = performance.now();
  copies(0);
  const copyMs = performance.now() - t;
  t = performance.now();
  copies(constants.COPYFILE_FICLONE);
  const cloneMs = performance.now() - t;
  return {
    entries: syncWalk(),
    syncWalkMs: await time(syncWalk),
    asyncWalkMs: await time(asyncWalk),
    gzipLevel1: { sampleFiles: sample.length, rawMb: round(rawBytes / 1e6, 2), gzMb: round(gz / 1e6, 2), ms: round(gzipMs, 1) },
    copy500Files: { copyFileMs: round(copyMs, 1), ficloneMs: round(cloneMs, 1) },
  };
}
