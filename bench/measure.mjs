// measure's own cost: per-trial overhead with a trivial run function at concurrency 8, as a ratio
// against bare loops calling the same run function; peak retained heap for 10,000 vs 1,000
// trials, each size in a fresh child process with --expose-gc; and scaling with the real harness
// on the mock: wall per trial of 100 trials at concurrency = cores against one trial alone, in a
// child run with --trace-warnings that fails loudly on a listener leak, a run error, a leftover
// temp dir or leaked file descriptors. Prints figures, never asserts.
// Run: npm run build && node bench/measure.mjs   (BENCH_HARNESS_TRIALS=N; default 100)
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
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

if (process.argv[2] === "--harness") await harnessScaling(Number(process.argv[3]));

/** Child: one trial alone (median of 3), then `trials` trials at concurrency = cores, the real harness on one mock. */
async function harnessScaling(trials) {
  const warnings = [];
  process.on("warning", (w) => warnings.push(w));
  const { runHarness } = await import("../dist/harness/index.js");
  const { startMockModel } = await import("../dist/mock-model/index.js");
  const cores = availableParallelism();
  const mock = await startMockModel();
  const script = { turns: [{ tools: [{ name: "Bash", input: { command: "echo one > one.txt" } }] }, { text: "Done." }] };
  const run = async () => {
    const r = await runHarness({ mock, prompt: "bench", script, files: { "a.txt": "x" } });
    await r.cleanup();
    return r.trace;
  };
  const fds = () => readdirSync("/proc/self/fd").length;
  await run(); // warm the page cache and the per-process lookups
  const fdsBefore = fds();
  const alone = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    await run();
    alone.push(performance.now() - t0);
  }
  const t0 = performance.now();
  const report = await p.measure({ run, checks: [p.tool("Bash")], trials, concurrency: cores, progress: false });
  const wall = performance.now() - t0;
  await mock.close();
  const errors = report.checks[0].outcomes.split("").filter((o) => o !== "1").length;
  const fdsAfter = fds();
  process.stdout.write(JSON.stringify({ cores, trials, alone: median(alone), wall, errors, fdsBefore, fdsAfter, warnings: warnings.map((w) => `${w.name}: ${w.message}`) }));
  process.exit(0);
}

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
  await p.measure({ run: async (i) => {
    if (i % 100 === 0) sample();
    return trace;
  }, checks, trials: n, concurrency: 8, progress: false });
  sample();
  process.stdout.write(JSON.stringify({ n, before, peak }));
  process.exit(0);
}

const N = 20_000;
function median(xs) {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}
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

// Scaling with the real harness: per-trial wall at concurrency = cores × cores ÷ one trial alone
// (1 = linear speed-up; a queue, a lock or a leak shows as a larger number), and nothing may leak.
const TRIALS = Number(process.env.BENCH_HARNESS_TRIALS ?? 100);
// The child gets a temp folder of its own, so whatever is left in it afterwards is its leak.
const childTmp = mkdtempSync(`${tmpdir()}/proctor-bench-measure-`);
const child = spawnSync(process.execPath, ["--trace-warnings", new URL(import.meta.url).pathname, "--harness", String(TRIALS)], {
  encoding: "utf8",
  maxBuffer: 1 << 26,
  env: { ...process.env, TMPDIR: childTmp },
});
const tempLeft = readdirSync(childTmp).length;
rmSync(childTmp, { recursive: true, force: true });
if (child.status !== 0) {
  console.log(`measure with the real harness, ${TRIALS} trials: FAILED (exit ${child.status})\n${child.stderr.slice(-3000)}`);
  process.exit(1);
}
const s = JSON.parse(child.stdout);
const harnessPerTrial = s.wall / s.trials;
console.log(`measure with the real harness on the mock, ${s.trials} trials at concurrency ${s.cores} (= cores): ${(s.wall / 1000).toFixed(1)} s wall, ${harnessPerTrial.toFixed(0)} ms/trial; one trial alone ${s.alone.toFixed(0)} ms`);
console.log(`  errors ${s.errors}, file descriptors ${s.fdsBefore} → ${s.fdsAfter}, temp dirs left ${tempLeft}, warnings ${s.warnings.length ? s.warnings.join("; ") : "none"}`);
const leaks = [
  ...(s.errors ? [`${s.errors} trials failed`] : []),
  ...s.warnings.filter((w) => w.startsWith("MaxListenersExceededWarning")),
  ...(s.fdsAfter > s.fdsBefore + 2 ? [`file descriptors grew ${s.fdsBefore} → ${s.fdsAfter}`] : []),
  ...(tempLeft > 0 ? [`${tempLeft} temp files or dirs left behind`] : []),
];
console.log(`figure: measure wall per trial at concurrency = cores / (1 trial / cores), ${s.trials} trials = ${leaks.length ? "n/a" : ((harnessPerTrial * s.cores) / s.alone).toFixed(2)} (goal ≤ 1.25)`);
if (leaks.length) {
  console.log(`MEASURE WITH THE REAL HARNESS LEAKS OR FAILS: ${leaks.join("; ")}`);
  process.exitCode = 1;
}
