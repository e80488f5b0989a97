// Core figures: stream-json parse throughput, and every check over a 10,000-call trace.
// Ratios against a baseline measured in the same process (JSON.parse of the same lines), since
// absolute times drift on a shared machine. Run: npm run build && node bench/core.mjs
import { readFileSync } from "node:fs";
import * as p from "../dist/src/index.js";

const fixture = readFileSync(new URL("../test/fixtures/transcripts/edit-write-bash-fail.jsonl", import.meta.url), "utf8").trim().split("\n");
const [init, ...body] = fixture;
const result = body.pop();

/** A large synthetic transcript built from the fixture's own line shapes, with unique ids. */
function synthTranscript(targetBytes) {
  const out = [init];
  let bytes = init.length;
  for (let round = 0; bytes < targetBytes; round++) {
    for (const line of body) {
      const l = line.replace(/"(toolu_f\d|msg_\d)"/g, (_m, id) => `"${id}_${round}"`);
      out.push(l);
      bytes += l.length + 1;
    }
  }
  out.push(result);
  return out.join("\n");
}

function time(fn, reps) {
  fn();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < reps; i++) fn();
  return Number(process.hrtime.bigint() - t0) / 1e6 / reps;
}

const text = synthTranscript(50 * 1024 * 1024);
const mb = Buffer.byteLength(text) / 1024 / 1024;
const parseMs = time(() => p.parseTranscript(text), 3);
const baselineMs = time(() => {
  for (const l of text.split("\n")) JSON.parse(l);
}, 3);
// The honest ceiling: JSON.parse of every line while keeping what was parsed (a Trace must keep
// inputs and results, so it pays the same allocation and GC cost).
const keepMs = time(() => {
  const keep = [];
  for (const l of text.split("\n")) keep.push(JSON.parse(l));
}, 3);
const trace = p.parseTranscript(text);
console.log(`parse: ${mb.toFixed(1)} MB, ${trace.toolCalls.length} calls in ${parseMs.toFixed(0)} ms → ${(mb / (parseMs / 1000)).toFixed(0)} MB/s (target ≥ 100 MB/s)`);
console.log(`parse ÷ bare split+JSON.parse of the same lines (discarding): ${(parseMs / baselineMs).toFixed(2)}× (baseline ${(mb / (baselineMs / 1000)).toFixed(0)} MB/s)`);
console.log(`parse ÷ split+JSON.parse keeping every parsed line: ${(parseMs / keepMs).toFixed(2)}× (baseline ${(mb / (keepMs / 1000)).toFixed(0)} MB/s)`);

// 10,000 calls across main and a subagent, with replies, hooks, usage and a snapshot file record.
const names = ["Read", "Grep", "Glob", "Bash", "Edit", "Write"];
const toolCalls = Array.from({ length: 10_000 }, (_, i) => ({
  id: `t${i}`,
  name: i === 0 ? "Agent" : names[i % names.length],
  input: i === 0 ? { subagent_type: "Explore", prompt: "look" } : { command: `echo ${i}`, file_path: `/w/f${i % 50}.ts` },
  result: "ok",
  status: i % 97 === 0 ? "denied" : "success",
  agent: i > 0 && i < 500 ? "t0" : "main",
}));
const big = {
  version: 1,
  source: { kind: "synthetic", cwd: "/w" },
  complete: true,
  toolCalls,
  subagents: [{ id: "t0", type: "Explore", prompt: "look", calls: toolCalls.flatMap((c, i) => (c.agent === "t0" ? [i] : [])), output: "done", status: "success" }],
  skills: [],
  hooks: Array.from({ length: 200 }, (_, i) => ({ name: "PreToolUse:Bash", event: "PreToolUse", exitCode: 0, outcome: "success", blocked: false, output: "", at: i * 50 })),
  replies: Array.from({ length: 20 }, (_, i) => ({ text: `Status: step ${i}`, at: i * 500 })),
  output: "Status: done",
  turns: 40,
  usage: { costUsd: 1.2, durationMs: 90_000, inputTokens: 1e5, outputTokens: 2e4, cacheCreationTokens: 1e4, cacheReadTokens: 5e5 },
  files: { source: "snapshot", changes: Array.from({ length: 50 }, (_, i) => ({ path: `f${i}.ts`, change: "modified" })) },
  modelRequests: [{ agent: "main", system: "sys", messages: "hello", tools: [] }],
  errors: [],
};
const checks = [
  p.tool("Bash"), p.toolWith("Bash", { command: /echo 9999$/ }), p.notTool("Bash", { command: /rm -rf/ }), p.onlyTools(names.concat("Agent")),
  p.toolCount("Read", { min: 1 }), p.denied("Bash"), p.mcp("gh", "x"), p.skill("x"), p.output(/done/), p.eachReply(/^Status/),
  p.replyCount(/Status/, { max: 50 }), p.received("hello"), p.hookFired("PreToolUse"), p.turns({ max: 100 }), p.wrote("f1.ts"),
  p.didNotWrite("secrets.env"), p.wroteOnly(["*.ts"]), p.subagent("Explore", [p.onlyTools(["Read", "Grep", "Glob", "Bash", "Edit", "Write"])]),
  p.cost({ maxUsd: 2 }), p.latency({ maxMs: 1e6 }), p.tokens({ max: 1e6 }), p.inputTokens({ max: 1e6 }), p.outputTokens({ max: 1e6 }),
  p.cacheTokens({ maxRead: 1e6 }), p.judged("done", { judge: () => ({ score: 1, pass: true }) }),
  p.trajectory(names, { mode: "superset" }), p.custom("c", () => true),
];
// Baseline: one JSON.stringify of the same trace, i.e. touching every field of it once. The two
// sides alternate, 5 calls each, in 41 rounds (the side that goes first alternating too); the
// figure is the median of the rounds' own ratios, so a collection or a slow patch of the machine
// lands on both sides of a round rather than on one side's whole measurement.
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const checkSide = () => p.evalChecks(big, checks);
const stringifySide = () => JSON.stringify(big);
for (let w = 0; w < 5; w++) {
  time(checkSide, 1);
  time(stringifySide, 1);
}
const rounds = Array.from({ length: 41 }, (_, r) => {
  const [first, second] = r % 2 ? [checkSide, stringifySide] : [stringifySide, checkSide];
  const a = time(first, 5);
  const b = time(second, 5);
  return first === checkSide ? [a, b] : [b, a];
});
const checkMs = median(rounds.map(([c]) => c));
const stringifyMs = median(rounds.map(([, j]) => j));
console.log(`checks: all ${checks.length} kinds over ${toolCalls.length.toLocaleString()} calls in ${checkMs.toFixed(2)} ms (target ≤ 10 ms); one JSON.stringify of the trace ${stringifyMs.toFixed(2)} ms (medians of 41 alternating rounds)`);
console.log(`figure: all check kinds over a 10,000-call trace / JSON.stringify of it = ${median(rounds.map(([c, j]) => c / j)).toFixed(2)} (goal ≤ 1)`);
