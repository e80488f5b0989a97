/**
 * The ablation of merged shards. Both arms of a shard run the same slice of trial indices, so the
 * shards' counts add up to the whole run's — per arm and per pair — and every number of the
 * comparison is recomputed from those sums by the code `compareAblation` uses: merged shards give
 * the ablation one unsharded run gives, never one shard's copy.
 */
import { InvalidInputError } from "../errors/proctor-error.js";
import { pairedVerdict, type PairedCounts } from "../stats/paired-sequence.js";
import { ablationCheck, type AblationInfo } from "./ablation.js";
import type { AblationEarlyStop } from "./ablation-stop.js";
import type { CheckReport } from "./types.js";

function mismatch(what: string, detail: string): never {
  throw new InvalidInputError("INVALID_INPUT", `cannot merge: ${what}`, { detail });
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

/** The merged ablation of `reports` (undefined when none has one); refuses shards of different ablations. */
export function mergeAblation(reports: readonly CheckReport[], names: readonly string[], confidence: number): AblationInfo | undefined {
  const infos = reports.map((r) => r.ablation);
  const [first] = infos;
  const at = (i: number) => names[i] ?? `report ${i + 1}`;
  if (first === undefined) {
    const j = infos.findIndex((a) => a !== undefined);
    if (j >= 0) mismatch("only some of the reports hold an ablation", `  ${at(j)} compares with and without ${infos[j]?.component}; ${at(0)} does not — merge the shards of one run`);
    return undefined;
  }
  const settings = (a: AblationInfo) => ({ component: a.component, withoutReport: a.withoutReport, alpha: a.alpha, power: a.power, detect: a.detect, labels: a.checks.map((c) => c.label) });
  const stopSettings = (e: AblationEarlyStop | undefined) => e && { alpha: e.alpha, minPairs: e.minPairs, detect: e.detect, cap: e.cap };
  infos.forEach((a, i) => {
    if (!a) mismatch("only some of the reports hold an ablation", `  ${at(0)} compares with and without ${first.component}; ${at(i)} does not — merge the shards of one run`);
    if (!same(settings(a), settings(first))) mismatch("the reports hold different ablations", `  ${at(0)}: ${JSON.stringify(settings(first))}\n  ${at(i)}: ${JSON.stringify(settings(a))}`);
    if (!same(stopSettings(a.earlyStop), stopSettings(first.earlyStop))) mismatch("the reports' ablations stopped early by different rules", `  ${at(0)} vs ${at(i)}`);
  });
  const all = infos as readonly AblationInfo[];
  const options = { alpha: first.alpha, power: first.power, ...(first.detect !== undefined ? { detect: first.detect } : {}) };
  const checks = first.checks.map((c, j) => {
    const per = all.map((a) => a.checks[j] as (typeof a.checks)[number]);
    const add = (pick: (x: (typeof per)[number]) => { passes: number; n: number }) => ({ passes: sum(per.map((x) => pick(x).passes)), n: sum(per.map((x) => pick(x).n)) });
    // Reports written before paired counts were recorded have none: the merge then has none either.
    const pairs: PairedCounts | undefined = per.every((x) => x.pairs)
      ? { n: sum(per.map((x) => x.pairs?.n ?? 0)), up: sum(per.map((x) => x.pairs?.up ?? 0)), down: sum(per.map((x) => x.pairs?.down ?? 0)) }
      : undefined;
    const merged = ablationCheck(c.label, add((x) => x.with), add((x) => x.without), pairs, confidence, options);
    // Every shard removed the same parts: what the check names of them is the first shard's.
    return c.namesRemoved ? { ...merged, namesRemoved: c.namesRemoved } : merged;
  });
  const earlyStop = first.earlyStop && mergeEarlyStop(all.map((a) => a.earlyStop as AblationEarlyStop), checks);
  return { component: first.component, withoutReport: first.withoutReport, alpha: first.alpha, power: first.power, ...(first.detect !== undefined ? { detect: first.detect } : {}), checks, ...(first.removed ? { removed: first.removed } : {}), ...(earlyStop ? { earlyStop } : {}) };
}

/**
 * Shards stop on their own: the merge stopped if any did, after the pairs they ran between them;
 * each check's verdict is what the merged pairs show (the interval may be read at any n).
 */
function mergeEarlyStop(stops: readonly AblationEarlyStop[], checks: readonly { label: string; pairs?: PairedCounts }[]): AblationEarlyStop {
  const [first] = stops as [AblationEarlyStop];
  return {
    alpha: first.alpha,
    minPairs: first.minPairs,
    ...(first.detect !== undefined ? { detect: first.detect } : {}),
    ...(first.defaultDetect ? { defaultDetect: true } : {}),
    stopped: stops.some((s) => s.stopped),
    pairs: sum(stops.map((s) => s.pairs)),
    cap: first.cap,
    verdicts: checks.map((c) => ({ label: c.label, verdict: (c.pairs && pairedVerdict({ n: c.pairs.n, up: c.pairs.up, down: c.pairs.down }, first.alpha, first.detect)) || "open" })),
  };
}
