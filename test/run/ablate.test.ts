/**
 * `proctor run --ablate`: the eval with and without a plugin on the real claude binary (mock model):
 * the summary, the JSON reports (both arms, the comparison on the first) and the JUnit properties.
 * 3 of 3 denied with the guard plugin vs 0 of 3 without is Fisher's two-sided p = 0.10: not significant.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validateCheckReport, type CheckReport } from "../../src/index.js";
import { parseJunit } from "../reporters/helpers.js";
import { reportsVerdict } from "../../src/measure/ablation-verdict.js";
import { proctor } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "proctor-ablate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const evalFile = new URL("./fixtures/ablate.eval.mjs", import.meta.url).pathname;
const noColour = { ...(process.env as Record<string, string>), NO_COLOR: "1" };

describe("proctor run --ablate (real claude binary, mock model)", () => {
  it("runs both arms and reports the delta, its interval, Fisher's p and the trials per arm to see it", { timeout: 120_000 }, async () => {
    const json = join(dir, "reports.json");
    const junit = join(dir, "run.xml");
    const html = join(dir, "run.html");
    const r = await proctor(["run", evalFile, "--ablate", "plugin:repo-hygiene", "--json", json, "--junit", junit, "--html", html, "--quiet"], { env: noColour });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain("ablation: with vs without plugin:repo-hygiene");
    expect(r.stdout).toMatch(/≈ denied\(Bash, .*?\)\s+\+100 pts \(3\/3 with vs 0\/3 without, 95% CI \+21…\+100, anytime-valid −\d+…\+100 \(paired −\d+…\+100 over 3 pairs\), Fisher p = 0\.100, not significant at 0\.05; ~4 trials per arm to see it at 80% power\)/);

    const reports = (JSON.parse(readFileSync(json, "utf8")) as unknown[]).map((x, i) => validateCheckReport(x, `reports[${i}]`)) as CheckReport[];
    expect(reports.map((x) => x.name)).toEqual(["guard denies rm -rf", "guard denies rm -rf [without plugin:repo-hygiene]"]);
    const [withArm, withoutArm] = reports as [CheckReport, CheckReport];
    expect(withoutArm.thresholds).toBeUndefined(); // the arm without is measured, not gated
    const check = withArm.ablation!.checks[0]!;
    expect(check).toMatchObject({ with: { passes: 3, n: 3 }, without: { passes: 0, n: 3 }, delta: 1, significant: false });
    expect(check.pValue).toBeCloseTo(0.1, 12);
    expect(check.sequence.low).toBeLessThan(0); // three trials a side show nothing anytime-valid either

    // The HTML page (drawn in a browser by test/reporters/run-report-chromium.test.ts) holds the same comparison.
    const page = readFileSync(html, "utf8");
    expect(page).toContain("Ablation: with vs without <code>plugin:repo-hygiene</code>");
    expect(page).toContain("Fisher p = 0.100");
    const { suites } = parseJunit(readFileSync(junit, "utf8"));
    const text = JSON.stringify(suites[0]);
    expect(text).toContain("ablation.component");
    expect(text).toContain("ablation.pValue");
    expect(text).toContain("ablation.pairs.sequence.low");
    expect(text).not.toContain("ablation.earlyStop"); // it ran without early stopping
  });

  it("--early-stop: the arms stop together once the paired delta clears 0, well before their 12 trials", { timeout: 120_000 }, async () => {
    const json = join(dir, "early.json");
    const early = new URL("./fixtures/ablate-early.eval.mjs", import.meta.url).pathname;
    // At α = 0.2, 5 pairs all one way settle it (8 at 0.05): a few runs, not 24.
    const junit = join(dir, "early.xml");
    const r = await proctor(["run", early, "--ablate", "plugin:repo-hygiene", "--early-stop", "--alpha", "0.2", "--json", json, "--junit", junit, "--quiet"], { env: noColour });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/stopped early: stopped early after 5 pairs: the anytime-valid interval of every check's delta clears 0 or lies within ±0\.2 \(the default margin; --detect sets another\) at 80%/);
    const [withArm, withoutArm] = (JSON.parse(readFileSync(json, "utf8")) as unknown[]).map((x, i) => validateCheckReport(x, `reports[${i}]`)) as [CheckReport, CheckReport];
    expect(withArm.ablation?.earlyStop).toMatchObject({ stopped: true, pairs: 5, cap: 12, alpha: 0.2, verdicts: [{ verdict: "matters" }] });
    expect(withArm.trials.completed).toBeLessThan(12);
    expect(withoutArm.trials.completed).toBeLessThan(12);
    expect(withArm.ablation?.checks[0]?.pairs).toMatchObject({ down: 0 });
    const text = JSON.stringify(parseJunit(readFileSync(junit, "utf8")).suites[0]);
    expect(text).toContain("ablation.earlyStop.verdict");
    expect(text).toContain("matters");
  });

  it("a skill of the ablated plugin is expected missing without it: a failed check there, healthy runs, and exit code, console, JSON and JUnit agree", { timeout: 120_000 }, async () => {
    const json = join(dir, "skill.json");
    const junit = join(dir, "skill.xml");
    const skillEval = new URL("./fixtures/ablate-skill.eval.mjs", import.meta.url).pathname;
    const r = await proctor(["run", skillEval, "--ablate", "plugin:repo-hygiene", "--json", json, "--junit", junit, "--quiet"], { env: noColour });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/with +3\/3 trials evaluated · run health ok/);
    expect(r.stdout).toContain("without  3/3 trials evaluated · run health ok · not loaded there, as expected (removed with plugin:repo-hygiene): skill run-checks, agent reviewer, hook PreToolUse, hook Stop");
    expect(r.stdout).toMatch(/≈ skill\(run-checks\) +\+100 pts \(3\/3 with vs 0\/3 without/);
    expect(r.stdout).toContain("names skill run-checks, removed with plugin:repo-hygiene: failing without it is the expected effect");
    expect(r.stdout).toMatch(/≈ output\(.*\) +\+0 pts \(3\/3 with vs 3\/3 without/);
    expect(r.stdout).toContain("1 eval: 1 passed");
    const reports = (JSON.parse(readFileSync(json, "utf8")) as unknown[]).map((x, i) => validateCheckReport(x, `reports[${i}]`)) as CheckReport[];
    const [withArm, withoutArm] = reports as [CheckReport, CheckReport];
    expect(withoutArm.trials).toMatchObject({ completed: 3, errored: 0 });
    expect(withoutArm.health).toBeUndefined();
    expect(withArm.ablation?.checks[0]).toMatchObject({ label: "skill(run-checks)", without: { passes: 0, n: 3 }, namesRemoved: ["skill run-checks"] });
    expect(reportsVerdict(reports).map((v) => v.status)).toEqual(["passed"]);
    const { root, suites } = parseJunit(readFileSync(junit, "utf8"));
    expect([root["@failures"], root["@errors"]].map(Number)).toEqual([0, 0]);
    expect(JSON.stringify(suites[0])).toContain("arm without plugin:repo-hygiene");
  });

  it("refuses a component the eval does not have, naming the ones it has", async () => {
    const r = await proctor(["run", evalFile, "--ablate", "plugin:nope", "--quiet"], { env: noColour });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('the run has no plugin "nope" to remove');
    expect(r.stderr).toContain('"plugin"');
    const bad = await proctor(["run", evalFile, "--ablate", "widget:x"], { env: noColour });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/is not a component to ablate; write plugin:NAME/);
    const detect = await proctor(["run", evalFile, "--detect", "0.2"], { env: noColour });
    expect(detect.stderr).toMatch(/--detect and --power plan an ablation/);
  });
});
