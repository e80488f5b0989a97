// Safety-layer figures: classifyBash per command (warm), policy evaluation per call, and
// `proctor gate` as a whole process per tool call — each beside a baseline measured in the same
// run (a bare tree-sitter parse; a bare `node -e 0`), since absolute times drift on a shared
// machine. Prints figures, never asserts. Run: npm run build && node bench/safety.mjs
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Language, Parser } from "web-tree-sitter";
import * as p from "../dist/src/safety.js";
import { decideGate } from "../dist/src/policy/gate.js";

const require = createRequire(import.meta.url);
const CLI = new URL("../dist/cli/main.js", import.meta.url).pathname;

const COMMANDS = [
  "git status",
  "git log --oneline -5 | head -n 3",
  "ls -la src/",
  "cat package.json | jq '.scripts'",
  "rg -n \"TODO\" src",
  "find . -name '*.ts' -not -path './node_modules/*'",
  "grep -rn foo src | wc -l",
  "sed -n '1,20p' README.md",
  "(cd test && ls) 2>&1",
  "git diff --stat HEAD~1 -- src/",
  "rm -rf build",
  "echo $(touch f) > /dev/null 2>&1",
  "npm test",
  "PAGER=cat git log",
  "sort -o out.txt in.txt",
  "for f in *.ts; do wc -l \"$f\"; done",
];

function perOp(fn, reps) {
  for (let i = 0; i < Math.min(reps, 2000); i++) fn(i);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < reps; i++) fn(i);
  return Number(process.hrtime.bigint() - t0) / 1e3 / reps; // µs
}

// 1. classifyBash, warm (the parser loads on first need, never at import), against a bare
// tree-sitter parse of the same commands. The two alternate in 21 rounds and the medians are
// reported, so a machine whose load drifts during the run still gives a fair ratio; CPU time
// (this process's) is shown beside wall time, since other processes' load inflates the latter.
await p.loadShellParser();
await Parser.init();
const language = await Language.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
const parser = new Parser();
parser.setLanguage(language);
const medianOf = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function cpuPerOp(fn, reps) {
  const t0 = process.cpuUsage();
  for (let i = 0; i < reps; i++) fn(i);
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / reps; // µs
}
const classifyOne = (i) => p.classifyBash(COMMANDS[i % COMMANDS.length]);
const parseOne = (i) => parser.parse(COMMANDS[i % COMMANDS.length]).delete();
perOp(classifyOne, 5000);
perOp(parseOne, 5000);
const rounds = { classify: [], parse: [], ratio: [], classifyCpu: [], parseCpu: [] };
for (let r = 0; r < 21; r++) {
  const c = perOp(classifyOne, 2000);
  const b = perOp(parseOne, 2000);
  rounds.classify.push(c);
  rounds.parse.push(b);
  rounds.ratio.push(c / b);
  rounds.classifyCpu.push(cpuPerOp(classifyOne, 2000));
  rounds.parseCpu.push(cpuPerOp(parseOne, 2000));
}
console.log(`classifyBash, warm: median ${medianOf(rounds.classify).toFixed(1)} µs/command (CPU ${medianOf(rounds.classifyCpu).toFixed(1)} µs) over ${COMMANDS.length} mixed commands, 21 rounds (target ≤ 50 µs)`);
console.log(`  ÷ bare tree-sitter parse of the same commands (median ${medianOf(rounds.parse).toFixed(1)} µs, CPU ${medianOf(rounds.parseCpu).toFixed(1)} µs): ${medianOf(rounds.ratio).toFixed(2)}× (median of per-round ratios)`);
const perCommand = COMMANDS.map((c) => medianOf(Array.from({ length: 15 }, () => perOp(() => p.classifyBash(c), 500))));
console.log(`  per command, median of rounds: median ${medianOf(perCommand).toFixed(1)} µs, slowest ${Math.max(...perCommand).toFixed(1)} µs`);

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
function spawnMs(args, input) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { input });
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cases = [
  ["`node -e 0` (baseline)", ["-e", "0"], ""],
  ["gate --purity bounded, a Read call (no parser)", [CLI, "gate", "--purity", "bounded"], payload("Read", { file_path: "/a" })],
  ["gate --purity bounded, a Bash call (loads the parser)", [CLI, "gate", "--purity", "bounded"], payload("Bash", { command: "git log --oneline -3" })],
  ["gate --policy FILE.json --rung auto, a Bash call", [CLI, "gate", "--policy", policyJson, "--rung", "auto"], payload("Bash", { command: "rm -rf x" })],
  ["gate --policy FILE.yaml --rung auto, a Bash call (loads YAML too)", [CLI, "gate", "--policy", policyFile, "--rung", "auto"], payload("Bash", { command: "rm -rf x" })],
];
// Interleaved rounds, medians: every case sees the same machine load.
const samples = cases.map(() => []);
for (let round = 0; round < 21; round++) cases.forEach(([, args, input], i) => samples[i].push(spawnMs(args, input)));
const nodeMs = median(samples[0].slice(1));
console.log(`whole process, median of 20 interleaved rounds:`);
cases.forEach(([label], i) => {
  const ms = median(samples[i].slice(1));
  console.log(i === 0 ? `  ${label}: ${ms.toFixed(0)} ms` : `  proctor ${label}: ${ms.toFixed(0)} ms per call (target ≤ 150 ms) = ${(ms / nodeMs).toFixed(2)}× node -e 0 (+${(ms - nodeMs).toFixed(0)} ms)`);
});
rmSync(dir, { recursive: true, force: true });
