// Runs every benchmark in its own process, one after another, then prints a table of the headline
// figures: each bench prints lines `figure: NAME = RATIO (goal ≤ X)`, collected here from its
// stdout (which is passed through as it runs). Benchmarks report; they never assert.
// Run: npm run bench   (or node bench/run.mjs startup harness … for a subset, after npm run build)
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const BENCHES = ["startup", "core", "transcript", "safety", "repo-context", "confine", "observe", "harness", "measure", "stopping", "reporters", "codex"];
const FIGURE = /^figure: (.+?) = ([0-9.]+|n\/a) \(goal (≤|≥) ([0-9.]+)\)/;
/**
 * `floor: NAME = RATIO (what)`: the same ratio for the least any implementation pays (an empty
 * module's import, node spawning claude itself), printed beside the figure NAME: a goal below its
 * floor cannot be met by proctor's code.
 */
const FLOOR = /^floor: (.+?) = ([0-9.]+) \((.+)\)$/;

const here = fileURLToPath(new URL(".", import.meta.url));
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !BENCHES.includes(w));
if (unknown.length > 0) {
  console.error(`bench/run.mjs: no bench named ${unknown.join(", ")}; the benches are ${BENCHES.join(", ")}`);
  process.exit(2);
}

/** Runs one bench, echoing its output; resolves with its exit code and the figure lines it printed. */
function runBench(name) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--expose-gc", `${here}${name}.mjs`], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      process.stdout.write(d);
    });
    child.on("error", (error) => resolve({ code: 1, figures: [], error }));
    child.on("close", (code) => {
      const lines = out.split("\n").map((line) => line.trim());
      const floors = new Map(lines.flatMap((line) => {
        const m = FLOOR.exec(line);
        return m ? [[m[1], m[2]]] : [];
      }));
      const figures = lines.flatMap((line) => {
        const m = FIGURE.exec(line);
        return m ? [{ bench: name, name: m[1], ratio: m[2] === "n/a" ? undefined : Number(m[2]), printed: m[2], op: m[3], goal: Number(m[4]), floor: floors.get(m[1]) }] : [];
      });
      resolve({ code, figures });
    });
  });
}

const rows = [];
const failed = [];
for (const name of wanted.length > 0 ? wanted : BENCHES) {
  console.log(`\n== ${name}.mjs`);
  if (!existsSync(`${here}${name}.mjs`)) {
    console.log(`(bench/${name}.mjs is not in this checkout)`);
    rows.push({ bench: name, name: `${name}.mjs missing`, ratio: undefined, op: "≤", goal: NaN });
    continue;
  }
  const { code, figures, error } = await runBench(name);
  if (code !== 0) failed.push(`${name} (${error ? error.message : `exit ${code}`})`);
  rows.push(...figures);
  if (figures.length === 0) rows.push({ bench: name, name: `${name}.mjs printed no figure`, ratio: undefined, op: "≤", goal: NaN });
}

const met = (r) => r.ratio !== undefined && (r.op === "≤" ? r.ratio <= r.goal : r.ratio >= r.goal);
const table = [["figure", "ratio", "goal", "met", "floor"], ...rows.map((r) => [r.name, r.printed ?? "n/a", Number.isNaN(r.goal) ? "" : `${r.op} ${r.goal}`, met(r) ? "yes" : "NO", r.floor ?? ""])];
const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
console.log("\n== headline figures");
for (const [i, row] of table.entries()) {
  console.log(row.map((cell, j) => (j === 0 ? cell.padEnd(widths[j]) : cell.padStart(widths[j]))).join("  "));
  if (i === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
}
console.log(`\n${rows.filter(met).length} of ${rows.length} figures meet their goal${failed.length ? `; benches that failed: ${failed.join(", ")}` : ""}`);
if (rows.some((r) => r.floor !== undefined)) console.log("floor: the same ratio for the least any implementation pays, measured in the same rounds (see each bench's output for what it is)");
process.exitCode = failed.length ? 1 : 0;
