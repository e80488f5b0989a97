// Harness figures: runHarness wall time ÷ a bare `claude -p` against the same mock with the same
// script (interleaved in one process, medians, since absolute times drift on a shared machine), and
// the mock's per-request latency (p50/p99) while 8 runs share it. Prints figures, never asserts.
// Run: npm run build && node bench/harness.mjs   (BENCH_ROUNDS=N for more pairs; default 6)
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { resolveClaudeBinary, runHarness } from "../dist/harness/index.js";
import { startMockModel } from "../dist/mock-model/index.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const CONCURRENT = 8;
const script = {
  turns: [
    { tools: [{ name: "Bash", input: { command: "echo one > one.txt" } }] },
    { tools: [{ name: "Read", input: { file_path: "one.txt" } }] },
    { text: "Done." },
  ],
};

const latencies = [];
const mock = await startMockModel({ onAnswer: (a) => a.method === "POST" && latencies.push(a.ms) });
const binary = resolveClaudeBinary();

/** A bare run: the same binary, prompt, output format and permission mode, a fresh HOME and cwd, nothing else. */
async function bareRun() {
  const run = mock.addRun(script);
  const root = mkdtempSync(path.join(tmpdir(), "proctor-bench-"));
  const home = path.join(root, "home");
  const cwd = path.join(root, "work");
  mkdirSync(path.join(home, ".claude"), { recursive: true });
  mkdirSync(cwd);
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
    ANTHROPIC_BASE_URL: mock.url,
    ANTHROPIC_API_KEY: run.apiKey,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  };
  const started = performance.now();
  const code = await new Promise((resolve) => {
    const child = spawn(binary, ["-p", "bench", "--output-format", "stream-json", "--verbose", "--permission-mode", "acceptEdits"], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.resume();
    child.stderr.resume();
    child.on("close", resolve);
  });
  const ms = performance.now() - started;
  run.remove();
  rmSync(root, { recursive: true, force: true });
  if (code !== 0) throw new Error(`bare claude -p exited ${code}`);
  return ms;
}

async function harnessRun() {
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

// Warm the binary's pages once each way, then interleave so drift hits both sides alike.
await bareRun();
await harnessRun();
const bare = [];
const harness = [];
for (let i = 0; i < ROUNDS; i++) {
  if (i % 2 === 0) {
    bare.push(await bareRun());
    harness.push(await harnessRun());
  } else {
    harness.push(await harnessRun());
    bare.push(await bareRun());
  }
}
const ratio = median(harness) / median(bare);
console.log(`runHarness vs bare claude -p (${ROUNDS} interleaved pairs, same mock, same 3-turn script)`);
console.log(`  bare     median ${median(bare).toFixed(0)} ms  (min ${Math.min(...bare).toFixed(0)}, max ${Math.max(...bare).toFixed(0)})`);
console.log(`  harness  median ${median(harness).toFixed(0)} ms  (min ${Math.min(...harness).toFixed(0)}, max ${Math.max(...harness).toFixed(0)})`);
console.log(`  ratio    ${ratio.toFixed(3)}  (target ≤ 1.10)`);

latencies.length = 0;
const started = performance.now();
await Promise.all(Array.from({ length: CONCURRENT }, () => harnessRun()));
const wall = performance.now() - started;
console.log(`mock latency per request, ${CONCURRENT} concurrent runs (${latencies.length} requests, ${(wall / 1000).toFixed(1)} s wall)`);
console.log(`  p50 ${pct(latencies, 50).toFixed(2)} ms   p99 ${pct(latencies, 99).toFixed(2)} ms   max ${Math.max(...latencies).toFixed(2)} ms`);
await mock.close();
