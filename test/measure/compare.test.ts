/** compareReports and measureArms: regressed / improved / unchanged / new / missing, honestly at small n. */
import { describe, expect, it } from "vitest";
import { compareReports, measure, measureArms, notTool, tool, type Trace } from "../../src/index.js";
import { makeTrace, usage } from "../helpers/trace.js";
import { bashSometimes } from "./helpers.js";

const withBash = makeTrace({ calls: [{ name: "Bash", input: {} }], usage });
const withRead = makeTrace({ calls: [{ name: "Read", input: {} }], usage });
/** A run where the first `bash` of every 20 trials use Bash. */
const rateOf = (bash: number) => (i: number): Trace => (i % 20 < bash ? withBash : withRead);
const measureAt = (bash: number, trials = 20, checks = [notTool("Bash"), tool("Read")]) => measure({ run: rateOf(bash), checks, trials, progress: false });

describe("compareReports", () => {
  it("calls a drop from 100% to 50% of 20 a regression (Fisher p = 0.00044)", async () => {
    const c = compareReports(await measureAt(0), await measureAt(10));
    const row = c.checks[0];
    expect(row).toMatchObject({ label: "notTool(Bash)", verdict: "regressed", baseline: { n: 20, passes: 20, rate: 1 }, candidate: { n: 20, passes: 10, rate: 0.5 } });
    expect(row.diff).toBeCloseTo(-0.5, 12);
    expect(row.pValue).toBeCloseTo(0.00043592, 8); // scipy.stats.fisher_exact([[20, 0], [10, 10]])
    expect(row.diffInterval!.high).toBeLessThan(0);
    expect(c.regressed).toEqual(["notTool(Bash)", "tool(Read)"]);
    expect(c).toMatchObject({ test: "fisher-exact", correction: "holm", alpha: 0.05 });
    expect(row.note).toMatch(/^100\.0% \(20\/20\) → 50\.0% \(10\/20\): p = 0\.00087 \(Holm-adjusted; raw 0\.00044\) < 0\.05$/);
  });

  it("does not call 20/20 → 18/20 a regression: at n = 20 that is noise", async () => {
    const c = compareReports(await measureAt(0), await measureAt(2));
    expect(c.checks[0].verdict).toBe("unchanged");
    expect(c.checks[0].note).toContain("not a significant change");
  });

  it("sees improvements, and new and missing checks", async () => {
    const before = await measureAt(10, 20, [notTool("Bash"), tool("Bash")]);
    const after = await measureAt(0, 20, [notTool("Bash"), tool("Read")]);
    const c = compareReports(before, after);
    expect(c.checks.map((r) => [r.label, r.verdict])).toEqual([
      ["notTool(Bash)", "improved"],
      ["tool(Read)", "new"],
      ["tool(Bash)", "missing"],
    ]);
    expect(c.improved).toEqual(["notTool(Bash)"]);
  });

  it("Holm's correction can turn a lone raw p < alpha into 'unchanged' among many checks", async () => {
    // 20/20 → 14/20: Fisher p ≈ 0.020 on its own; with 3 compared checks Holm makes it 0.06.
    const checks = [notTool("Bash"), tool("Write"), tool("Edit")];
    const a = await measure({ run: rateOf(0), checks, trials: 20, progress: false });
    const b = await measure({ run: rateOf(6), checks, trials: 20, progress: false });
    expect(compareReports(a, b, { correction: "none" }).checks[0].verdict).toBe("regressed");
    expect(compareReports(a, b).checks[0].verdict).toBe("unchanged");
  });

  it("refuses a bad alpha", async () => {
    const r = await measureAt(0, 2);
    expect(() => compareReports(r, r, { alpha: 5 })).toThrow("compareReports: alpha must be within (0, 1), e.g. 0.05; got 5");
  });
});

describe("measureArms", () => {
  it("measures each arm with the same seed and compares the others with the first", async () => {
    const { baseline, reports, comparisons } = await measureArms({
      arms: { baseline: bashSometimes(0.05), candidate: bashSometimes(0.6) },
      checks: [notTool("Bash")],
      trials: 40,
      seed: 3,
      concurrency: 4,
    });
    expect(baseline).toBe("baseline");
    expect(reports.baseline.name).toBe("baseline");
    expect(reports.candidate.trials.completed).toBe(40);
    expect(comparisons.candidate.checks[0].verdict).toBe("regressed");
  });

  it("shares one concurrency limit between the arms", async () => {
    let active = 0;
    let peak = 0;
    const arm = async () => {
      peak = Math.max(peak, ++active);
      await new Promise((r) => setTimeout(r, 2));
      active--;
      return withRead;
    };
    await measureArms({ arms: { a: arm, b: arm, c: arm }, checks: [tool("Read")], trials: 10, concurrency: 3 });
    expect(peak).toBe(3);
  });

  it("needs two arms", async () => {
    await expect(measureArms({ arms: { only: () => withRead }, checks: [tool("Read")], trials: 1 })).rejects.toThrow("measureArms needs at least two arms");
  });
});
