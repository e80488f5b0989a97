// Runs every benchmark file in this folder in its own process and prints the figures.
// Benchmarks report; they never assert. Pass names to run a subset: node bench/run.mjs core
import { readdirSync } from "node:fs";
import { spawnSync } from "node:child_process";

const here = new URL(".", import.meta.url).pathname;
const wanted = process.argv.slice(2);
const files = readdirSync(here).filter((f) => f.endsWith(".mjs") && f !== "run.mjs" && (wanted.length === 0 || wanted.some((w) => f.startsWith(w))));
let failed = 0;
for (const f of files.sort()) {
  console.log(`\n== ${f}`);
  const r = spawnSync(process.execPath, ["--expose-gc", `${here}${f}`], { stdio: "inherit" });
  if (r.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
