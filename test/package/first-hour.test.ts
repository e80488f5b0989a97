/**
 * A user's first hour, from the packed tarball: a fresh project with its own small plugin — a skill
 * `tidy` and a PreToolUse guard whose command is the README's gate hook as written — and one eval
 * run through the installed `proctor run`. Plainly it passes on the gate's deny; with
 * `--ablate plugin:first-hour` the arm without the plugin misses the skill as the expected effect
 * (not a health error) and the exit code, console, JSON and JUnit agree on one verdict; with the
 * hook unable to start (PROCTOR_BIN unset) the run is unhealthy, named by its hook, and fails.
 * Runs whichever claude PROCTOR_CLAUDE selects, else the pinned one installed into the project
 * (the same version as this repository's); one pack, one install and four one-trial runs, so it
 * joins CI's pass on the newest claude.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportsVerdict } from "../../src/measure/ablation-verdict.js";
import type { CheckReport } from "../../src/index.js";
import { claudeVersion } from "../helpers/claude-version.js";

const root = new URL("../..", import.meta.url).pathname;
const own = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
const README = readFileSync(join(root, "README.md"), "utf8");

/** The fenced block of `lang` in the README whose text matches `marker` (exactly one). */
function readmeBlock(lang: string, marker: RegExp): string {
  const blocks = [...README.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map((m) => m[1] ?? "").filter((b) => marker.test(b));
  if (blocks.length !== 1) throw new Error(`README.md has ${blocks.length} \`\`\`${lang} blocks matching ${marker}; this test reads exactly one`);
  return blocks[0] as string;
}

/** The README's gate settings: `{ hooks: { PreToolUse: [...] } }`, the plugin's hooks.json as written. */
const GATE = JSON.parse(readmeBlock("json", /" gate --purity/)) as { hooks: { PreToolUse: unknown[] } };
const POLICY = readmeBlock("yaml", /^# \.claude\/proctor-policy\.yaml/);
const PLUGIN = "first-hour";

let dir: string;
let project: string;

/** The user's eval: the skill, then a recursive delete the gate must deny. `bin` false leaves PROCTOR_BIN unset. */
function evalSource(bin: boolean): string {
  return `import { defineEval, denied, skill } from "proctor";
const here = new URL("..", import.meta.url).pathname;
export default defineEval({
  name: ${JSON.stringify(bin ? "tidy then guard" : "tidy then guard, no PROCTOR_BIN")},
  mock: {
    plugins: [here + "plugin"],
    prompt: "Tidy the project, then clear the build output.",
    files: { ".claude/proctor-policy.yaml": ${JSON.stringify(POLICY)}, "build/out.txt": "built\\n" },
    ${bin ? 'env: { PROCTOR_BIN: here + "node_modules/.bin/proctor" },' : ""}
    sandbox: { off: "the gate confines each call itself; bubblewrap cannot nest inside claude's sandbox" },
    timeoutMs: 90_000,
    script: {
      turns: [
        { tools: [{ name: "Skill", input: { skill: "${PLUGIN}:tidy" } }] },
        { tools: [{ name: "Bash", input: { command: "rm -rf build" } }] },
        { text: "Tidied; the build output stays." },
      ],
    },
  },
  checks: [skill("tidy"), denied("Bash", { command: /rm -rf/ })],
  trials: 1,
});
`;
}

type Node = Record<string, unknown>;
/** The JUnit file's root counts and its testcases (name, failure/error present). */
function junit(file: string) {
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", isArray: (n) => n === "testsuite" || n === "testcase" }).parse(readFileSync(file, "utf8"), true) as { testsuites: Node };
  const suites = (doc.testsuites.testsuite as Node[] | undefined) ?? [];
  const cases = suites.flatMap((s) => (s.testcase as Node[] | undefined) ?? []).map((c) => ({ name: String(c["@name"]), failure: "failure" in c, error: "error" in c }));
  return { failures: Number(doc.testsuites["@failures"]), errors: Number(doc.testsuites["@errors"]), cases };
}

const reports = (file: string) => JSON.parse(readFileSync(file, "utf8")) as CheckReport[];

async function run(evalFile: string, extra: string[], tag: string) {
  const out = { json: join(dir, `${tag}.json`), junit: join(dir, `${tag}.xml`) };
  const r = await execa(join(project, "node_modules", ".bin", "proctor"), ["run", evalFile, "--json", out.json, "--junit", out.junit, "--quiet", ...extra], {
    cwd: project,
    reject: false,
    env: { NO_COLOR: "1" },
  });
  return { ...r, ...out, all: `${r.stdout}\n${r.stderr}` };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "proctor-first-hour-"));
  const packed = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", dir], { cwd: root, encoding: "utf8" })) as [{ filename: string }];
  project = join(dir, "project");
  mkdirSync(join(project, "evals"), { recursive: true });
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "first-hour", version: "1.0.0", private: true }, null, 2));
  const claude = process.env.PROCTOR_CLAUDE ? [] : [`@anthropic-ai/claude-code@${own.devDependencies["@anthropic-ai/claude-code"]}`];
  await execa("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--save-dev", join(dir, packed[0].filename), ...claude], { cwd: project });
  const plugin = join(project, "plugin");
  mkdirSync(join(plugin, ".claude-plugin"), { recursive: true });
  mkdirSync(join(plugin, "skills", "tidy"), { recursive: true });
  mkdirSync(join(plugin, "hooks"));
  writeFileSync(join(plugin, ".claude-plugin", "plugin.json"), JSON.stringify({ name: PLUGIN, version: "0.1.0", description: "tidies, and gates the shell" }));
  writeFileSync(
    join(plugin, "skills", "tidy", "SKILL.md"),
    "---\nname: tidy\ndescription: Tidy the project (sort imports, drop stray files). Use when the user asks to tidy up.\n---\n\n# Tidy\n\nList what is stray; delete nothing.\n",
  );
  writeFileSync(join(plugin, "hooks", "hooks.json"), JSON.stringify({ description: "the README's gate", hooks: GATE.hooks }, null, 2));
  writeFileSync(join(project, "evals", "first.eval.mjs"), evalSource(true));
  writeFileSync(join(project, "evals", "broken.eval.mjs"), evalSource(false));
}, 300_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("a user's first hour: own plugin, the README's gate, proctor run from the packed package", { timeout: 300_000 }, () => {
  it("the plugin's hook is the README's gate command, as written", () => {
    const hooks = JSON.parse(readFileSync(join(project, "plugin", "hooks", "hooks.json"), "utf8")) as { hooks: unknown };
    expect(JSON.stringify(hooks.hooks)).toContain("${PROCTOR_BIN:-$CLAUDE_PROJECT_DIR/node_modules/.bin/proctor}\\\" gate --purity bounded");
    expect(existsSync(join(project, "node_modules", ".bin", "proctor"))).toBe(true);
  });

  it("plainly: the skill ran and the gate denied, a healthy run — exit 0, passed, JUnit clean", async () => {
    const r = await run("evals/first.eval.mjs", [], "plain");
    expect(r.exitCode, r.all).toBe(0);
    expect(r.stdout).toMatch(/1 eval: 1 passed/);
    expect(r.stdout).toContain(`mock · claude ${claudeVersion()} · 1/1 trials`);
    const x = junit(r.junit);
    expect([x.failures, x.errors], JSON.stringify(x.cases)).toEqual([0, 0]);
    expect(x.cases.filter((c) => c.failure || c.error)).toEqual([]);
    const [report] = reports(r.json);
    expect(report?.trials).toMatchObject({ completed: 1, errored: 0 });
    expect(report?.checks.map((c) => [c.label, c.passes, c.n])).toEqual([
      ["skill(tidy)", 1, 1],
      [expect.stringMatching(/^denied\(Bash/), 1, 1],
    ]);
    expect(report?.health, r.all).toBeUndefined();
    expect(reportsVerdict(reports(r.json)).map((v) => v.status)).toEqual(["passed"]);
  });

  it(`--ablate plugin:${PLUGIN}: the missing skill is expected there, not a health error, and exit code, console, JSON and JUnit agree`, async () => {
    const r = await run("evals/first.eval.mjs", ["--ablate", `plugin:${PLUGIN}`], "ablate");
    const all = reports(r.json);
    expect(all.map((x) => x.name)).toEqual(["tidy then guard", `tidy then guard [without plugin:${PLUGIN}]`]);
    const [withArm, withoutArm] = all as [CheckReport, CheckReport];
    // The arm without the plugin: its skill and its hook are gone, so both checks fail there — the
    // part's effect, counted in n, never an errored or unhealthy trial.
    expect(withoutArm.trials).toMatchObject({ completed: 1, errored: 0 });
    expect(withoutArm.errors).toEqual([]);
    expect(withoutArm.health, r.all).toBeUndefined();
    expect(withArm.ablation?.checks.find((c) => c.label === "skill(tidy)")).toMatchObject({ with: { passes: 1, n: 1 }, without: { passes: 0, n: 1 }, namesRemoved: ["skill tidy"] });
    expect(r.stdout).toMatch(new RegExp(`without +1/1 trials evaluated · run health ok · not loaded there, as expected \\(removed with plugin:${PLUGIN}\\): skill tidy`));
    expect(r.stdout).not.toMatch(/skills-loaded/);
    // One verdict, four readers: the documented rule (an arm without that holds evidence does not fail the eval).
    const verdict = reportsVerdict(all);
    expect(verdict.map((v) => v.status), JSON.stringify(verdict)).toEqual(["passed"]);
    expect(r.exitCode, r.all).toBe(0);
    expect(r.stdout).toMatch(/1 eval: 1 passed/);
    const x = junit(r.junit);
    expect([x.failures, x.errors], JSON.stringify(x.cases)).toEqual([0, 0]);
    expect(x.cases.filter((c) => c.failure || c.error)).toEqual([]);
    expect(x.cases.map((c) => c.name)).toContain(`arm without plugin:${PLUGIN}`);
  });

  it("PROCTOR_BIN unset: the README hook cannot start in the trial, so the run is unhealthy, names the hook, and exits non-zero", async () => {
    const r = await run("evals/broken.eval.mjs", [], "broken");
    expect(r.exitCode, r.all).toBe(1);
    expect(r.stdout).not.toMatch(/1 eval: 1 passed/);
    expect(r.all).toMatch(/hooks-ok/);
    // The console names the hook and what the shell printed, not only the health item.
    expect(r.stdout).toMatch(/e\.g\. trial 0: hooks-ok: .*PreToolUse:\w+ could not start its command \(exit 2, which claude took as a deliberate block\): \/bin\/sh: \d+: \S*\/node_modules\/\.bin\/proctor: not found/);
    const [report] = reports(r.json);
    expect(report?.trials.errored).toBe(1);
    expect(report?.errors[0]).toMatchObject({ code: "RUN_UNHEALTHY", health: ["hooks-ok"] });
    expect(reportsVerdict(reports(r.json)).map((v) => v.status)).toEqual(["failed"]);
    const x = junit(r.junit);
    expect(x.failures + x.errors, JSON.stringify(x.cases)).toBeGreaterThan(0);
  });
});
