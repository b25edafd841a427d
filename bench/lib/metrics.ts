/**
 * A benchmark figure and its target, and the small statistics the benchmarks use. Nothing here measures anything.
 */

export interface Metric {
  value: number;
  target: number;
  unit: string;
  /** "<=" or ">=" (or "=" for counts that must be exactly the target). */
  compare: "<=" | ">=" | "=";
  pass: boolean;
  /** How it was measured, and figures that explain it (not compared to anything). */
  note?: string;
  detail?: Record<string, unknown>;
}

export function metric(value: number, compare: Metric["compare"], target: number, unit: string, extra: Pick<Metric, "note" | "detail"> = {}): Metric {
  const pass = compare === "<=" ? value <= target : compare === ">=" ? value >= target : value === target;
  return { value: round(value), target, unit, compare, pass, ...extra };
}

export function round(value: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100). NaN for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1];
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Rejects with `what` after `ms`, so no benchmark step can hang the run. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`bench: timed out after ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
