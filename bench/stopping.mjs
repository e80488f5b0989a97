// Early stopping, computed exactly (every (passes, n) pushed forward, no sampling noise): for a
// true rate sitting at the gate's minimum (the hardest case), the chance of a wrong stop by every
// N = 10…1000 for the anytime-valid rule proctor uses and for the rule it replaced (a Wilson
// interval looked at after every trial); then, at equal power, the trials early stopping uses on
// average against the fixed-N exact test. Prints figures, never asserts (test/stats/sequential.test.ts does).
// Run: npm run build && node bench/stopping.mjs   (BENCH_STOP_N=1000)
import * as p from "../dist/src/index.js";
import { DEFAULT_DETECT } from "../dist/src/measure/ablation-stop.js";

const N = Number(process.env.BENCH_STOP_N ?? 1000);
const ALPHA = 0.05;
const pct = (x) => `${(x * 100).toFixed(2)}%`;

console.log(`wrong stops by N, true rate = minimum, α = ${ALPHA}, minTrials 10 (max over "above" and "below"):`);
let worstAll = 0;
console.log("min    rule                        N=10     N=50     N=100    N=200    N=500    N=1000   worst");
for (const min of [0.5, 0.8, 0.9, 0.95]) {
  for (const [name, rule] of [
    ["anytime-valid (proctor)", p.sequenceRule(min, ALPHA, 10)],
    ["Wilson 99% every trial (old)", p.repeatedWilsonRule(min, 0.99, 10)],
    ["Wilson 95% every trial", p.repeatedWilsonRule(min, 0.95, 10)],
  ]) {
    const c = p.stoppingCurve(rule, min, N);
    const err = (n) => Math.max(c.above[Math.min(n, N)], c.below[Math.min(n, N)]);
    let worst = 0;
    for (let n = 10; n <= N; n++) worst = Math.max(worst, err(n));
    if (name.includes("proctor")) worstAll = Math.max(worstAll, worst);
    console.log(`${String(min).padEnd(6)} ${name.padEnd(28)}${[10, 50, 100, 200, 500, 1000].map((n) => pct(err(n)).padStart(9)).join("")}${pct(worst).padStart(9)}`);
  }
}

console.log(`\ntrials used at equal power (0.8, α = ${ALPHA}): fixed-N exact test vs early stopping capped where its power reaches 0.8`);
console.log("min    true   fixed N   cap   E[trials] at true   saved   E[trials] if true rate were +0.05   at rate = min");
let headline = 0;
for (const [min, rate] of [[0.5, 0.7], [0.8, 0.9], [0.8, 0.95], [0.9, 0.97], [0.95, 0.99]]) {
  const fixed = p.fixedTrialsForPower(min, rate, ALPHA, 0.8);
  let cap = 10;
  let curve;
  for (; cap <= 5000; cap++) {
    curve = p.stoppingCurve(p.sequenceRule(min, ALPHA, 10), rate, cap);
    if (curve.above[cap] >= 0.8) break;
  }
  if (min === 0.8 && rate === 0.9) headline = curve.expectedTrials / fixed;
  const better = p.stoppingCurve(p.sequenceRule(min, ALPHA, 10), Math.min(1, rate + 0.05), cap).expectedTrials;
  const atMin = p.stoppingCurve(p.sequenceRule(min, ALPHA, 10), min, cap).expectedTrials;
  console.log(
    `${String(min).padEnd(6)} ${String(rate).padEnd(6)} ${String(fixed).padStart(7)} ${String(cap).padStart(5)} ${curve.expectedTrials.toFixed(1).padStart(12)} ${pct(1 - curve.expectedTrials / fixed).padStart(13)} ${better.toFixed(1).padStart(20)} ${atMin.toFixed(1).padStart(26)}`,
  );
}
console.log(`figure: worst wrong-stop rate / α, N ≤ ${N} = ${(worstAll / ALPHA).toFixed(3)} (goal ≤ 1)`);
console.log(`figure: early-stop trials / fixed-N trials at equal power (0.9 vs min 0.8) = ${headline.toFixed(3)} (goal ≤ 1)`);

// Ablation: the arms with and without a part run side by side and stop once the paired
// anytime-valid delta clears 0. Computed exactly over (up, down) pairs; minPairs 10, α = 0.05.
// Against it, Fisher's exact test on the two arms with N fixed in advance (what a run without
// early stopping reports), at the same power: 80 %.
console.log(`\nablation, wrong "it matters" with no true difference (exact bound over any pair distribution): N=10…${N}`);
const bound = p.stoppingCurve(p.discordantRule(ALPHA), 0.5, N);
let worstPaired = 0;
for (let n = 10; n <= N; n++) worstPaired = Math.max(worstPaired, bound.above[n] + bound.below[n]);
console.log(`  ${[10, 50, 100, 200, 500, 1000].filter((n) => n <= N).map((n) => `N=${n} ${pct(bound.above[n] + bound.below[n])}`).join("  ")}  worst ${pct(worstPaired)}`);
console.log("\nablation pairs used at equal power (0.8): Fisher fixed N per arm vs the paired early stop capped where its power reaches 0.8");
console.log("without  with   corr   fixed N   cap   E[pairs]   saved   E[pairs] if 'with' were +0.1");
let pairedHeadline = 0;
const MIN_PAIRS = 10;
const usedBy = (curve, cap) => {
  let used = 0;
  for (let n = 0; n < cap; n++) used += 1 - (n === 0 ? 0 : curve.above[n] + curve.below[n]);
  return used;
};
// corr: the share of pairs whose two trials make the same draw (common random numbers, as the mock's seeded scripts do).
for (const [without, withRate, corr] of [[0.5, 0.8, 0], [0.2, 0.5, 0], [0.5, 0.7, 0], [0.5, 0.8, 0.5], [0.1, 0.9, 0]]) {
  let fixed = 1;
  while (p.fisherPower(withRate, without, fixed, ALPHA) < 0.8) fixed++;
  const split = (w) => [(1 - corr) * w * (1 - without) + corr * Math.max(0, w - without), (1 - corr) * without * (1 - w) + corr * Math.max(0, without - w)];
  const [up, down] = split(withRate);
  const curve = p.pairedStoppingCurve(ALPHA, up, down, 4 * fixed + MIN_PAIRS, MIN_PAIRS);
  let cap = MIN_PAIRS;
  while (cap < 4 * fixed + MIN_PAIRS && curve.above[cap] < 0.8) cap++;
  const used = usedBy(curve, cap);
  if (without === 0.5 && withRate === 0.8 && corr === 0) pairedHeadline = used / fixed;
  const [upB, downB] = split(Math.min(1, withRate + 0.1));
  const better = usedBy(p.pairedStoppingCurve(ALPHA, upB, downB, cap, MIN_PAIRS), cap);
  console.log(`${String(without).padEnd(8)} ${String(withRate).padEnd(6)} ${String(corr).padEnd(6)} ${String(fixed).padStart(7)} ${String(cap).padStart(5)} ${used.toFixed(1).padStart(10)} ${pct(1 - used / fixed).padStart(8)} ${better.toFixed(1).padStart(12)}`);
}
console.log(`figure: ablation worst wrong "it matters" / α at δ = 0, N ≤ ${N} = ${(worstPaired / ALPHA).toFixed(3)} (goal ≤ 1)`);
console.log(`figure: ablation early-stop pairs / fixed-N trials per arm at equal power (0.8 vs 0.5, independent arms) = ${pairedHeadline.toFixed(3)} (goal ≤ 1)`);

// The default margin (--detect unset: ±0.2): a check the part does not move settles as "no effect
// beyond ±20 points" instead of running to the cap. Computed exactly over (up, down) pairs.
const D = DEFAULT_DETECT;
const M = Math.min(N, 150);
console.log(`\nablation with the default margin ±${D} (N ≤ ${M}, minPairs 10): wrong verdicts and pairs used`);
console.log("true δ   pUp    pDown  wrong 'matters'  wrong 'negligible'  settled by N   E[pairs]");
let worstNegligible = 0;
for (const [up, down] of [[0, 0], [0.05, 0.05], [0.15, 0.15], [0.25, 0.25], [0.5, 0.5], [0.2, 0], [0.35, 0.15], [0.6, 0.4]]) {
  const c = p.pairedStoppingCurve(ALPHA, up, down, M, 10, D);
  const delta = up - down;
  const wrongMatters = Math.abs(delta) < 1e-9 ? c.above[M] + c.below[M] : 0;
  const wrongNegligible = Math.abs(delta) >= D - 1e-9 ? c.negligible[M] : 0;
  worstNegligible = Math.max(worstNegligible, wrongNegligible);
  const settled = c.above[M] + c.below[M] + c.negligible[M];
  console.log(`${delta.toFixed(2).padStart(6)} ${String(up).padEnd(6)} ${String(down).padEnd(6)} ${pct(wrongMatters).padStart(15)} ${pct(wrongNegligible).padStart(19)} ${pct(settled).padStart(14)} ${c.expectedPairs.toFixed(1).padStart(10)}`);
}
console.log(`figure: ablation worst wrong "no effect beyond ±${D}" / α at δ = ±${D}, N ≤ ${M} = ${(worstNegligible / ALPHA).toFixed(3)} (goal ≤ 1)`);
