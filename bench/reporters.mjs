// The side-by-side: the same work — 200 recorded transcripts, 2 checks each — done four ways,
// each timed as a whole process (start-up included), best of a few runs:
//   0. proctor:  `proctor check` on the 200 transcripts with the 2 checks as JSON (the headline
//      figure: ÷ promptfoo alone, 3.)
//   1. proctor:  `proctor run` on an eval whose trials read the transcripts (measure + the checks)
//   2. promptfoo + proctor's bridge: 200 cases (echo provider returns the transcript), 2 javascript
//      assertions through proctor/promptfoo/assert.mjs
//   3. promptfoo alone: the echo provider with 2 native assertions (contains / not-contains)
// All three must agree case by case; the figures are printed, never asserted.
// The headline figure (0. ÷ 3.) is measured in paired rounds: each round runs promptfoo once and
// `proctor check` three times (their median) back to back, in alternating order, and the figure is
// the median over the rounds of the round's ratio, so a slow patch of a shared machine moves both
// sides of a ratio together; the quartiles of the per-round ratios are printed beside it.
// Every process runs in one scrubbed environment (PATH, HOME and promptfoo's switches): the
// shell's may carry start-up costs, such as NODE_EXTRA_CA_CERTS (a CA bundle every node process
// then reads, tens of ms), which would count once for promptfoo's one process and once for
// proctor's, and so weigh on the short side of the ratio only.
// Run: npm run build && node bench/reporters.mjs   (BENCH_REPS=N repetitions of the other rows,
// default 3; BENCH_ROUNDS=N paired rounds of the headline, default 7)
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
// Entry points as package.json names them, so the bench follows the package's layout.
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const mainEntry = join(root, typeof pkg.exports["."] === "string" ? pkg.exports["."] : pkg.exports["."].default);
const bin = join(root, typeof pkg.bin === "string" ? pkg.bin : pkg.bin.proctor);
const N = 200;
const REPS = Number(process.env.BENCH_REPS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const dir = mkdtempSync(join(tmpdir(), "proctor-bench-reporters-"));
const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? dir, NO_COLOR: "1", PROMPTFOO_DISABLE_TELEMETRY: "1", PROMPTFOO_DISABLE_UPDATE: "1", PROMPTFOO_CONFIG_DIR: join(dir, "promptfoo-home") };

// 200 recorded transcripts: the recorded fixtures, cycled, each with its own session id.
const fixtures = join(root, "test/fixtures/transcripts");
const sources = readdirSync(fixtures).filter((f) => f.endsWith(".jsonl")).sort().map((f) => readFileSync(join(fixtures, f), "utf8"));
mkdirSync(join(dir, "t"));
const files = [];
for (let i = 0; i < N; i++) {
  const file = join(dir, "t", `run-${String(i).padStart(3, "0")}.jsonl`);
  writeFileSync(file, sources[i % sources.length].replace(/"session_id":"[^"]*"/g, `"session_id":"bench-${i}"`));
  files.push(file);
}

// 1. proctor: one eval, 200 trials, each reading one transcript.
const evalFile = join(dir, "transcripts.eval.mjs");
writeFileSync(
  evalFile,
  `import { defineEval, notTool, readTranscript, tool } from ${JSON.stringify(mainEntry)};
const files = ${JSON.stringify(files)};
export default defineEval({ name: "recorded", run: (i) => readTranscript(files[i]), checks: [notTool("Write"), tool("Bash")], trials: files.length, thresholds: { min: 0 } });
`,
);
const proctorJson = join(dir, "proctor.json");
const checksJson = join(dir, "checks.json");
writeFileSync(checksJson, JSON.stringify([{ kind: "notTool", name: "Write" }, { kind: "tool", name: "Bash" }]));

// 2 and 3: promptfoo configs (JSON is valid YAML).
const assertModule = `file://${join(root, "promptfoo/assert.mjs")}`;
const bridged = () => [
  { type: "javascript", value: assertModule, config: { checks: [{ kind: "notTool", name: "Write" }] } },
  { type: "javascript", value: assertModule, config: { checks: [{ kind: "tool", name: "Bash" }] } },
];
const native = () => [
  { type: "not-contains", value: '"name":"Write"' },
  { type: "contains", value: '"name":"Bash"' },
];
const config = (asserts) => ({ prompts: ["{{transcript}}"], providers: ["echo"], tests: files.map((f, i) => ({ description: `run ${i}`, vars: { transcript: `file://${f}` }, assert: asserts(f) })) });
writeFileSync(join(dir, "bridge.yaml"), JSON.stringify(config(bridged)));
writeFileSync(join(dir, "native.yaml"), JSON.stringify(config(native)));

/** One whole process: its wall time in ms and what it wrote; exits the bench if the process failed. */
function once(label, command, args) {
  const t0 = performance.now();
  const r = spawnSync(command, args, { cwd: dir, env, encoding: "utf8", maxBuffer: 1 << 28 });
  const ms = performance.now() - t0;
  if (![0, 1, 100].includes(r.status) || r.error) {
    console.log(`${label}: exited ${r.status}\n${r.stderr.slice(-2000)}`);
    process.exit(1);
  }
  return { ms, stdout: r.stdout };
}

function run(label, command, args, reps = REPS) {
  const times = [];
  let last;
  for (let r = 0; r < reps; r++) {
    last = once(label, command, args);
    times.push(last.ms);
  }
  return { label, ms: Math.min(...times), all: times, stdout: last.stdout };
}

const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.round(q * (xs.length - 1)))];
const median = (xs) => quantile(xs, 0.5);

/**
 * `proctor check` and promptfoo alone in paired rounds (see the header): each side's times, and
 * each round's ratio (the median of its three `proctor check` runs ÷ its promptfoo run).
 */
function pairedRounds(check, native) {
  const checkRuns = [];
  const nativeRuns = [];
  const ratios = [];
  let checkOut;
  once(check.label, ...check.cmd); // warm the file cache and the code cache
  for (let r = 0; r < ROUNDS; r++) {
    const threeChecks = () => [0, 1, 2].map(() => once(check.label, ...check.cmd));
    let checks;
    let nat;
    if (r % 2) {
      checks = threeChecks();
      nat = once(native.label, ...native.cmd);
    } else {
      nat = once(native.label, ...native.cmd);
      checks = threeChecks();
    }
    checkOut = checks[2].stdout;
    checkRuns.push(...checks.map((c) => c.ms));
    nativeRuns.push(nat.ms);
    ratios.push(median(checks.map((c) => c.ms)) / nat.ms);
  }
  return {
    check: { label: check.label, ms: median(checkRuns), all: checkRuns, stdout: checkOut },
    native: { label: native.label, ms: median(nativeRuns), all: nativeRuns },
    ratio: median(ratios),
    q1: quantile(ratios, 0.25),
    q3: quantile(ratios, 0.75),
  };
}

const PROMPTFOO = join(root, "node_modules/.bin/promptfoo");
const promptfoo = (cfg, out) => ["eval", "-c", join(dir, cfg), "--no-cache", "--no-write", "--no-table", "--no-progress-bar", "-o", join(dir, out)];
const promptfooStartup = () => {
  writeFileSync(join(dir, "one.yaml"), JSON.stringify({ ...config(native), tests: config(native).tests.slice(0, 1) }));
  return run("promptfoo start-up: echo, 1 case", PROMPTFOO, promptfoo("one.yaml", "one.json"));
};
const headline = pairedRounds(
  { label: "proctor check (200 transcripts × 2 checks)", cmd: [process.execPath, [bin, "check", ...files, "--checks", checksJson, "--json"]] },
  { label: "promptfoo echo + native assertions (200 cases × 2)", cmd: [PROMPTFOO, promptfoo("native.yaml", "native.json")] },
);
const results = [
  headline.check,
  run("proctor run (measure, 200 trials × 2 checks)", process.execPath, [bin, "run", evalFile, "--quiet", "--json", proctorJson]),
  run("promptfoo + proctor bridge (200 cases × 2 js assertions)", PROMPTFOO, promptfoo("bridge.yaml", "bridge.json")),
  headline.native,
];
const startup = [
  run("proctor start-up: proctor run, 1 trial", process.execPath, [bin, "run", evalFile, "--quiet", "--trials", "1"]),
  promptfooStartup(),
];

// Agreement: every case's verdict must be the same three ways (else the comparison is meaningless).
const [report] = JSON.parse(readFileSync(proctorJson, "utf8")); // one report per eval, always an array
const proctorPass = Array.from({ length: N }, (_, i) => report.checks.every((c) => c.outcomes[i] === "1"));
const promptfooPass = (out) => {
  const rows = JSON.parse(readFileSync(join(dir, out), "utf8")).results.results;
  const byIndex = new Array(N);
  for (const r of rows) byIndex[Number(r.testCase.description.split(" ")[1])] = r.success;
  return byIndex;
};
const agreeBridge = promptfooPass("bridge.json").every((p, i) => p === proctorPass[i]);
const agreeNative = promptfooPass("native.json").every((p, i) => p === proctorPass[i]);
const checkRuns = JSON.parse(results[0].stdout);
const agreeCheck = checkRuns.length === N && checkRuns.every((r, i) => r.pass === proctorPass[i]);

const base = results[1].ms;
console.log(`${N} recorded transcripts (${sources.length} distinct recordings), 2 checks each; whole-process wall time, scrubbed environment`);
console.log(`(proctor check and promptfoo alone: medians over ${ROUNDS} paired rounds; the other rows: best of ${REPS})`);
for (const r of [...results, ...startup]) {
  console.log(`  ${r.label.padEnd(58)} ${(r.ms / 1000).toFixed(2).padStart(7)} s   (runs: ${r.all.map((t) => (t / 1000).toFixed(2)).join(", ")})`);
}
console.log(`  ratio promptfoo+bridge / proctor run: ${(results[2].ms / base).toFixed(1)}×`);
console.log(`  ratio promptfoo native / proctor run: ${(results[3].ms / base).toFixed(1)}×`);
console.log(`  per-round ratios proctor check / promptfoo alone: median ${headline.ratio.toFixed(3)}, quartiles ${headline.q1.toFixed(3)}–${headline.q3.toFixed(3)}`);
console.log(`figure: proctor check / promptfoo eval, 200 transcripts × 2 checks = ${headline.ratio.toFixed(3)} (goal ≤ 0.04)`);
// For scale: the same work inside one process (read 200 transcripts, measure 2 checks), no start-up.
const p = await import(mainEntry);
let inProcess = Infinity;
for (let r = 0; r < REPS; r++) {
  const t0 = performance.now();
  await p.measure({ run: (i) => p.readTranscript(files[i]), checks: [p.notTool("Write"), p.tool("Bash")], trials: N, progress: false });
  inProcess = Math.min(inProcess, performance.now() - t0);
}
console.log(`  in-process, no start-up: readTranscript + measure over ${N} transcripts: ${inProcess.toFixed(1)} ms (${((inProcess * 1000) / N).toFixed(0)} µs a trace)`);
console.log(`  verdicts agree case by case: proctor check ${agreeCheck ? "yes" : "NO"}, bridge ${agreeBridge ? "yes" : "NO"}, native ${agreeNative ? "yes" : "NO"} (${proctorPass.filter(Boolean).length}/${N} cases pass both checks)`);
rmSync(dir, { recursive: true, force: true });
