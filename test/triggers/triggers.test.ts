/**
 * Trigger suites scored as a classifier: precision and recall against a brute-force count, the
 * collision matrix against a brute-force tally, unhealthy runs errored (never "did not fire"),
 * and the suite validated at definition.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { collisionMatrix, defineTriggerSuite, triggerFired, measureTriggers, ProctorError, renderTriggerReport, scoreTriggers, type Trace, type TriggerTrial } from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

const suite = defineTriggerSuite({ name: "commit", target: { skill: "commit" }, shouldTrigger: ["commit this", "make a commit"], shouldNotTrigger: ["push it", "show the log"] });

const withSkill = (...names: string[]): Trace =>
  makeTrace({ calls: names.map((n) => ({ name: "Skill", input: { skill: n } })), skills: names.map((name, callIndex) => ({ name, callIndex, agent: "main", status: "success" as const })) });
const withAgent = (type: string): Trace =>
  makeTrace({ calls: [{ name: "Agent", input: { subagent_type: type }, id: "toolu_a" }], subagents: [{ id: "toolu_a", type, prompt: "p", calls: [], status: "success" }] });

describe("triggerFired", () => {
  it("matches a bare name against plugin:name, an exact plugin:name only itself, and ignores failed skills", () => {
    expect(triggerFired(withSkill("git-tools:commit"), { skill: "commit" })).toBe(true);
    expect(triggerFired(withSkill("git-tools:commit"), { skill: "other:commit" })).toBe(false);
    const failed = makeTrace({ calls: [{ name: "Skill", input: { skill: "commit" }, status: "failure" }], skills: [{ name: "commit", callIndex: 0, agent: "main", status: "failure" }] });
    expect(triggerFired(failed, { skill: "commit" })).toBe(false);
    expect(triggerFired(withAgent("feature-dev:code-explorer"), { subagent: "code-explorer" })).toBe(true);
  });
});

describe("scoreTriggers", () => {
  const trial = fc.record({
    prompt: fc.constantFrom("a", "b", "c"),
    expected: fc.boolean(),
    trial: fc.nat(3),
    fired: fc.option(fc.boolean(), { nil: undefined }),
    firedTargets: fc.subarray(["skill:x", "skill:y", "subagent:z"]),
  });

  it("counts and rates exactly as a brute-force tally does", () => {
    fc.assert(
      fc.property(fc.array(trial, { maxLength: 30 }), (raw) => {
        const trials: TriggerTrial[] = raw.map(({ fired: f, ...t }) => (f === undefined ? { ...t, error: "broken" } : { ...t, fired: f }));
        const r = scoreTriggers(suite, trials);
        const count = (e: boolean, f: boolean) => trials.filter((t) => t.fired !== undefined && t.expected === e && t.fired === f).length;
        const [tp, fp, fn, tn] = [count(true, true), count(false, true), count(true, false), count(false, false)];
        expect([r.tp, r.fp, r.fn, r.tn, r.errored]).toEqual([tp, fp, fn, tn, trials.filter((t) => t.fired === undefined).length]);
        expect(r.precision).toBe(tp + fp ? tp / (tp + fp) : undefined);
        expect(r.recall).toBe(tp + fn ? tp / (tp + fn) : undefined);
        for (const row of r.collisions.rows) {
          const mine = trials.filter((t) => t.prompt === row.prompt && t.fired !== undefined);
          expect(row.counted).toBe(mine.length);
          for (const name of r.collisions.targets) expect(row.fired[name] ?? 0).toBe(mine.filter((t) => t.firedTargets.includes(name)).length);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("leaves precision undefined when the target never fired, instead of calling it perfect", () => {
    const r = scoreTriggers(suite, [{ prompt: "push it", expected: false, trial: 0, fired: false, firedTargets: [] }]);
    expect(r.precision).toBeUndefined();
    expect(renderTriggerReport(r)).toContain("precision —");
  });
});

describe("measureTriggers", () => {
  it("scores a suite and shows two skills fighting over one prompt in the collision matrix", async () => {
    const run = (prompt: string) => (prompt === "commit this" ? withSkill("git-tools:commit", "other:commit-helper") : prompt === "make a commit" ? makeTrace() : prompt === "push it" ? withSkill("git-tools:commit") : makeTrace());
    const report = await measureTriggers(suite, { run, trials: 2 });
    expect([report.tp, report.fp, report.fn, report.tn]).toEqual([2, 2, 2, 2]);
    expect(report.precision).toBe(0.5);
    expect(report.recall).toBe(0.5);
    expect(collisionMatrix(report.trials).rows.find((r) => r.prompt === "commit this")?.fired).toEqual({ "skill:git-tools:commit": 2, "skill:other:commit-helper": 2 });
    const text = renderTriggerReport(report);
    expect(text).toContain("missed \"make a commit\"");
    expect(text).toContain("fired on \"push it\"");
    expect(text).toMatch(/"commit this": skill:git-tools:commit 2\/2, skill:other:commit-helper 2\/2 {2}← collision/);
  });

  it("errors a trial whose run did not happen as designed, or threw, rather than counting it as not firing", async () => {
    const unhealthy = makeTrace({ errors: [{ kind: "plugin-not-loaded", message: "plugin git-tools failed to load" }] });
    const report = await measureTriggers(suite, {
      run: (prompt) => {
        if (prompt === "push it") throw new Error("claude exited 1");
        return prompt === "show the log" ? unhealthy : withSkill("commit");
      },
    });
    expect([report.tp, report.fp, report.fn, report.tn, report.errored]).toEqual([2, 0, 0, 0, 2]);
    expect(report.trials.find((t) => t.prompt === "show the log")?.error).toContain("did not happen as designed");
    expect(report.trials.find((t) => t.prompt === "push it")?.error).toContain("claude exited 1");
    expect(report.precision).toBe(1);
  });

  it("refuses a suite that cannot be scored, naming what to add", () => {
    const bad = (s: object) => () => defineTriggerSuite({ name: "x", target: { skill: "s" }, shouldTrigger: ["a"], shouldNotTrigger: ["b"], ...s } as never);
    expect(bad({ shouldNotTrigger: [] })).toThrow(/precision means nothing/);
    expect(bad({ shouldTrigger: [] })).toThrow(/recall cannot be measured/);
    expect(bad({ target: { skill: "a", subagent: "b" } })).toThrow(ProctorError);
    expect(bad({ shouldNotTrigger: ["a"] })).toThrow(/in shouldTrigger and shouldNotTrigger/);
  });
});
