// Safety-layer figures: classifyBash per command (warm), policy evaluation per call, and
// `proctor gate` as a whole process per tool call — each beside a baseline measured in the same
// run (a bare tree-sitter parse of the same commands; a bare `node -e 0`), since absolute times
// drift on a shared machine. Prints figures, never asserts; each headline figure is one line
// `figure: NAME = VALUE (goal ≤ X)`, with its details above it.
// Run: npm run build && node bench/safety.mjs
// (BENCH_BASE=<another built checkout> adds that checkout's classifyBash to the same rounds of
// section 1, and its CLI to the same rounds of section 3, for before/after; BENCH_GATE_ROUNDS=N
// sets section 3's rounds, default 41.)
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Language, Parser } from "web-tree-sitter";

const require = createRequire(import.meta.url);
const here = new URL("..", import.meta.url).pathname;
const base = process.env.BENCH_BASE ? resolve(process.env.BENCH_BASE) : undefined;
const p = await import("../dist/src/safety.js");
const { decideGate } = await import("../dist/src/policy/gate.js");
const { fastPathCommands } = await import("../dist/src/effects/bash/fast-path.js");
/** classifyBash of another build: exported from proctor/safety (older builds: from the package root). */
const baseClassify = base
  ? await (async () => {
      for (const entry of ["dist/src/safety.js", "dist/src/index.js"]) {
        const { classifyBash } = await import(pathToFileURL(join(base, entry)).href);
        if (typeof classifyBash === "function") return classifyBash;
      }
      throw new Error(`BENCH_BASE=${base}: no classifyBash in its dist/src/safety.js or dist/src/index.js (build it first)`);
    })()
  : undefined;
/** The CLI as installed: package.json `bin.proctor`, wherever the build puts it. */
const cliOf = (root) => {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  return join(root, typeof pkg.bin === "string" ? pkg.bin : pkg.bin.proctor);
};
const CLI = cliOf(here);

/** The classifier's test corpus (test/effects/classify-bash.corpus.ts holds plain arrays: no types to strip). */
const corpusSource = readFileSync(join(here, "test/effects/classify-bash.corpus.ts"), "utf8");
const corpus = await import(`data:text/javascript,${encodeURIComponent(corpusSource)}`);
/** The corpus's few hostile sizes (3 KB to 70 KB) are refused before any parse; section 1b times them. */
const EVERYDAY = 1000;
const CORPUS = [...corpus.READ_ONLY, ...corpus.SIDE_EFFECTING, ...corpus.UNDECIDABLE];
const COMMANDS = CORPUS.filter((c) => c.length <= EVERYDAY);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
function perOp(fn, reps) {
  for (let i = 0; i < Math.min(reps, 2000); i++) fn(i);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < reps; i++) fn(i);
  return Number(process.hrtime.bigint() - t0) / 1e3 / reps; // µs
}

// 1. classifyBash, warm, against a bare tree-sitter parse of the same commands, over the corpus.
// Each command is timed both ways back to back (REPS calls each, in rotating order), in 21 rounds; a round's ratio
// is its classify total ÷ its parse total, and the medians of the rounds are reported, so load
// that drifts during the run slows both sides alike.
await p.loadShellParser();
await Parser.init();
const language = await Language.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
const parser = new Parser();
parser.setLanguage(language);
const REPS = 5;
const ROUNDS = 21;
const fast = COMMANDS.map((c) => fastPathCommands(c) !== undefined);
const timeUs = (fn, c) => {
  const t0 = process.hrtime.bigint();
  for (let k = 0; k < REPS; k++) fn(c);
  return Number(process.hrtime.bigint() - t0) / 1e3 / REPS;
};
const classify = (c) => p.classifyBash(c);
const parse = (c) => parser.parse(c).delete();
for (let w = 0; w < 3; w++) {
  for (const c of COMMANDS) {
    timeUs(classify, c);
    timeUs(parse, c);
  }
}
const classifyBase = baseClassify ? (c) => baseClassify(c) : undefined;
if (classifyBase) for (let w = 0; w < 3; w++) for (const c of COMMANDS) timeUs(classifyBase, c);
const perCommand = COMMANDS.map(() => []);
const basePerCommand = COMMANDS.map(() => []);
const ratio = { all: [], full: [], baseAll: [], baseFull: [] };
const totals = { classify: [], parse: [], fullClassify: [], fullParse: [] };
for (let r = 0; r < ROUNDS; r++) {
  let ca = 0, pa = 0, cf = 0, pf = 0, ba = 0, bf = 0;
  COMMANDS.forEach((c, i) => {
    // Whichever side runs first on a command meets it cold (caches, the parser's memory), so the
    // order rotates with the command and the round.
    const t = {};
    const sides = classifyBase ? [["c", classify], ["p", parse], ["b", classifyBase]] : [["c", classify], ["p", parse]];
    for (let j = 0; j < sides.length; j++) {
      const [k, fn] = sides[(r + i + j) % sides.length];
      t[k] = timeUs(fn, c);
    }
    const tc = t.c;
    const tp = t.p;
    if (classifyBase) {
      const tb = t.b;
      basePerCommand[i].push(tb);
      ba += tb;
      if (!fast[i]) bf += tb;
    }
    perCommand[i].push(tc);
    ca += tc;
    pa += tp;
    if (!fast[i]) {
      cf += tc;
      pf += tp;
    }
  });
  ratio.all.push(ca / pa);
  ratio.full.push(cf / pf);
  ratio.baseAll.push(ba / pa);
  ratio.baseFull.push(bf / pf);
  totals.classify.push(ca / COMMANDS.length);
  totals.parse.push(pa / COMMANDS.length);
  const nFull = fast.filter((f) => !f).length;
  totals.fullClassify.push(cf / nFull);
  totals.fullParse.push(pf / nFull);
}
const share = fast.filter(Boolean).length / COMMANDS.length;
const perCommandMedians = perCommand.map(median);
const fastMedians = perCommandMedians.filter((_, i) => fast[i]);
const fullMedians = perCommandMedians.filter((_, i) => !fast[i]);
console.log(`classifyBash, warm, over the test corpus (${COMMANDS.length} commands; ${CORPUS.length - COMMANDS.length} over ${EVERYDAY} characters left to 1b), ${ROUNDS} rounds of ${REPS} calls per command, each beside a bare tree-sitter parse of the same command`);
if (classifyBase) {
  console.log(`  BENCH_BASE (${base}), same rounds: ÷ bare parse ${median(ratio.baseAll).toFixed(2)} overall, ${median(ratio.baseFull).toFixed(2)} over the commands this build sends to the full path; median ${median(basePerCommand.map(median)).toFixed(1)} µs per command`);
}
console.log(`  fast path: ${fast.filter(Boolean).length} of ${COMMANDS.length} commands (${(share * 100).toFixed(0)} %), median ${fastMedians.length ? median(fastMedians).toFixed(1) : "–"} µs per command`);
console.log(`  full path: ${fullMedians.length} commands, median ${median(fullMedians).toFixed(1)} µs per command, slowest ${Math.max(...fullMedians).toFixed(1)} µs`);
console.log(`  mean per command, median of rounds: classifyBash ${median(totals.classify).toFixed(1)} µs, bare parse ${median(totals.parse).toFixed(1)} µs; full-path commands only: ${median(totals.fullClassify).toFixed(1)} µs ÷ ${median(totals.fullParse).toFixed(1)} µs`);
console.log(`figure: safety-classify-vs-parse = ${median(ratio.all).toFixed(2)} (goal ≤ 1.5)`);
console.log(`figure: safety-classify-vs-parse-full-path = ${median(ratio.full).toFixed(2)} (goal ≤ 1.5)`);
console.log(`figure: safety-classify-median-us = ${median(perCommandMedians).toFixed(1)} (goal ≤ 50)`);

// 1b. Hostile sizes: the slowest answer, each case the best of 3 (a figure; the tests check only answers).
const HOSTILE = {
  "1,000 nested $(": `echo ${"$(".repeat(1000)}ls${")".repeat(1000)}`,
  "10,000 nested (": `${"(".repeat(10_000)}ls${")".repeat(10_000)}`,
  "60 KB && chain": `ls${" && ls".repeat(10_000)}`,
  "64 KiB of words": `ls ${"a ".repeat(32_000)}`,
  "64 KiB single-quoted": `echo '${"x".repeat(65_000)}'`,
  "64 KiB one word": `echo ${"x".repeat(65_000)}`,
  "64 KiB here-document": `cat <<EOF\n${"$(ls)\n".repeat(10_000)}EOF`,
  "2,000 words": `cat ${Array.from({ length: 1990 }, (_, i) => `f${i}`).join(" ")}`,
  "1 MB": `ls ${"a".repeat(1 << 20)}`,
  "20 MB": `ls ${"a".repeat(20 << 20)}`,
};
const hostileMs = Object.entries(HOSTILE).map(([label, c]) => {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = process.hrtime.bigint();
    p.classifyBash(c);
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return [label, best];
});
hostileMs.sort((a, b) => b[1] - a[1]);
console.log(`hostile inputs, slowest first (target ≤ 50 ms up to 64 KiB): ${hostileMs.map(([l, ms]) => `${l} ${ms.toFixed(1)} ms`).join("; ")}`);

// 2. Policy evaluation per call: a 12-rule file policy (globs, ArgMatchers, fact conditions) + defaultDenySensitive.
const policy = p.parsePolicy({
  defaultDenySensitive: true,
  rules: [
    { tool: "Bash", effect: "deny", args: { command: { $regex: "rm\\s+-[a-z]*r" } }, reason: "no recursive deletes" },
    { tool: "Bash", effect: "ask", args: { command: { $regex: "^(npm|pnpm) publish" } } },
    { tool: "Bash", effect: "allow" },
    { tool: "Read", effect: "allow" },
    { tool: "Grep", effect: "allow" },
    { tool: "Write", effect: "deny", args: { file_path: { $regex: "\\.env$" } } },
    { tool: "Edit", effect: "deny", args: { file_path: { $regex: "\\.env$" } } },
    { tool: "mcp__github__create_*", effect: "forbid" },
    { tool: "mcp__github__*", effect: "ask" },
    { tool: "*", effect: "ask", when: { sideEffectClass: "external-stateful", untrustedSource: true } },
    { tool: "WebFetch", effect: "defer" },
    { tool: "Web*", effect: "allow" },
  ],
});
const calls = [
  ["Bash", { command: "rm -rf build" }],
  ["Bash", { command: "git status" }],
  ["Read", { file_path: "/w/a.ts" }],
  ["Write", { file_path: "/w/.env", content: "x" }],
  ["mcp__github__create_issue", { title: "t" }],
  ["WebFetch", { url: "https://example.com" }],
  ["Glob", { pattern: "**/*.ts" }],
];
const policyUs = perOp((i) => {
  const [tool, args] = calls[i % calls.length];
  p.evaluatePermissionDecision(policy.policy, policy.factsFor(tool, args));
}, 200_000);
console.log(`policy evaluation (facts + decision), 12 rules: ${policyUs.toFixed(2)} µs/call`);
const gateUs = perOp((i) => {
  const [tool, args] = calls[i % calls.length];
  decideGate(tool, args, { dialect: p.claudeCodeDialect, policy, ruleOfTwo: { untrustedInput: true, sensitiveData: true, externalSideEffects: false }, rung: "write", purity: "bounded" }, p.explainBash);
}, 50_000);
console.log(`the gate's whole decision (purity + policy + rule of two + rung), in process: ${gateUs.toFixed(1)} µs/call`);

// 3. `proctor gate` as a whole process per tool call, against a bare node start.
const dir = mkdtempSync(join(tmpdir(), "proctor-bench-gate-"));
const policyFile = join(dir, "policy.yaml");
writeFileSync(policyFile, "rules:\n  - tool: Bash\n    effect: deny\n    args: { command: { $regex: rm } }\n");
const policyJson = join(dir, "policy.json");
writeFileSync(policyJson, JSON.stringify({ rules: [{ tool: "Bash", effect: "deny", args: { command: { $regex: "rm" } } }] }));
const payload = (tool_name, tool_input) => JSON.stringify({ session_id: "s", hook_event_name: "PreToolUse", tool_name, tool_input, tool_use_id: "t" });
/** One spawn's wall time in ms. */
function spawnMs(args, input, env, quiet = false) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { input, env });
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  // A read-only call must pass silently, or the case would time something else.
  if (quiet && r.stdout.length) throw new Error(`${args.join(" ")} objected: ${r.stdout}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}
// A clean repository for a read-only call judged in its context (see bench/repo-context.mjs).
const home = join(dir, "home");
const repo = join(dir, "repo");
mkdirSync(home);
mkdirSync(repo);
const gitEnv = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@b", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@b" };
for (const args of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "x"]]) {
  if (args[0] === "add") writeFileSync(join(repo, "f"), "x\n");
  const r = spawnSync("git", args, { cwd: repo, env: gitEnv });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
}
const readOnlyEvent = JSON.stringify({ session_id: "s", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git status" }, tool_use_id: "t", cwd: repo });
// The floor of any bin: node running an empty CommonJS file (the bin is one), reading nothing. And
// for scale, the simplest PreToolUse hook one could write in Node: read the event from stdin as a
// stream, parse it, answer only for `rm -rf`. It judges nothing soundly; it is what a hook costs
// before it does any work.
const emptyBin = join(dir, "empty.cjs");
writeFileSync(emptyBin, "");
const simplestHook = join(dir, "simplest-hook.cjs");
writeFileSync(simplestHook, `let data = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (d) => (data += d));
process.stdin.on("end", () => {
  const event = JSON.parse(data);
  if (event.tool_name === "Bash" && /rm -rf/.test(event.tool_input.command)) process.stdout.write('{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}');
});
`);
const cases = [
  ["`node -e 0` (baseline)", ["-e", "0"], ""],
  ["node running an empty CommonJS file (the floor of any bin)", [emptyBin], ""],
  ["the simplest Node hook (stdin as a stream, JSON.parse, a regex) on the `git status` event", [simplestHook], readOnlyEvent, true],
  ["gate --purity bounded, a Read call (no parser)", [CLI, "gate", "--purity", "bounded"], payload("Read", { file_path: "/a" })],
  ["gate --purity bounded, a Bash call (loads the parser)", [CLI, "gate", "--purity", "bounded"], payload("Bash", { command: "git log --oneline -3" })],
  ["gate --purity bounded, a read-only Bash `git status` in a clean repository", [CLI, "gate", "--purity", "bounded"], readOnlyEvent, true],
  ...(base ? [["BENCH_BASE gate --purity bounded, the same read-only `git status`", [cliOf(base), "gate", "--purity", "bounded"], readOnlyEvent, true]] : []),
  ["gate --policy FILE.json --rung auto, a Bash call", [CLI, "gate", "--policy", policyJson, "--rung", "auto"], payload("Bash", { command: "rm -rf x" })],
  ["gate --policy FILE.yaml --rung auto, a Bash call (loads YAML too)", [CLI, "gate", "--policy", policyFile, "--rung", "auto"], payload("Bash", { command: "rm -rf x" })],
];
// Interleaved rounds, medians: every case sees the same machine load. The headline figure is the
// median of each round's own ratio (that round's gate ÷ that round's bare node), so load that
// drifts between rounds cancels out.
const GATE_ROUNDS = Number(process.env.BENCH_GATE_ROUNDS ?? 41);
const samples = cases.map(() => []);
// Every case runs with the same scrubbed environment (the shell's may carry start-up costs, such
// as NODE_EXTRA_CA_CERTS, that would then count for some cases and not others).
const run = ([, args, input, quiet]) => spawnMs(args, input, gitEnv, quiet === true);
// Warm the file cache, and the code cache: the bin's first runs after a build remake it (cli/code-cache.ts).
for (let w = 0; w < 3; w++) cases.forEach(run);
// Rotate the order each round so no case always runs first.
for (let round = 0; round < GATE_ROUNDS; round++) cases.forEach((_, j) => {
  const i = (round + j) % cases.length;
  samples[i].push(run(cases[i]));
});
const nodeMs = median(samples[0]);
console.log(`whole process, medians of ${GATE_ROUNDS} interleaved rounds (${CLI}):`);
cases.forEach(([label], i) => {
  const ms = median(samples[i]);
  const who = label.startsWith("gate") || label.startsWith("BENCH_BASE") ? "proctor " : "";
  console.log(i === 0 ? `  ${label}: ${ms.toFixed(0)} ms` : `  ${who}${label}: ${ms.toFixed(0)} ms per call${who ? " (target ≤ 150 ms)" : ""} = ${(ms / nodeMs).toFixed(2)}× node -e 0 (+${(ms - nodeMs).toFixed(0)} ms)`);
});
const gateIndex = cases.findIndex(([label]) => label.startsWith("gate") && label.includes("clean repository"));
const pairedRatio = median(samples[gateIndex].map((ms, round) => ms / samples[0][round]));
console.log(`  (ratio of medians ${(median(samples[gateIndex]) / nodeMs).toFixed(2)}; median of the rounds' own ratios ${pairedRatio.toFixed(2)})`);
console.log(`figure: safety-gate-read-only-vs-node = ${pairedRatio.toFixed(2)} (goal ≤ 1.3)`);
const floorIndex = cases.findIndex(([label]) => label.includes("the floor of any bin"));
console.log(`floor: safety-gate-read-only-vs-node = ${median(samples[floorIndex].map((ms, round) => ms / samples[0][round])).toFixed(2)} (node running an empty CommonJS file)`);
rmSync(dir, { recursive: true, force: true });
