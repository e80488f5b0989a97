// Harness figures: one runHarness run as a whole process (node, import, its own mock, the run)
// ÷ a bare `claude -p` with the same flags and environment against a mock; then the same in one
// warm process; then the mock's per-request latency (p50/p99) while 8 runs share it. Prints
// figures, never asserts.
//
// Method. The sides run interleaved, round by round (the side that goes first rotates), after one
// warm-up run each, so a noisy machine slows both sides of a round alike. The figure is the median
// of the per-round ratios (each round's run ÷ that round's bare run), with their interquartile
// range, not a ratio of medians: a slow stretch of the machine then moves both terms of a ratio,
// and the spread printed says how far to trust the figure.
//
// Environment. Both sides run with one environment: this process's, less NODE_EXTRA_CA_CERTS and
// NODE_OPTIONS, removed at start. A node process reads NODE_EXTRA_CA_CERTS as it boots (with a
// system bundle, some 60 ms per start) and the bare side, a native binary, would not pay it; a
// shell that sets it would otherwise be measured instead of proctor. The bench says which it
// removed.
//
// Run: npm run build && node bench/harness.mjs   (BENCH_ROUNDS=N rounds per figure, default 25,
// about two minutes; BENCH_BASE=<another built checkout> adds its runHarness process to the same
// rounds, for before/after)
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { resolveClaudeBinary, runHarness } from "../dist/harness/index.js";
import { buildArgs } from "../dist/harness/claude/run-harness.js";
import { buildChildEnv } from "../dist/harness/claude/env.js";
import { startMockModel } from "../dist/mock-model/index.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 25);
/** Start-up costs of a node process that a native binary does not pay: not this bench's subject. */
const SCRUBBED = ["NODE_EXTRA_CA_CERTS", "NODE_OPTIONS"].filter((name) => process.env[name] !== undefined);
for (const name of SCRUBBED) delete process.env[name];
const CONCURRENT = 8;
const root = fileURLToPath(new URL("..", import.meta.url));
const base = process.env.BENCH_BASE ? path.resolve(process.env.BENCH_BASE) : undefined;
const script = {
  turns: [
    { tools: [{ name: "Bash", input: { command: "echo one > one.txt" } }] },
    { tools: [{ name: "Read", input: { file_path: "one.txt" } }] },
    { text: "Done." },
  ],
};

/**
 * What a user's one-run script does: import proctor/harness, run once, clean up. It also prints
 * how long the CLI itself ran (the result's durationMs), so the bench can tell proctor's own time
 * in the process from the CLI's.
 */
const HARNESS_PROCESS = `
import { runHarness } from "proctor/harness";
runHarness({ prompt: "bench", script: JSON.parse(process.env.BENCH_SCRIPT) }).then((r) => { process.stdout.write(String(r.durationMs)); return r.cleanup(); });`;

/** Wall time of each run as a process, and of the CLI inside it (ms). */
const cliTimes = new Map();

/** Resolves with the wall time of `cmd args` until it exits (ms); rejects on a non-zero exit. */
function timed(cmd, args, options, input) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...options, stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.stdin.end(input ?? "");
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`${cmd} exited ${code}: ${stderr.slice(-500)}`));
      const ms = performance.now() - started;
      if (options.cliTime) options.cliTime.push([ms, Number(stdout)]);
      resolve(ms);
    });
  });
}

/**
 * Runs `start(argv, cwd, env)` for claude as runHarness would run it — its argv and environment,
 * fresh dirs, a run registered on the shared mock — made before the clock starts; removes them after.
 */
async function withRunDirs(mock, start) {
  const run = mock.addRun(script);
  const tmp = mkdtempSync(path.join(tmpdir(), "proctor-bench-"));
  const dirs = { root: tmp, workDir: path.join(tmp, "work"), home: path.join(tmp, "home"), configDir: path.join(tmp, "home", ".claude"), tmpDir: path.join(tmp, "tmp"), mcpServers: [] };
  for (const d of [dirs.workDir, dirs.configDir, dirs.tmpDir]) mkdirSync(d, { recursive: true });
  const env = buildChildEnv(process.env, undefined, { home: dirs.home, tmp: dirs.tmpDir, configDir: dirs.configDir, baseUrl: mock.url, apiKey: run.apiKey, maxRetries: 2 });
  try {
    return await start(buildArgs({}, dirs, root), dirs.workDir, env);
  } finally {
    run.remove();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** A bare run: the binary runHarness uses, with its argv and environment, in fresh dirs — and nothing else. */
function bareRun(mock, binary) {
  return withRunDirs(mock, (args, cwd, env) => timed(binary, args, { cwd, env }, "bench"));
}

/**
 * The floor of any node library that runs claude: a node process that only spawns the same
 * `claude -p` (same argv, environment and fresh dirs, made beforehand) and waits for it. Node's
 * own start is in every runHarness process and in no bare run; proctor's cost is what the
 * runHarness process adds above this.
 */
const FLOOR_PROCESS = `
const { binary, args, cwd, env } = JSON.parse(process.env.BENCH_FLOOR);
require("node:child_process").spawn(binary, args, { cwd, env, stdio: "inherit" }).on("close", (code) => { process.exitCode = code ?? 1; });`;

function floorRun(mock, binary) {
  return withRunDirs(mock, (args, cwd, env) => timed(process.execPath, ["-e", FLOOR_PROCESS], { cwd, env: { ...process.env, BENCH_FLOOR: JSON.stringify({ binary, args, cwd, env }) } }, "bench"));
}

/** One runHarness run as its own process, as a user's one-run script would be (`proctor` resolves to the build in `dir`). */
function harnessProcess(dir = root) {
  if (!cliTimes.has(dir)) cliTimes.set(dir, []);
  return timed(process.execPath, ["--input-type=module", "-e", HARNESS_PROCESS], { cwd: dir, env: { ...process.env, BENCH_SCRIPT: JSON.stringify(script) }, cliTime: cliTimes.get(dir) });
}

async function harnessRun(mock) {
  const started = performance.now();
  const result = await runHarness({ mock, prompt: "bench", script });
  await result.cleanup();
  return performance.now() - started;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/** Warm every side once, then ROUNDS rounds, rotating which side goes first; each side's times. */
async function interleaved(...sides) {
  for (const side of sides) await side();
  const times = sides.map(() => []);
  for (let i = 0; i < ROUNDS; i++) {
    for (let j = 0; j < sides.length; j++) {
      const k = (i + j) % sides.length;
      times[k].push(await sides[k]());
    }
  }
  return times;
}

/** Each round's `xs` ÷ that round's `bare`: the rounds ran interleaved, so a pair shared the machine's mood. */
const ratios = (xs, bare) => xs.map((x, i) => x / bare[i]);

function report(title, label, xs, bare, goal, figure) {
  const r = ratios(xs, bare);
  console.log(title);
  console.log(`  bare claude -p  median ${median(bare).toFixed(0)} ms  (min ${Math.min(...bare).toFixed(0)}, max ${Math.max(...bare).toFixed(0)})`);
  console.log(`  ${label.padEnd(15)} median ${median(xs).toFixed(0)} ms  (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})`);
  console.log(`  per-round ratio median ${median(r).toFixed(3)}  (interquartile ${pct(r, 25).toFixed(3)}–${pct(r, 75).toFixed(3)}; ratio of medians ${(median(xs) / median(bare)).toFixed(3)})${goal ? `  (goal ≤ ${goal})` : ""}`);
  if (figure) console.log(`figure: ${figure} = ${median(r).toFixed(2)} (goal ≤ ${goal})`);
}

async function main() {
  const latencies = [];
  const mock = await startMockModel({ onAnswer: (a) => a.method === "POST" && latencies.push(a.ms) });
  const binary = resolveClaudeBinary();
  console.log(`environment: this shell's${SCRUBBED.length ? `, less ${SCRUBBED.join(" and ")}` : ""}, for both sides; ${ROUNDS} rounds per figure`);

  const [bareA, floors, processes, baseProcesses] = await interleaved(() => bareRun(mock, binary), () => floorRun(mock, binary), () => harnessProcess(), ...(base ? [() => harnessProcess(base)] : []));
  report(`runHarness as a whole process vs bare claude -p, same flags and env (${ROUNDS} interleaved rounds, 3-turn script)`, "runHarness proc", processes, bareA, "1.05", "runHarness process / bare claude -p");
  const floorRatios = ratios(floors, bareA);
  console.log(`  the floor, node spawning the same claude -p and nothing else: median ${median(floors).toFixed(0)} ms, per-round ratio median ${median(floorRatios).toFixed(3)} (interquartile ${pct(floorRatios, 25).toFixed(3)}–${pct(floorRatios, 75).toFixed(3)})`);
  console.log(`floor: runHarness process / bare claude -p = ${median(floorRatios).toFixed(2)} (node spawning the same claude -p)`);
  /** Proctor's own time in a one-run process: the process's wall time less the CLI's run (node start, import, setup, reading, cleanup, exit). */
  const own = (dir) => median(cliTimes.get(dir).slice(1).map(([wall, cli]) => wall - cli)).toFixed(0);
  console.log(`  proctor's own time in the process (wall − the CLI's run): median ${own(root)} ms${base ? `; BENCH_BASE ${own(base)} ms` : ""}`);
  if (baseProcesses) {
    console.log(`  BENCH_BASE      median ${median(baseProcesses).toFixed(0)} ms, per-round ratio median ${median(ratios(baseProcesses, bareA)).toFixed(3)}  (${base})`);
    const r = ratios(processes, baseProcesses);
    console.log(`  this ÷ BENCH_BASE, per round: median ${median(r).toFixed(3)}  (interquartile ${pct(r, 25).toFixed(3)}–${pct(r, 75).toFixed(3)})`);
  }

  const [bareB, runs] = await interleaved(() => bareRun(mock, binary), () => harnessRun(mock));
  report(`runHarness in a warm process vs bare claude -p (${ROUNDS} interleaved rounds)`, "runHarness", runs, bareB);

  latencies.length = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENT }, () => harnessRun(mock)));
  const wall = performance.now() - started;
  console.log(`mock latency per request, ${CONCURRENT} concurrent runs (${latencies.length} requests, ${(wall / 1000).toFixed(1)} s wall)`);
  console.log(`  p50 ${pct(latencies, 50).toFixed(2)} ms   p99 ${pct(latencies, 99).toFixed(2)} ms   max ${Math.max(...latencies).toFixed(2)} ms`);
  await mock.close();
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
