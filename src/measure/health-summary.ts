/** The report's run-health totals, from its errored trials (so a merge of shards recomputes them the same way). */
import type { HealthTotals, TrialError } from "./types.js";

/** `{ health }` when some trial was unhealthy, else `{}` (the field is additive: absent on healthy reports). */
export function healthSummary(errors: readonly TrialError[]): { health?: HealthTotals } {
  const unhealthy = errors.filter((e) => e.code === "RUN_UNHEALTHY");
  if (unhealthy.length === 0) return {};
  const items: Record<string, number> = {};
  for (const e of unhealthy) for (const name of e.health ?? []) items[name] = (items[name] ?? 0) + 1;
  return { health: { unhealthy: unhealthy.length, items } };
}
