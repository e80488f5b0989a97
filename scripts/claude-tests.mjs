// The test files that run the real claude binary, for CI's second pass on the newest published
// claude: every test file that calls a harness entry point (runHarness, runReplay, runEval, the
// promptfoo provider, the claude judge, `proctor run|replay|bisect`) or asks which claude it runs.
// Derived from the sources each time, so a new real-binary test joins the pass by itself.
//
// The pattern reads names, not what a file does with them, so it also picks files that name an
// entry point and never start the real claude (a message that mentions runHarness, a run refused
// before anything spawns, a fake binary in claudePath). Those are listed below, each pinned to the
// file's content: a listed file that has changed since it was checked joins the pass again, and a
// note on stderr says so, so an edit can only add a file to the pass, never drop one silently.
// Checked by running the files with PROCTOR_CLAUDE set to a script that logs its parent process
// chain (which vitest worker, so which test file, started it) and then execs the newest claude.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const REAL_BINARY = /\brunHarness\b|\brunReplay\b|\brunEval\b|\bProctorProvider\b|\bclaudeJudge\(|\bclaudeVersion\(|\batLeast\(|proctor.s provider|proctor\(\["(run|replay|bisect)"/;
const TEST_FILE = /\.test\.(ts|mjs)$/;

/** File → [sha256 of its content (first 16 hex), why its outcome cannot depend on the claude version]. */
const NEVER_RUNS_CLAUDE = {
  "test/checks/rules.test.ts": ["d1a96e88fff5ff19", "names runHarness only in an expected message"],
  "test/cli/help.test.ts": ["0d24668236f97eec", "`proctor run --trails` stops at the unknown option"],
  "test/cli/plugin-eval.test.ts": ["3b16161b4f9dbaa2", "`proctor run` refuses bad suites before any trial; the mock server is driven by requests the test makes"],
  "test/cli/run-default-dir.test.ts": ["1d7bb0b13aee3ab7", "`proctor run --list` and runs that stop at finding no eval files"],
  "test/errors/entry-points.test.ts": ["55c6ff9f2960202d", "entry points called with bad input or a claudePath that does not exist"],
  "test/harness/binary.test.ts": ["5020abaa9c784715", "resolves the binary, and runs fake ones given as claudePath"],
  "test/harness/env.test.ts": ["837132d5a8da5660", "runs refused for their env before anything spawns"],
  "test/harness/start-order.test.ts": ["227c4c17a0e12151", "fake binaries given as claudePath"],
  "test/harness/trial-copies.test.ts": ["3a6abfdab4787b6b", "names runHarness only as the caller in refusal messages"],
  "test/health/cli-run.test.ts": ["c8bf46437b383da0", "`proctor run` over recorded evals"],
  "test/reporters/promptfoo-assertion.test.ts": ["3b2453a46e394426", "names proctor's provider only in an expected message"],
  "test/run/early-stop-flag.test.ts": ["51a1df22196aecdb", "trials come from run(); --claude names the pinned binary by path"],
  "test/run/forecast-cli.test.ts": ["28fa95ecdedf136c", "`proctor run --forecast` plans trials and runs none"],
};

/** Files that run the real claude through code the pattern cannot see, with how. */
const ALSO_RUNS_CLAUDE = {
  "test/docs/docs-numbers.test.ts": "runs the README's measure example, read from README.md at test time: 20 trials on the real claude",
};

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const file = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(file);
    else if (TEST_FILE.test(entry.name)) yield file;
  }
}

const sha = (text) => createHash("sha256").update(text).digest("hex").slice(0, 16);

const vitest = [];
const nodeTest = [];
for (const root of ["test", "examples"]) {
  for (const file of walk(root)) {
    const text = readFileSync(file, "utf8");
    if (!REAL_BINARY.test(text) && !ALSO_RUNS_CLAUDE[file]) continue;
    const never = NEVER_RUNS_CLAUDE[file];
    if (never && never[0] === sha(text)) continue;
    if (never) process.stderr.write(`claude-tests: ${file} changed since it was found not to run claude (${never[1]}); it runs in this pass until it is checked again and its hash (${sha(text)}) updated in scripts/claude-tests.mjs\n`);
    (file.endsWith(".mjs") ? nodeTest : vitest).push(file);
  }
}
const missing = Object.keys(ALSO_RUNS_CLAUDE).filter((f) => !vitest.includes(f) && !nodeTest.includes(f));
if (missing.length > 0) {
  process.stderr.write(`claude-tests: ${missing.join(", ")} listed in ALSO_RUNS_CLAUDE but not found; update scripts/claude-tests.mjs\n`);
  process.exit(1);
}
const files = process.argv[2] === "node" ? nodeTest : vitest;
if (files.length > 0) process.stdout.write(`${files.sort().join("\n")}\n`);
