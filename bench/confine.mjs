// What confinement costs per command: a command of about 10 ms (`sleep 0.01`) run as Claude Code's
// shell runs it (`bash -c`), against the same command through the gate's rewrite (bubblewrap,
// seccomp allowlist, Landlock through perl, the shell's functions exported), and against the whole path — `proctor gate` deciding
// the call (a node process) and then the rewrite. Each a ratio to `bash -c` alone, the median of
// each round's own ratio over interleaved rounds with the order rotating. Prints figures, never
// asserts. Linux with bubblewrap only (prints n/a elsewhere).
// Run: npm run build && node bench/confine.mjs   (BENCH_CONFINE_ROUNDS=N, default 21)
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const here = new URL("..", import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(here, "package.json"), "utf8"));
const CLI = join(here, typeof pkg.bin === "string" ? pkg.bin : pkg.bin.proctor);
const { findOnPath } = await import("../dist/src/policy/confine-preflight.js");
const { bwrapRewrite } = await import("../dist/src/policy/confine-shell.js");
const { confineCommand, pathPrefixes } = await import("../dist/src/policy/confine.js");

const bwrap = findOnPath("bwrap", process.env.PATH);
if (!bwrap || spawnSync(bwrap, ["--ro-bind", "/", "/", "true"]).status !== 0) {
  console.log("bubblewrap is not available here: nothing to measure");
  console.log("figure: confine-gate-plus-sandbox-vs-bash = n/a (goal ≤ 2)");
  console.log("figure: confine-sandbox-vs-bash = n/a (goal ≤ 2)");
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), "proctor-bench-confine-"));
writeFileSync(join(dir, "notes.txt"), "hello\n");
// One stated environment for every case (the shell's may carry start-up costs such as NODE_EXTRA_CA_CERTS).
const env = { PATH: process.env.PATH, HOME: dir };
const COMMAND = "sleep 0.01";
const payload = JSON.stringify({ hook_event_name: "PreToolUse", session_id: "s", tool_name: "Bash", tool_input: { command: COMMAND }, tool_use_id: "t", cwd: dir });

/** Wall time of one process in ms; a failure ends the bench (a figure from failing runs means nothing). */
function spawnMs(file, args, input) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(file, args, { cwd: dir, env, input, encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${file} ${args.join(" ").slice(0, 80)} exited ${r.status}: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

// The gate passes its environment: PATH's install prefixes are shown in the jail, as in a real run.
const rewrite = bwrapRewrite(COMMAND, dir, bwrap, env);
const noPerl = confineCommand(COMMAND, { cwd: dir, bwrap, visible: pathPrefixes(env.PATH, env.HOME), perl: false });
const cases = [
  ["bash -c 'sleep 0.01'", () => spawnMs("/bin/bash", ["-c", COMMAND]).ms],
  ["the same through the gate's rewrite (bubblewrap)", () => spawnMs("/bin/bash", ["-c", rewrite]).ms],
  [
    "proctor gate --purity bounded deciding it, then the rewrite it answered",
    () => {
      const gate = spawnMs(process.execPath, [CLI, "gate", "--purity", "bounded"], payload);
      const command = JSON.parse(gate.stdout).hookSpecificOutput.updatedInput.command;
      return gate.ms + spawnMs("/bin/bash", ["-c", command]).ms;
    },
  ],
  ["for attribution: the jail's form where there is no perl (a bash prelude, bwrap loads seccomp, no Landlock)", () => spawnMs("/bin/bash", ["-c", noPerl]).ms],
  ["for attribution: bubblewrap alone, with nothing set up inside", () => spawnMs(bwrap, ["--unshare-all", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "/bin/bash", "-c", COMMAND]).ms],
  ["the floor: node running an empty file, then bash -c", () => spawnMs(process.execPath, [join(dir, "empty.cjs")]).ms + spawnMs("/bin/bash", ["-c", COMMAND]).ms],
];
writeFileSync(join(dir, "empty.cjs"), "");

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ROUNDS = Number(process.env.BENCH_CONFINE_ROUNDS ?? 21);
const samples = cases.map(() => []);
for (let w = 0; w < 2; w++) for (const [, run] of cases) run();
for (let round = 0; round < ROUNDS; round++) {
  cases.forEach((_, j) => {
    const i = (round + j) % cases.length;
    samples[i].push(cases[i][1]());
  });
}
const ratio = (i) => median(samples[i].map((ms, round) => ms / samples[0][round]));
console.log(`medians of ${ROUNDS} interleaved rounds:`);
for (const [i, [label]] of cases.entries()) console.log(`  ${label}: ${median(samples[i]).toFixed(1)} ms${i === 0 ? "" : ` = ${ratio(i).toFixed(2)}× bash -c`}`);
console.log(`figure: confine-sandbox-vs-bash = ${ratio(1).toFixed(2)} (goal ≤ 2)`);
console.log(`figure: confine-gate-plus-sandbox-vs-bash = ${ratio(2).toFixed(2)} (goal ≤ 2)`);
console.log(`attribution: confine-sandbox-without-perl-vs-bash = ${ratio(3).toFixed(2)}`);
console.log(`attribution: bwrap-alone-vs-bash = ${ratio(4).toFixed(2)} (the floor of any bubblewrap jail)`);
console.log(`floor: confine-gate-plus-sandbox-vs-bash = ${ratio(5).toFixed(2)} (node running an empty file, then bash -c: any node hook pays it)`);
rmSync(dir, { recursive: true, force: true });
