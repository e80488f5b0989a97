// readTranscript on a ~50 MB transcript against a bare read + split("\n") + JSON.parse of every
// line, measured in this process, interleaved, medians. The transcript repeats the recorded
// fixtures' lines with fresh ids, so calls, results, hooks and subagents all stay paired.
// Run: npm run build && node --expose-gc bench/transcript.mjs
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
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const gc = globalThis.gc ?? (() => {});

/** readTranscript and the bare baseline on `file`, interleaved, 9 rounds each after a warm-up; medians in ms. */
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
  for (let round = 0; round < 9; round++) {
    for (const name of round % 2 ? ["readTranscript", "baseline"] : ["baseline", "readTranscript"]) {
      gc();
      const t0 = process.hrtime.bigint();
      runs[name]();
      times[name].push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  }
  return { base: median(times.baseline), read: median(times.readTranscript) };
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
  console.log(`ASCII-only copy: read+split+JSON.parse median ${ascii.base.toFixed(0)} ms; readTranscript median ${ascii.read.toFixed(0)} ms; ratio ${(ascii.read / ascii.base).toFixed(2)}`);
  const { base, read } = measure(file);
  console.log(`read+split+JSON.parse: median ${base.toFixed(0)} ms (${(mb / (base / 1000)).toFixed(0)} MB/s); readTranscript: median ${read.toFixed(0)} ms (${(mb / (read / 1000)).toFixed(0)} MB/s)`);
  console.log(`figure: readTranscript ÷ split+JSON.parse = ${(read / base).toFixed(2)} (goal ≤ 1.1)`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
