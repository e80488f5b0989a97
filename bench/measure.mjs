// measure's own cost: per-trial overhead with a trivial run function at concurrency 8, as a ratio
// against bare loops calling the same run function; and peak retained heap for 10,000 vs 1,000
// trials, each size in a fresh child process with --expose-gc. Prints figures, never asserts.
// Run: npm run build && node bench/measure.mjs
import { spawnSync } from "node:child_process";
import * as p from "../dist/src/index.js";

const trace = {
  version: 1,
  source: { kind: "synthetic", agentVersion: "2.1.197", model: "m" },
  complete: true,
  toolCalls: [{ id: "t1", name: "Bash", input: { command: "ls" }, status: "success", agent: "main" }],
  subagents: [],
  skills: [],
  hooks: [],
  replies: [],
  errors: [],
  usage: { costUsd: 0.001, durationMs: 10, inputTokens: 10, outputTokens: 5, cacheCreationTokens: 0, cacheReadTokens: 0 },
};
const checks = [p.tool("Bash"), p.notTool("Bash", { command: /rm -rf/ })];
const run = async () => trace;

if (process.argv[2] === "--heap") {
  // Child: peak retained heap over one measurement of N trials (gc before every sample).
  const n = Number(process.argv[3]);
  let peak = 0;
  const sample = () => {
    globalThis.gc();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  };
  sample();
  const before = peak;
  await p.measure({ run: async (i) => (i % 100 === 0 && sample(), trace), checks, trials: n, concurrency: 8, progress: false });
  sample();
  process.stdout.write(JSON.stringify({ n, before, peak }));
  process.exit(0);
}

const N = 20_000;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function time(fn, reps = 7) {
  await fn();
  const out = [];
  for (let r = 0; r < reps; r++) {
    const t0 = process.hrtime.bigint();
    await fn();
    out.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(out);
}

const bare = await time(async () => {
  for (let i = 0; i < N; i++) await run(i);
});
const bareEval = await time(async () => {
  for (let i = 0; i < N; i++) p.evalChecks(await run(i), checks);
});
const measured = await time(() => p.measure({ run, checks, trials: N, concurrency: 8, progress: false }));
const perTrial = (ms) => (ms / N).toFixed(4);
console.log(`measure, ${N} trivial trials, 2 checks, concurrency 8: ${perTrial(measured)} ms/trial (target ≤ 0.1 ms/trial)`);
console.log(`  bare loop awaiting run():                 ${perTrial(bare)} ms/trial → measure is ${(measured / bare).toFixed(1)}×, +${perTrial(measured - bare)} ms/trial`);
console.log(`  bare loop awaiting run() + evalChecks():  ${perTrial(bareEval)} ms/trial → measure is ${(measured / bareEval).toFixed(1)}×, +${perTrial(measured - bareEval)} ms/trial of its own`);

const heap = (n) => JSON.parse(spawnSync(process.execPath, ["--expose-gc", new URL(import.meta.url).pathname, "--heap", String(n)], { encoding: "utf8" }).stdout);
const small = heap(1_000);
const large = heap(10_000);
const mb = (b) => (b / 1024 / 1024).toFixed(2);
console.log(`peak retained heap: 1,000 trials ${mb(small.peak)} MB, 10,000 trials ${mb(large.peak)} MB → ratio ${(large.peak / small.peak).toFixed(3)} (target ≤ 1.2)`);
console.log(`  growth over the heap before measuring: 1,000 trials +${mb(small.peak - small.before)} MB, 10,000 trials +${mb(large.peak - large.before)} MB`);
