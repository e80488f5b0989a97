/**
 * A grading belongs to the judge that made it: two judges grading the same output against the same
 * rubric must each decide their own check, whatever order they run in.
 */
import { describe, expect, it } from "vitest";
import { evaluateChecks, judged, setDefaultJudge, type JudgeFn } from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

const approve: JudgeFn = async () => ({ pass: true, score: 1, reason: "fine" });
const reject: JudgeFn = async () => ({ pass: false, score: 0, reason: "not polite" });

describe("judged: a grading is not shared between judges", () => {
  it("a rejecting judge fails after an approving judge graded the same Trace and rubric", async () => {
    const trace = makeTrace({ output: "Done." });
    const [first] = await evaluateChecks(trace, [judged("is polite", { judge: approve })]);
    expect(first.pass).toBe(true);
    const [second] = await evaluateChecks(trace, [judged("is polite", { judge: reject })]);
    expect(second.pass).toBe(false);
  });

  it("the default judge's later replacement grades anew", async () => {
    const trace = makeTrace({ output: "Done." });
    try {
      setDefaultJudge(approve);
      expect((await evaluateChecks(trace, [judged("is polite")]))[0].pass).toBe(true);
      setDefaultJudge(reject);
      expect((await evaluateChecks(trace, [judged("is polite")]))[0].pass).toBe(false);
    } finally {
      setDefaultJudge(undefined);
    }
  });

  it("two judges in one evaluation each decide their own check", async () => {
    const trace = makeTrace({ output: "Done." });
    const slowApprove: JudgeFn = () => new Promise((r) => setTimeout(() => r({ pass: true, score: 1 }), 20));
    const results = await evaluateChecks(trace, [judged("is polite", { judge: reject }), judged("is polite", { judge: slowApprove })]);
    expect(results.map((r) => r.pass)).toEqual([false, true]);
  });

  it("a verdict with a null score is not a pass", async () => {
    const trace = makeTrace({ output: "Done." });
    const nullScore = (async () => ({ pass: true, score: null })) as unknown as JudgeFn;
    expect((await evaluateChecks(trace, [judged("is polite", { judge: nullScore })]))[0].pass).toBe(false);
  });
});
