// Start-up figures: a fresh `node` importing proctor, and one importing proctor/harness, each ÷ a
// bare `node -e 0` — whole processes, interleaved round by round so a noisy machine slows every
// side alike, medians. Prints figures, never asserts.
// Run: npm run build && node bench/startup.mjs   (BENCH_ROUNDS=N for more rounds; default 21;
// BENCH_BASE=<another built checkout> adds its imports to the same rounds, for before/after)
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 21);
const root = fileURLToPath(new URL("..", import.meta.url));
const base = process.env.BENCH_BASE ? path.resolve(process.env.BENCH_BASE) : undefined;

/** Each side is `node -e <code>` run from a package root, so `proctor` resolves to that build. */
const SIDES = {
  "node -e 0": ["0", root],
  'import("proctor")': ['import("proctor")', root],
  'import("proctor/harness")': ['import("proctor/harness")', root],
  ...(base ? { 'BENCH_BASE import("proctor")': ['import("proctor")', base], 'BENCH_BASE import("proctor/harness")': ['import("proctor/harness")', base] } : {}),
};

/** Wall time of one whole process, in ms. */
function wall([code, cwd]) {
  const started = performance.now();
  const r = spawnSync(process.execPath, ["-e", code], { cwd, stdio: ["ignore", "ignore", "pipe"] });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`node -e ${code} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function main() {
  const names = Object.keys(SIDES);
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (const n of names) wall(SIDES[n]); // warm the file cache once each
  for (let i = 0; i < ROUNDS; i++) {
    // Rotate the order each round so no side always runs first.
    for (let j = 0; j < names.length; j++) {
      const n = names[(i + j) % names.length];
      times[n].push(wall(SIDES[n]));
    }
  }
  const base = median(times["node -e 0"]);
  console.log(`start-up, whole processes (${ROUNDS} interleaved rounds, medians)`);
  for (const n of names) {
    const ratio = n === "node -e 0" ? "" : `   ÷ node -e 0 = ${(median(times[n]) / base).toFixed(2)}`;
    console.log(`  ${n.padEnd(37)} ${median(times[n]).toFixed(0).padStart(5)} ms${ratio}`);
  }
  const ratio = (n) => (median(times[n]) / base).toFixed(2);
  console.log(`figure: import("proctor") / node -e 0 = ${ratio('import("proctor")')} (goal ≤ 1.3)`);
}

main();
