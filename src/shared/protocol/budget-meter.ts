/**
 * What a chat's budget meter shows (pushed by the worker as `{ k: "budget" }`, and in snapshots): each scope's caps
 * and what has been spent against them. The run's `startedAt` lets the page count its wall time between pushes.
 */
import type { BudgetCaps, BudgetSpend } from "../agent/budget";

export interface BudgetMeter {
  chat?: { caps: BudgetCaps; spend: BudgetSpend };
  run?: { caps: BudgetCaps; spend: BudgetSpend; startedAt?: number };
}
