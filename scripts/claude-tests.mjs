// The test files that run the real claude binary, for CI's second pass on the newest published
// claude: every test file that calls a harness entry point (runHarness, runReplay, runEval, the
// promptfoo provider, `proctor run|replay|bisect`) or asks which claude it runs. Derived from the
// sources each time, so a new real-binary test joins the pass by itself.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const REAL_BINARY = /\brunHarness\b|\brunReplay\b|\brunEval\b|\bProctorProvider\b|\bclaudeVersion\(|\batLeast\(|proctor.s provider|proctor\(\["(run|replay|bisect)"/;
const TEST_FILE = /\.test\.(ts|mjs)$/;

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const file = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(file);
    else if (TEST_FILE.test(entry.name)) yield file;
  }
}

const vitest = [];
const nodeTest = [];
for (const root of ["test", "examples"]) {
  for (const file of walk(root)) {
    if (!REAL_BINARY.test(readFileSync(file, "utf8"))) continue;
    (file.endsWith(".mjs") ? nodeTest : vitest).push(file);
  }
}
process.stdout.write(`${(process.argv[2] === "node" ? nodeTest : vitest).sort().join("\n")}\n`);
