// What judging a command in its repository costs: classifyBash with and without a context, in
// process (warm), and `proctor gate --purity bounded` as a whole process on a read-only
// `git status` in a clean repository — beside `node -e 0` and the gate on a Read call, measured
// in the same interleaved rounds, since absolute times drift on a shared machine. Prints
// figures, never asserts. Run: npm run build && node bench/repo-context.mjs
import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as p from "../dist/src/safety.js";

/** The CLI as installed: package.json `bin.proctor`, wherever the build puts it. */
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const CLI = fileURLToPath(new URL(typeof pkg.bin === "string" ? pkg.bin : pkg.bin.proctor, new URL("..", import.meta.url)));
const root = mkdtempSync(join(tmpdir(), "proctor-bench-repo-"));
const home = join(root, "home");
mkdirSync(home);
const env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@b", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@b" };
const repo = join(root, "repo");
mkdirSync(repo);
const git = (...args) => spawnSync("git", args, { cwd: repo, env });
git("init", "-q");
writeFileSync(join(repo, "f"), "x\n");
git("add", "f");
git("commit", "-qm", "x");
writeFileSync(join(home, ".gitconfig"), "[user]\n\tname = b\n[alias]\n\tst = status\n[include]\n\tpath = ~/.gitconfig.local\n");
writeFileSync(join(home, ".gitconfig.local"), "[color]\n\tui = auto\n");
mkdirSync(join(repo, "src"));

function perOp(fn, reps) {
  for (let i = 0; i < Math.min(reps, 500); i++) fn(i);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < reps; i++) fn(i);
  return Number(process.hrtime.bigint() - t0) / 1e3 / reps;
}

await p.loadShellParser();
const context = { cwd: join(repo, "src"), env };
const commands = ["git status", "git log --oneline -5 | head -n 3", "ls -la", "git diff --stat HEAD -- src/"];
const textUs = perOp((i) => p.classifyBash(commands[i % commands.length]), 5000);
const ctxUs = perOp((i) => p.classifyBash(commands[i % commands.length], context), 5000);
console.log(`classifyBash, warm, ${commands.length} commands: ${textUs.toFixed(1)} µs text only; ${ctxUs.toFixed(1)} µs with a context (${(ctxUs / textUs).toFixed(2)}×, +${(ctxUs - textUs).toFixed(0)} µs: stats, PATH lookup, cached config files)`);

const payload = (tool_name, tool_input, cwd) => JSON.stringify({ hook_event_name: "PreToolUse", tool_name, tool_input, cwd });
function spawnMs(args, input) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { input, env });
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  if (r.stdout.length) throw new Error(`${args.join(" ")} objected: ${r.stdout}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const gate = [CLI, "gate", "--purity", "bounded"];
const cases = [
  ["`node -e 0` (baseline)", ["-e", "0"], ""],
  ["gate, a Read call", gate, payload("Read", { file_path: "/a" }, repo)],
  ["gate, Bash `echo hi` (a builtin: no repository context work)", gate, payload("Bash", { command: "echo hi" }, repo)],
  ["gate, Bash `git status` in a clean repository (config files, PATH)", gate, payload("Bash", { command: "git status" }, join(repo, "src"))],
];
const samples = cases.map(() => []);
for (let round = 0; round < 21; round++) {
  for (const [i, [, args, input]] of cases.entries()) samples[i].push(spawnMs(args, input));
}
const nodeMs = median(samples[0].slice(1));
console.log("whole process, median of 20 interleaved rounds:");
cases.forEach(([label], i) => {
  const ms = median(samples[i].slice(1));
  console.log(i === 0 ? `  ${label}: ${ms.toFixed(0)} ms` : `  proctor ${label}: ${ms.toFixed(0)} ms = ${(ms / nodeMs).toFixed(2)}× node -e 0 (+${(ms - nodeMs).toFixed(0)} ms)`);
});
// The repository context's own cost: judging `git status` (read in its repository) against a call
// the gate answers without any shell judgement.
console.log(`figure: gate on git status in a clean repository ÷ gate on a Read call = ${(median(samples[3].slice(1)) / median(samples[1].slice(1))).toFixed(2)} (goal ≤ 1.1)`);
rmSync(root, { recursive: true, force: true });
