/**
 * The promptfoo bridge end to end: the real `promptfoo eval`, offline, on this directory's config —
 * proctor's provider runs the real claude binary against the mock model, proctor's assertion
 * checks the Trace, and a failing check makes promptfoo report a failure.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { validateTrace } from "proctor";

const EXAMPLE = new URL("./", import.meta.url).pathname;
const home = mkdtempSync(join(tmpdir(), "proctor-promptfoo-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

interface Component {
  pass: boolean;
  score: number;
  reason: string;
  componentResults?: Component[];
  assertion?: { type: string; value?: unknown };
}

describe("promptfoo eval with proctor's provider and assertion", () => {
  it("passes and fails the right cases, with one componentResult per check and the Trace in metadata", async () => {
    const out = join(home, "out.json");
    const r = await execa("npx", ["--no", "promptfoo", "eval", "-c", "promptfooconfig.yaml", "--no-cache", "--no-write", "--no-table", "--no-progress-bar", "--no-share", "-o", out], {
      cwd: EXAMPLE,
      reject: false,
      env: { PROMPTFOO_DISABLE_TELEMETRY: "1", PROMPTFOO_DISABLE_UPDATE: "1", PROMPTFOO_CONFIG_DIR: join(home, "config"), NO_COLOR: "1" },
    });
    // promptfoo exits 100 when a test case failed: the failing proctor check failed the eval.
    expect(r.exitCode, r.stderr + r.stdout).toBe(100);
    expect(r.stdout).toMatch(/2 passed[\s\S]*1 failed[\s\S]*0 errors/);

    const { results } = JSON.parse(readFileSync(out, "utf8"));
    expect(results.stats).toMatchObject({ successes: 2, failures: 1, errors: 0 });
    const byName = Object.fromEntries(results.results.map((x: { testCase: { description: string } }) => [x.testCase.description.split(" ")[1], x]));
    const proctorResult = (x: { gradingResult: Component }) => x.gradingResult.componentResults!.find((c) => c.componentResults?.length)!;

    const guard = byName.guard;
    expect(guard.success).toBe(true);
    expect(proctorResult(guard).componentResults!.map((c) => [c.pass, c.assertion?.value])).toEqual([
      [true, 'proctor: denied(Bash, {"command":/rm\\s+-rf/})'],
      [true, "proctor: wroteOnly([])"],
      [true, "proctor: output(/^Summary:/m)"],
    ]);
    const trace = validateTrace(guard.response.metadata.trace);
    expect(trace.source.kind).toBe("harness");
    expect(trace.toolCalls.map((c) => [c.name, c.status])).toEqual([["Bash", "denied"]]);
    expect(guard.response.cost).toBeGreaterThan(0);
    expect(guard.response.tokenUsage.total).toBeGreaterThan(0);

    expect(byName["run-checks"].success).toBe(true);

    const broken = byName.agent;
    expect(broken.success).toBe(false);
    const failing = proctorResult(broken);
    expect(failing.pass).toBe(false);
    // The skill ran; Edit is outside its tools; and the edit landed, so wroteOnly([]) fails too.
    expect(failing.score).toBeCloseTo(1 / 3);
    expect(failing.componentResults!.map((c) => c.pass)).toEqual([true, false, false]);
    expect(failing.componentResults![1].reason).toMatch(/onlyTools\(\["Skill","Bash","Read"\]\).*Edit/);
  });
});
