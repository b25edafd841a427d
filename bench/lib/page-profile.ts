/** A page's CPU profile through the DevTools protocol, printed as the top functions (BENCH_PROFILE runs). */
import type { Page } from "playwright-core";

/** BENCH_PROFILE=1: a CPU profile of the page while it streams, printed as the top functions by self time. */
export async function startProfile(page: Page): Promise<{ stopAndPrint(): Promise<void> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  await cdp.send("Profiler.start");
  return {
    async stopAndPrint() {
      const { profile } = (await cdp.send("Profiler.stop")) as { profile: { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } ; hitCount?: number }[]; samples: number[]; timeDeltas: number[] } };
      const self = new Map<string, number>();
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      profile.samples.forEach((id, i) => {
        const node = byId.get(id)!;
        const key = `${node.callFrame.functionName || "(anonymous)"} ${node.callFrame.url.split("/").pop()}:${node.callFrame.lineNumber}`;
        self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
      });
      const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25);
      console.log("\nrenderer CPU profile (self ms):");
      for (const [name, ms] of top) console.log(`${ms.toFixed(0).padStart(7)}  ${name}`);
      // Inclusive time: each sample counts once for every distinct function on its stack.
      const parent = new Map<number, number>();
      for (const n of profile.nodes as { id: number; children?: number[] }[]) for (const c of n.children ?? []) parent.set(c, n.id);
      const total = new Map<string, number>();
      profile.samples.forEach((id, i) => {
        const seen = new Set<string>();
        for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
          const f = byId.get(at)!.callFrame;
          if (!f.url) continue;
          const key = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}:${f.lineNumber}`;
          if (!seen.has(key)) total.set(key, (total.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
          seen.add(key);
        }
      });
      console.log("\nrenderer CPU profile (inclusive ms):");
      for (const [name, ms] of [...total.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${ms.toFixed(0).padStart(7)}  ${name}`);
    },
  };
}


/** BENCH_PROFILE=opentrace: the page's main-thread tasks while it loads and opens the 10k session, each with its heaviest children. */
export function printTimeline(buffer: Buffer, marks: Record<string, number>): void {
  type TraceEvent = { name: string; ph: string; ts: number; dur?: number; tid: number; pid: number; args?: any };
  const events = (JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  // The busiest renderer main thread is the page's (navigation may have moved it to a new process).
  const busy = new Map<string, number>();
  const mains = events.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`);
  for (const e of events) if (e.name === "RunTask" && e.dur && mains.includes(`${e.pid}:${e.tid}`)) busy.set(`${e.pid}:${e.tid}`, (busy.get(`${e.pid}:${e.tid}`) ?? 0) + e.dur);
  const main = [...busy.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const mine = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === "X" && e.dur);
  // Times print on the page's own clock (performance.now()), like the marks: from its last navigation start.
  const navs = events.filter((e) => e.name === "navigationStart" && main?.startsWith(`${e.pid}:`));
  const nav = navs.at(-1)?.ts ?? mine[0]?.ts ?? 0;
  const tasks = mine.filter((e) => e.name === "RunTask" && e.dur! > 2000);
  console.log(`\nopen timeline (ms since navigation start; marks: ${JSON.stringify(marks)})`);
  for (const t of tasks) {
    const inside = mine.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur! <= t.ts + t.dur! && e.name !== "RunTask");
    const totals = new Map<string, number>();
    for (const e of inside) totals.set(e.name, (totals.get(e.name) ?? 0) + e.dur! / 1000);
    const top = [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([n, ms]) => `${n} ${ms.toFixed(1)}`);
    console.log(`${((t.ts - nav) / 1000).toFixed(1).padStart(8)}  ${(t.dur! / 1000).toFixed(1).padStart(6)} ms  ${top.join(", ")}`);
  }
}
