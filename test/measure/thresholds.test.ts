/** assertRates / evaluateThresholds: one gate, every shortfall listed, no empty passes. */
import { describe, expect, it } from "vitest";
import { assertRates, evaluateThresholds, measure, notTool, ProctorError, type RatesBelowThresholdError, tool, type CheckReport, type Thresholds } from "../../src/index.js";
import { makeTrace, usage } from "../helpers/trace.js";

const withBash = makeTrace({ calls: [{ name: "Bash", input: { command: "ls" } }], usage });
const withRead = makeTrace({ calls: [{ name: "Read", input: {} }], usage });

/** 20 trials: Bash in 9 of them (45%), Read in the other 11. */
const report = await measure({ run: (i) => (i % 20 < 9 ? withBash : withRead), checks: [tool("Bash"), notTool("Bash"), tool("Read")], trials: 20, progress: false });

function thrown(fn: () => unknown): RatesBelowThresholdError {
  try {
    fn();
  } catch (error) {
    return error as RatesBelowThresholdError;
  }
  throw new Error("expected a throw");
}

describe("assertRates", () => {
  it("passes and returns the verdict when every gated check holds", () => {
    const v = assertRates(report, { min: 0.4 });
    expect(v.status).toBe("passed");
    expect(v.rows.map((r) => [r.label, r.min, r.pass])).toEqual([
      ["tool(Bash)", 0.4, true],
      ["notTool(Bash)", 0.4, true],
      ["tool(Read)", 0.4, true],
    ]);
  });

  it("throws listing every shortfall with rate, counts and interval", () => {
    const error = thrown(() => assertRates(report, { min: 0.8 }));
    expect(error).toBeInstanceOf(ProctorError);
    expect(error.code).toBe("RATES_BELOW_THRESHOLD");
    expect(error.message).toMatchInlineSnapshot(`
      "3 shortfalls against the thresholds
        ✗ tool(Bash): 45.0% (9/20, 95% CI 25.8–65.8%) < minimum 80.0%
        ✗ notTool(Bash): 55.0% (11/20, 95% CI 34.2–74.2%) < minimum 80.0%
        ✗ tool(Read): 55.0% (11/20, 95% CI 34.2–74.2%) < minimum 80.0%"
    `);
  });

  it("takes per-label over per-kind over min, and leaves ungated checks alone", () => {
    const v = evaluateThresholds(report, { per: { tool: 0.5, "tool(Read)": 0.3 } });
    expect(v.rows.map((r) => [r.label, r.min, r.source, r.pass])).toEqual([
      ["tool(Bash)", 0.5, "kind", false],
      ["notTool(Bash)", undefined, undefined, undefined],
      ["tool(Read)", 0.3, "label", true],
    ]);
    expect(v.shortfalls).toEqual(["tool(Bash): 45.0% (9/20, 95% CI 25.8–65.8%) < minimum 50.0%"]);
  });

  it("with by: lower holds the interval's lower bound to the minimum", () => {
    expect(evaluateThresholds(report, { min: 0.3 }).status).toBe("passed");
    const v = evaluateThresholds(report, { min: 0.3, by: "lower" });
    expect(v.status).toBe("failed");
    expect(v.shortfalls[0]).toBe("tool(Bash): 45.0% (9/20, 95% CI 25.8–65.8%): lower bound 25.8% < minimum 30.0%");
  });

  it("uses the thresholds the report recorded when given none", async () => {
    const gated = await measure({ run: () => withRead, checks: [tool("Read")], trials: 3, thresholds: { min: 0.9 }, progress: false });
    expect(assertRates(gated).status).toBe("passed");
    const { thresholds: _recorded, ...ungated } = gated;
    expect(() => assertRates(ungated)).toThrow("no thresholds: pass { min, per }");
  });

  it("fails on errored trials by default (missing evidence) and names them; maxErrored tolerates some", async () => {
    const flaky = await measure({ run: (i) => (i === 2 ? Promise.reject(new Error("API 529 overloaded")) : withRead), checks: [tool("Read")], trials: 5, progress: false });
    const error = thrown(() => assertRates(flaky, { min: 0.5 }));
    expect(error.verdict.problems).toEqual(["1 trial errored (tolerated: 0) — trial 2: API 529 overloaded"]);
    expect(assertRates(flaky, { min: 0.5, maxErrored: 1 }).status).toBe("passed");
  });

  it("refuses an empty report: nothing evaluated is not a pass", async () => {
    const empty = await measure({ run: () => Promise.reject(new Error("no binary")), checks: [tool("Read")], trials: 2, progress: false });
    const error = thrown(() => assertRates(empty, { min: 0, maxErrored: 5 }));
    expect(error.verdict.shortfalls).toEqual([
      "no trial was evaluated (2 ran, 2 errored): an empty report is not a pass",
      "tool(Read): no evaluated trials (minimum 0%)",
    ]);
  });

  it("does not pass a skipped report: it throws EVAL_SKIPPED with the reason", () => {
    const skipped: CheckReport = { ...report, skipped: { reason: "ANTHROPIC_API_KEY is not set" } };
    const error = thrown(() => assertRates(skipped, { min: 0.1 }));
    expect(error.code).toBe("EVAL_SKIPPED");
    expect(error.verdict.status).toBe("skipped");
    expect(error.message).toContain("skipped: ANTHROPIC_API_KEY is not set");
  });

  it.each<[Thresholds, string]>([
    [{ min: 80 }, "thresholds.min must be a rate within 0..1 (0.8 means 80%); got 80"],
    [{ per: { tol: 0.5 } }, 'thresholds.per["tol"] matches no check label or kind'],
    [{}, "thresholds gates nothing: give min (every check) or per (by label or kind)"],
    [{ min: 0.5, mni: 0.2 } as Thresholds, 'thresholds: unknown field "mni"'],
    [{ min: 0.5, by: "upper" } as unknown as Thresholds, 'thresholds.by must be "rate" or "lower"; got "upper"'],
  ])("refuses bad thresholds: %j", (thresholds, message) => {
    expect(() => assertRates(report, thresholds)).toThrow(message);
  });
});
