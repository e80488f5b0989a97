// What observation costs: a mock-tier trial (runHarness, one Bash call, a Read, a reply) observed
// (the default: strace --seccomp-bpf, the log read and tied to calls) against the same trial with
// `observe: false`; then a command of about 10 ms (`bash -c 'ls; sleep 0.01'`) under the
// observer's strace command line (and its log read) against the command alone. Each side is also
// measured under plain ptrace (strace without --seccomp-bpf), the mechanism not chosen, for the
// record. Interleaved rounds, the order rotating; each figure is the median of the per-round
// ratios, with their interquartile range (a loaded machine moves single rounds far). Prints
// figures, never asserts.
//
// The command figure is what a command pays inside an observed trial: strace starts once per
// trial, not per call, so the 10 ms command runs ten times in one traced shell (against ten times
// in an untraced one), the log read included. The same command run alone under a fresh strace
// (its start-up included) is printed beside it, for the record.
// Run: npm run build && node bench/observe.mjs   (BENCH_OBSERVE_TRIALS=N trial rounds, default 7;
// BENCH_OBSERVE_ROUNDS=N command rounds, default 21)
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveClaudeBinary, runHarness } from "../dist/harness/index.js";
import { observerSupport } from "../dist/harness/observe/observer.js";
import { readStraceLog } from "../dist/harness/observe/read-log.js";
import { straceArgs } from "../dist/harness/observe/strace-args.js";
import { startMockModel } from "../dist/mock-model/index.js";

const support = observerSupport();
if (!support.usable) {
  console.log(`observation is not available here (${support.reason}): nothing to measure`);
  console.log("figure: observe-trial-vs-unobserved = n/a (goal ≤ 1.1)");
  console.log("figure: observe-10ms-command-vs-plain = n/a (goal ≤ 2)");
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), "proctor-bench-observe-"));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Run `cases` in interleaved rounds, rotating who goes first; per case, its per-round ratios to case 0. */
async function interleave(cases, rounds) {
  const samples = cases.map(() => []);
  for (const [, run] of cases) await run(); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (let j = 0; j < cases.length; j++) {
      const i = (round + j) % cases.length;
      samples[i].push(await cases[i][1]());
    }
  }
  const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.round(q * (xs.length - 1))];
  return samples.map((s) => {
    const ratios = s.map((ms, r) => ms / samples[0][r]);
    return { ms: median(s), ratio: median(ratios), iqr: `${quantile(ratios, 0.25).toFixed(2)}–${quantile(ratios, 0.75).toFixed(2)}` };
  });
}

// A mock-tier trial.
const mock = await startMockModel();
const script = {
  turns: [{ tools: [{ name: "Bash", input: { command: "echo one > one.txt" } }] }, { tools: [{ name: "Read", input: { file_path: "one.txt" } }] }, { text: "Done." }],
};
const claude = resolveClaudeBinary();
// The plain-ptrace side: claude started through strace without --seccomp-bpf (observe: false, so only the mechanism differs).
const plainWrapper = join(dir, "claude-under-ptrace.sh");
writeFileSync(plainWrapper, `#!/bin/sh\nexec strace ${straceArgs(join(dir, "plain-trial.log"), false).map((a) => `'${a}'`).join(" ")} '${claude}' "$@"\n`);
chmodSync(plainWrapper, 0o755);
const trial = (extra) => async () => {
  const t0 = performance.now();
  const r = await runHarness({ prompt: "go", script, mock, allowedTools: ["Bash"], ...extra });
  const ms = performance.now() - t0;
  if (extra.observe !== false && !r.trace.toolCalls[0]?.observed) throw new Error("the observed trial recorded nothing for its Bash call");
  await r.cleanup();
  return ms;
};
const TRIALS = Number(process.env.BENCH_OBSERVE_TRIALS ?? 7);
const trials = await interleave(
  [
    ["unobserved (observe: false)", trial({ observe: false })],
    ["observed (strace --seccomp-bpf, log read and tied to calls)", trial({})],
    ["under plain ptrace (strace without --seccomp-bpf, no log reading)", trial({ observe: false, claudePath: plainWrapper })],
  ],
  TRIALS,
);
await mock.close();

// A 10 ms command.
const COMMAND = "ls; sleep 0.01";
const env = { PATH: process.env.PATH, HOME: dir };
const spawnMs = (file, args) => {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(file, args, { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
  if (r.status !== 0) throw new Error(`${file} exited ${r.status}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
};
const TEN = `for i in 1 2 3 4 5 6 7 8 9 10; do /bin/bash -c '${COMMAND}'; done`;
const traced = (seccomp, command) => () => {
  const log = join(dir, `cmd-${seccomp}.log`);
  const t0 = process.hrtime.bigint();
  spawnMs("strace", [...straceArgs(log, seccomp), "/bin/bash", "-c", command]);
  readStraceLog(log);
  return Number(process.hrtime.bigint() - t0) / 1e6;
};
const ROUNDS = Number(process.env.BENCH_OBSERVE_ROUNDS ?? 21);
const commands = await interleave(
  [
    ["ten times bash -c 'ls; sleep 0.01'", () => spawnMs("/bin/bash", ["-c", TEN])],
    ["the same under the observer (strace --seccomp-bpf, log read)", traced(true, TEN)],
    ["the same under plain ptrace (log read)", traced(false, TEN)],
  ],
  ROUNDS,
);
/**
 * CPU time (user + system) of `command` and everything it ran, from bash's `times`: what the
 * observer costs the machine, which a loaded machine's wall time hides behind waiting. strace runs
 * here without -D, as the command's parent, so its own time is counted.
 */
const cpuMs = (wrap) => () => {
  const log = join(dir, "cpu.log");
  const inner = wrap ? `strace ${straceArgs(log, true).filter((a) => a !== "-D").map((a) => `'${a}'`).join(" ")} /bin/bash -c "$1"` : `/bin/bash -c "$1"`;
  const r = spawnSync("/bin/bash", ["-c", `${inner}; times`, "bench", TEN], { cwd: dir, env, encoding: "utf8" });
  const children = r.stdout.trim().split("\n").at(-1)?.match(/(\d+)m([\d.]+)s (\d+)m([\d.]+)s/);
  if (r.status !== 0 || !children) throw new Error(`cpu measurement failed: ${r.stderr}`);
  return (Number(children[1]) * 60 + Number(children[2]) + Number(children[3]) * 60 + Number(children[4])) * 1000;
};
const cpu = await interleave(
  [
    ["CPU: ten times the 10 ms command", cpuMs(false)],
    ["CPU: the same under strace --seccomp-bpf", cpuMs(true)],
  ],
  ROUNDS,
);
const alone = await interleave(
  [
    ["bash -c 'ls; sleep 0.01'", () => spawnMs("/bin/bash", ["-c", COMMAND])],
    ["under a fresh strace --seccomp-bpf (its start-up included), log read", traced(true, COMMAND)],
  ],
  ROUNDS,
);

console.log(`mock-tier trial, medians of ${TRIALS} interleaved rounds (ratio: median of per-round ratios, IQR):`);
console.log(`  unobserved: ${trials[0].ms.toFixed(0)} ms`);
console.log(`  observed (seccomp-bpf): ${trials[1].ms.toFixed(0)} ms = ${trials[1].ratio.toFixed(3)}× unobserved (IQR ${trials[1].iqr})`);
console.log(`  plain ptrace: ${trials[2].ms.toFixed(0)} ms = ${trials[2].ratio.toFixed(3)}× unobserved (IQR ${trials[2].iqr})`);
console.log(`10 ms command ×10 in one shell, medians of ${ROUNDS} interleaved rounds:`);
console.log(`  plain: ${commands[0].ms.toFixed(1)} ms`);
console.log(`  observed (seccomp-bpf): ${commands[1].ms.toFixed(1)} ms = ${commands[1].ratio.toFixed(2)}× plain (IQR ${commands[1].iqr})`);
console.log(`  plain ptrace: ${commands[2].ms.toFixed(1)} ms = ${commands[2].ratio.toFixed(2)}× plain (IQR ${commands[2].iqr})`);
console.log(`CPU time of the ten (user + system, strace's own included): ${cpu[0].ms.toFixed(0)} ms plain, ${cpu[1].ms.toFixed(0)} ms observed = ${cpu[1].ratio.toFixed(2)}× (IQR ${cpu[1].iqr})`);
console.log(`10 ms command alone: ${alone[0].ms.toFixed(1)} ms; under a fresh strace ${alone[1].ms.toFixed(1)} ms = ${alone[1].ratio.toFixed(2)}× (IQR ${alone[1].iqr})`);
console.log(`figure: observe-trial-vs-unobserved = ${trials[1].ratio.toFixed(3)} (goal ≤ 1.1)`);
console.log(`figure: observe-10ms-command-vs-plain = ${commands[1].ratio.toFixed(2)} (goal ≤ 2)`);
console.log(`attribution: observe-trial-plain-ptrace-vs-unobserved = ${trials[2].ratio.toFixed(3)}`);
console.log(`attribution: observe-10ms-command-plain-ptrace-vs-plain = ${commands[2].ratio.toFixed(2)}`);
console.log(`attribution: observe-10ms-command-cpu-vs-plain = ${cpu[1].ratio.toFixed(2)}`);
console.log(`attribution: observe-10ms-command-alone-with-strace-start-vs-plain = ${alone[1].ratio.toFixed(2)}`);
rmSync(dir, { recursive: true, force: true });
