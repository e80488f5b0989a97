// What the whole-trial jail costs: one mock-tier trial (a Bash call, a Read, a reply) run by
// runHarness in proctor's jail (the default: bubblewrap around claude's whole tree, the mock through
// a unix socket and socat, two seccomp stages, Landlock) ÷ the same trial with `sandbox: { off }`,
// in one warm process against one mock. The sides run interleaved, the side that goes first
// rotating, after a warm-up each; the figure is the median of the per-round ratios (with their
// interquartile range), so a slow stretch of the machine moves both terms alike. Prints figures,
// never asserts. Linux with bubblewrap and socat only (prints n/a elsewhere).
// Run: npm run build && node bench/trial-jail.mjs   (BENCH_JAIL_ROUNDS=N, default 15)
import { runHarness } from "../dist/harness/index.js";
import { sandboxMissing } from "../dist/harness/claude/sandbox.js";
import { startMockModel } from "../dist/mock-model/index.js";

const missing = process.platform === "linux" ? sandboxMissing(process.env, "linux", "jail") : ["Linux"];
if (missing.length > 0) {
  console.log(`the jail cannot run here (${missing.join("; ")}): nothing to measure`);
  console.log("figure: trial-jail-vs-unjailed = n/a (goal ≤ 1.15)");
  process.exit(0);
}

const ROUNDS = Number(process.env.BENCH_JAIL_ROUNDS ?? 15);
const script = {
  turns: [
    { tools: [{ name: "Bash", input: { command: "echo one > one.txt" } }] },
    { tools: [{ name: "Read", input: { file_path: "one.txt" } }] },
    { text: "Done." },
  ],
};
const mock = await startMockModel();

/** Wall time of one trial (ms), from the call to its cleaned-up result; a failed trial ends the bench. */
async function trial(jailed) {
  const started = performance.now();
  const r = await runHarness({ prompt: "bench", script, mock, allowedTools: ["Bash"], ...(jailed ? {} : { sandbox: { off: "bench: the unjailed side" } }) });
  const ms = performance.now() - started;
  if (r.trace.confinement?.mode !== (jailed ? "jail" : "off")) throw new Error(`the ${jailed ? "jailed" : "unjailed"} side ran with confinement ${JSON.stringify(r.trace.confinement)}`);
  await r.cleanup();
  return ms;
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  const i = (s.length - 1) * q;
  return s[Math.floor(i)] + (s[Math.ceil(i)] - s[Math.floor(i)]) * (i - Math.floor(i));
};
await trial(true);
await trial(false);
const jailed = [];
const bare = [];
for (let round = 0; round < ROUNDS; round++) {
  if (round % 2 === 0) {
    jailed.push(await trial(true));
    bare.push(await trial(false));
  } else {
    bare.push(await trial(false));
    jailed.push(await trial(true));
  }
}
const ratios = jailed.map((ms, i) => ms / bare[i]);
console.log(`medians of ${ROUNDS} interleaved rounds: jailed ${quantile(jailed, 0.5).toFixed(0)} ms, sandbox off ${quantile(bare, 0.5).toFixed(0)} ms`);
console.log(`  per-round ratio: median ${quantile(ratios, 0.5).toFixed(3)}, interquartile ${quantile(ratios, 0.25).toFixed(3)}–${quantile(ratios, 0.75).toFixed(3)}`);
console.log(`figure: trial-jail-vs-unjailed = ${quantile(ratios, 0.5).toFixed(2)} (goal ≤ 1.15)`);
await mock.close();
