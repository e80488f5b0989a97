/**
 * Trigger suites scored from Traces: precision and recall against an independent count, the
 * collision matrix across two plugins' skills, and the refusals (missing evidence is not a score).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { collisionMatrix, defineTriggerSuite, fired, renderCollisionMatrix, scoreTriggerSuite } from "../../src/eval/trigger-suite.js";
import type { Trace } from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

const RUNS = Number(process.env.PROCTOR_PROPERTY_RUNS ?? 100);

/** A run in which these skills were invoked (and, for `agent:` names, these subagents dispatched). */
function run(...names: string[]): Trace {
  const skills = names.filter((n) => !n.startsWith("agent:")).map((name, callIndex) => ({ name, callIndex, agent: "main", status: "success" as const }));
  const subagents = names.filter((n) => n.startsWith("agent:")).map((n, i) => ({ id: `a${i}`, type: n.slice(6), prompt: "p", calls: [], status: "success" as const }));
  return makeTrace({ skills, subagents });
}

const suite = defineTriggerSuite({ skill: "tidy", shouldTrigger: ["tidy up the repo", "clean the build dir"], shouldNotTrigger: ["what time is it", "write a poem"] });

describe("scoreTriggerSuite", () => {
  it("counts every run: precision over fires, recall over should-trigger runs, with Wilson intervals", () => {
    const s = scoreTriggerSuite(suite, [
      { prompt: "tidy up the repo", trace: run("hygiene:tidy") },
      { prompt: "tidy up the repo", trace: run("hygiene:tidy") },
      { prompt: "clean the build dir", trace: run() },
      { prompt: "what time is it", trace: run("hygiene:tidy") },
      { prompt: "write a poem", trace: run("other:poem") },
    ]);
    expect(s).toMatchObject({ target: "skill:tidy", truePositives: 2, falseNegatives: 1, falsePositives: 1, trueNegatives: 1 });
    expect(s.precision).toBeCloseTo(2 / 3, 12);
    expect(s.recall).toBeCloseTo(2 / 3, 12);
    expect(s.prompts.find((p) => p.prompt === "tidy up the repo")).toEqual({ prompt: "tidy up the repo", shouldTrigger: true, runs: 2, fired: 2 });
  });

  it("precision is null, not 1, when the skill never fired; a subagent suite reads dispatched agents", () => {
    const s = scoreTriggerSuite(suite, ["tidy up the repo", "clean the build dir", "what time is it", "write a poem"].map((prompt) => ({ prompt, trace: run() })));
    expect(s.precision).toBeNull();
    expect(s.precisionInterval).toEqual({ low: 0, high: 1 });
    const agents = defineTriggerSuite({ agent: "reviewer", shouldTrigger: ["review this"], shouldNotTrigger: ["hi"] });
    const a = scoreTriggerSuite(agents, [{ prompt: "review this", trace: run("agent:reviewer") }, { prompt: "hi", trace: run() }]);
    expect([a.precision, a.recall]).toEqual([1, 1]);
  });

  it("agrees with an independent count on random runs", () => {
    const prompts = [...suite.shouldTrigger, ...suite.shouldNotTrigger];
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.boolean()), { minLength: 0, maxLength: 30 }), (extra) => {
        const obs = [...prompts.map((p) => [prompts.indexOf(p), false] as const), ...extra].map(([i, hit]) => ({ prompt: prompts[i]!, trace: hit ? run("p:tidy") : run("p:other") }));
        const s = scoreTriggerSuite(suite, obs);
        let tp = 0;
        let fp = 0;
        let pos = 0;
        for (const [i, hit] of [...prompts.map((p) => [prompts.indexOf(p), false] as const), ...extra]) {
          if (i < 2) pos++;
          if (hit && i < 2) tp++;
          if (hit && i >= 2) fp++;
        }
        expect(s.recall).toBeCloseTo(tp / pos, 12);
        expect(s.precision).toBe(tp + fp === 0 ? null : tp / (tp + fp));
      }),
      { numRuns: RUNS },
    );
  });

  it("refuses a prompt never run, a run of an unknown prompt, and malformed suites", () => {
    expect(() => scoreTriggerSuite(suite, [{ prompt: "tidy up the repo", trace: run() }])).toThrow(/3 prompts were never run — missing evidence is not a score/);
    expect(() => scoreTriggerSuite(suite, [{ prompt: "nope", trace: run() }])).toThrow(/is not a prompt of the skill:tidy suite/);
    expect(() => defineTriggerSuite({ skill: "a", agent: "b", shouldTrigger: ["x"], shouldNotTrigger: ["y"] })).toThrow(/exactly one of skill/);
    expect(() => defineTriggerSuite({ skill: "a", shouldTrigger: [], shouldNotTrigger: ["y"] })).toThrow(/shouldTrigger must be a non-empty array/);
    expect(() => defineTriggerSuite({ skill: "a", shouldTrigger: ["x"], shouldNotTrigger: ["x"] })).toThrow(/in both/);
    expect(() => fired(run(), "tool:Bash")).toThrow(/must be skill:ID or agent:TYPE/);
  });
});

describe("collisionMatrix", () => {
  const obs = [
    { prompt: "tidy up", trace: run("hygiene:tidy") },
    { prompt: "tidy up", trace: run("hygiene:tidy", "janitor:tidy") },
    { prompt: "review my diff", trace: run("agent:reviewer") },
    { prompt: "review my diff", trace: run("agent:reviewer") },
  ];

  it("rates each prompt × target and lists the runs where two plugins' skills fired together", () => {
    const m = collisionMatrix(obs);
    expect(m.targets).toEqual(["agent:reviewer", "skill:hygiene:tidy", "skill:janitor:tidy"]);
    expect(m.prompts).toEqual(["tidy up", "review my diff"]);
    expect(m.rates).toEqual([
      [0, 1, 0.5],
      [1, 0, 0],
    ]);
    expect(m.collisions).toEqual([{ prompt: "tidy up", targets: ["skill:hygiene:tidy", "skill:janitor:tidy"], runs: 1 }]);
    expect(renderCollisionMatrix(m)).toContain('collision: "tidy up" fired skill:hygiene:tidy and skill:janitor:tidy together in 1 run');
  });

  it("given targets, a bare skill id answers to any plugin's skill of that name", () => {
    const m = collisionMatrix(obs, ["skill:tidy", "agent:reviewer"]);
    expect(m.rates[0]).toEqual([1, 0]);
  });
});
