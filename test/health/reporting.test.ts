/**
 * An unhealthy trial, as the reporters show it: a JUnit `<error>` (not a `<failure>`) in a
 * "run health" testcase, a line in the run summary naming the items and the fix, and the additive
 * `health` fields of the report that baselines keep.
 */
import { describe, expect as vexpect, it } from "vitest";
import { assessHealth, defineEval, measure, notTool, validateCheckReport, type Trace } from "../../src/index.js";
import { renderJunitReports } from "../../reporters/index.js";
import { renderRunSummary } from "../../reporters/summary/run-summary.js";
import { evaluateThresholds } from "../../src/measure/thresholds.js";
import { makeTrace } from "../helpers/trace.js";

const healthy = (): Trace => makeTrace({ outcome: { subtype: "success", isError: false } });
const unused = (): Trace => {
  const trace = healthy();
  return { ...trace, health: assessHealth(trace, { unusedTurns: [{ agent: "main", remaining: 1 }] }) };
};

async function report() {
  return measure({ name: "guard", run: (i) => (i === 1 ? unused() : healthy()), checks: [notTool("Bash")], trials: 3, progress: false, thresholds: { min: 1 } });
}

describe("an unhealthy trial in the reports", () => {
  it("the report counts it by item, and validates with the additive fields", async () => {
    const r = await report();
    validateCheckReport(r);
    vexpect(r.health).toEqual({ unhealthy: 1, items: { "script-consumed": 1 } });
    vexpect(r.errors).toEqual([vexpect.objectContaining({ trial: 1, code: "RUN_UNHEALTHY", health: ["script-consumed"] })]);
    vexpect(r.checks[0]?.outcomes).toBe("1E1");
  });

  it("JUnit: an <error> in a 'run health' testcase, and no <failure> for the errored trial", async () => {
    const xml = renderJunitReports([await report()]);
    vexpect(xml).toMatch(/<testcase[^>]*name="run health"[^>]*>\s*(<properties>[\s\S]*?<\/properties>\s*)?<error message="1 of 3 trials did not happen as designed \(script-consumed ×1\)[^"]*" type="unhealthy">/);
    vexpect(xml).not.toContain("<failure");
  });

  it("the run summary names the items and what to do", async () => {
    const r = await report();
    const definition = defineEval({ name: "guard", run: healthy, checks: [notTool("Bash")] });
    const verdict = evaluateThresholds(r);
    const text = renderRunSummary([{ definition, tier: "run", report: r, verdict, status: verdict.status }], { colour: false });
    vexpect(text).toMatch(/run health: 1 trial did not happen as designed \(script-consumed ×1\) — fix: find why the agent stopped early/);
  });
});
