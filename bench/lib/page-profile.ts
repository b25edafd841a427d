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

