// Early stopping, computed exactly (every (passes, n) pushed forward, no sampling noise): for a
// true rate sitting at the gate's minimum (the hardest case), the chance of a wrong stop by every
// N = 10…1000 for the anytime-valid rule proctor uses and for the rule it replaced (a Wilson
// interval looked at after every trial); then, at equal power, the trials early stopping uses on
// average against the fixed-N exact test. Prints figures, never asserts (test/stats/sequential.test.ts does).
// Run: npm run build && node bench/stopping.mjs   (BENCH_STOP_N=1000)
import * as p from "../dist/src/index.js";

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
