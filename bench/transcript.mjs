// readTranscript on a ~50 MB transcript against a bare read + split("\n") + JSON.parse of every
// line, measured in this process. The transcript repeats the recorded fixtures' lines with fresh
// ids, so calls, results, hooks and subagents all stay paired.
// Method: after a warm-up, each round runs both sides back to back (the order alternating, a full
// GC before each), and the figure is the median over the rounds of that round's ratio: a slow
// patch of a shared machine then slows both sides of a ratio alike instead of one side's median.
// The quartiles of the per-round ratios are printed beside it, so a noisy run shows as one.
// Run: npm run build && node --expose-gc bench/transcript.mjs   (BENCH_ROUNDS=N; default 21)
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readTranscript } from "../dist/src/index.js";

const dir = new URL("../test/fixtures/transcripts/", import.meta.url).pathname;
const fixtures = readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort().map((f) => readFileSync(join(dir, f), "utf8").trim().split("\n"));
const [init] = fixtures[0];
const result = fixtures[0].at(-1);
const body = fixtures.flatMap((lines) => lines.filter((l) => !/^\{"type":"(?:system","subtype":"init|result)"/.test(l)));
const ID = /"(id|tool_use_id|hook_id|parent_tool_use_id)":"([^"]+)"/g;

function buildTranscript(targetBytes) {
  const out = [init];
  let bytes = init.length;
  for (let round = 0; bytes < targetBytes; round++) {
    for (const line of body) {
      const l = line.replace(ID, (_m, key, id) => `"${key}":"${id}_${round}"`);
      out.push(l);
      bytes += l.length + 1;
    }
  }
  out.push(result);
  return `${out.join("\n")}\n`;
}

/** The same events with every non-ASCII character written as a \u escape: the same JSON, one-byte text throughout. */
const asAscii = (text) => text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 21);
/** The q-quantile (0…1) of xs, nearest rank. */
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.round(q * (xs.length - 1)))];
const median = (xs) => quantile(xs, 0.5);
const gc = globalThis.gc ?? (() => {});

/** readTranscript and the bare baseline on `file`, paired round by round after a warm-up: median times in ms, and the per-round ratios. */
function measure(file) {
  const runs = {
    baseline: () => {
      let n = 0;
      for (const l of readFileSync(file, "utf8").split("\n")) if (l) n += JSON.parse(l) ? 1 : 0;
      return n;
    },
    readTranscript: () => readTranscript(file).toolCalls.length,
  };
  const times = { baseline: [], readTranscript: [] };
  for (const name of Object.keys(runs)) runs[name](); // warm up
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 ? ["readTranscript", "baseline"] : ["baseline", "readTranscript"]) {
      gc();
      const t0 = process.hrtime.bigint();
      runs[name]();
      times[name].push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }
  const ratios = times.readTranscript.map((t, i) => t / times.baseline[i]);
  return { base: median(times.baseline), read: median(times.readTranscript), ratio: median(ratios), q1: quantile(ratios, 0.25), q3: quantile(ratios, 0.75) };
}

const tmp = mkdtempSync(join(tmpdir(), "proctor-bench-"));
try {
  const text = buildTranscript(50 << 20);
  const mb = Buffer.byteLength(text) / (1 << 20);
  const file = join(tmp, "big.jsonl");
  const asciiFile = join(tmp, "big-ascii.jsonl");
  writeFileSync(file, text);
  writeFileSync(asciiFile, asAscii(text));
  console.log(`transcript: ${mb.toFixed(1)} MB, ${readTranscript(file).toolCalls.length} tool calls`);
  const ascii = measure(asciiFile);
  const spread = (m) => `per-round ratios: median ${m.ratio.toFixed(2)}, quartiles ${m.q1.toFixed(2)}–${m.q3.toFixed(2)}`;
  console.log(`${ROUNDS} paired rounds each`);
  console.log(`ASCII-only copy: read+split+JSON.parse median ${ascii.base.toFixed(0)} ms; readTranscript median ${ascii.read.toFixed(0)} ms; ${spread(ascii)}`);
  const headline = measure(file);
  const { base, read } = headline;
  console.log(`read+split+JSON.parse: median ${base.toFixed(0)} ms (${(mb / (base / 1000)).toFixed(0)} MB/s); readTranscript: median ${read.toFixed(0)} ms (${(mb / (read / 1000)).toFixed(0)} MB/s); ${spread(headline)}`);
  console.log(`figure: readTranscript ÷ split+JSON.parse = ${headline.ratio.toFixed(2)} (goal ≤ 1.1)`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
