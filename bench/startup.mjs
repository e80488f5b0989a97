// Start-up figures: a fresh `node` importing proctor, and one importing proctor/harness, each ÷ a
// bare `node -e 0` — whole processes, interleaved round by round so a noisy machine slows every
// side alike. Each figure is the median of the per-round ratios (a round's import ÷ the same
// round's `node -e 0`), so a slow patch of the machine moves both sides of a ratio together;
// the medians of the times are printed beside it. Prints figures, never asserts.
// Every process runs in one scrubbed environment (PATH and HOME only): the shell's may carry
// start-up costs, such as NODE_EXTRA_CA_CERTS (a CA bundle every node process then reads, tens of
// ms), that would inflate both sides alike and so flatter the ratio.
// Run: npm run build && node bench/startup.mjs   (BENCH_ROUNDS=N for more rounds; default 41;
// BENCH_BASE=<another built checkout> adds its imports to the same rounds, for before/after)
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 41);
/** The one environment every side runs in. */
const ENV = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/" };
const root = fileURLToPath(new URL("..", import.meta.url));
const base = process.env.BENCH_BASE ? path.resolve(process.env.BENCH_BASE) : undefined;

/**
 * The floor: importing an empty ES module costs what Node's ES-module loader costs to start (its
 * own modules, fs/promises), which every `import()` of any package pays. What proctor adds is the
 * figure above this floor.
 */
const floorDir = mkdtempSync(path.join(tmpdir(), "proctor-bench-startup-"));
const EMPTY_MODULE = path.join(floorDir, "empty.mjs");
writeFileSync(EMPTY_MODULE, "export {};\n");
/** Each side is `node -e <code>` run from a package root, so `proctor` resolves to that build. */
const SIDES = {
  "node -e 0": ["0", root],
  "import(an empty module) (the floor)": [`import(${JSON.stringify(EMPTY_MODULE)})`, root],
  'import("proctor")': ['import("proctor")', root],
  'import("proctor/harness")': ['import("proctor/harness")', root],
  ...(base ? { 'BENCH_BASE import("proctor")': ['import("proctor")', base], 'BENCH_BASE import("proctor/harness")': ['import("proctor/harness")', base] } : {}),
};

/** Wall time of one whole process, in ms. */
function wall([code, cwd]) {
  const started = performance.now();
  const r = spawnSync(process.execPath, ["-e", code], { cwd, env: ENV, stdio: ["ignore", "ignore", "pipe"] });
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
  const bare = times["node -e 0"];
  /** Median of the per-round ratios of side `n` to the same round's `node -e 0`. */
  const ratio = (n) => median(times[n].map((t, i) => t / bare[i])).toFixed(2);
  console.log(`start-up, whole processes, scrubbed environment (${ROUNDS} interleaved rounds; median times, median of per-round ratios)`);
  for (const n of names) {
    const r = n === "node -e 0" ? "" : `   ÷ node -e 0 = ${ratio(n)}`;
    console.log(`  ${n.padEnd(37)} ${median(times[n]).toFixed(0).padStart(5)} ms${r}`);
  }
  console.log(`figure: import("proctor") / node -e 0 = ${ratio('import("proctor")')} (goal ≤ 1.3)`);
  console.log(`floor: import("proctor") / node -e 0 = ${ratio("import(an empty module) (the floor)")} (an empty ES module's import)`);
}

try {
  main();
} finally {
  rmSync(floorDir, { recursive: true, force: true });
}
