/** The CheckReport schema: real reports validate; broken ones fail with paths; other versions are refused. */
import { describe, expect, it } from "vitest";
import { checkReportErrors } from "../../src/measure/schema.js";
import { measure, parseCheckReport, tool, validateCheckReport } from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

const report = await measure({ run: () => makeTrace({ calls: [{ name: "Bash" }] }), checks: [tool("Bash")], trials: 3, k: [2], progress: false });

describe("CheckReport schema", () => {
  it("round-trips a real report through JSON", () => {
    expect(parseCheckReport(JSON.stringify(report))).toEqual(report);
  });
  it("names the path and the problem", () => {
    const broken = JSON.parse(JSON.stringify(report));
    broken.checks[0].rate = 1.5;
    delete broken.usage.costUsd;
    broken.checks[0].outcomes = "11x";
    expect(checkReportErrors(broken)).toEqual([
      "report.checks[0].rate: must be <= 1 (got 1.5)",
      'report.checks[0].outcomes: must match pattern "^[10E]*$" (got "11x")',
      'report.usage: missing required field "costUsd"',
    ]);
  });
  it("checks that the counts agree with each other", () => {
    const broken = JSON.parse(JSON.stringify(report));
    broken.checks[0].n = 4;
    broken.trials.ran = 2;
    expect(() => validateCheckReport(broken, "r.json")).toThrow(/r\.json is not a valid measure report \(\d problems\)[\s\S]*r\.json\.trials\.ran: 2 ≠ completed 3 \+ errored 0[\s\S]*r\.json\.checks\[0\]\.n: 4, but 3 trials completed/);
  });
  it("refuses another format version instead of misreading it", () => {
    expect(() => validateCheckReport({ ...report, version: 2 }, "old.json")).toThrow("old.json.version: this is a version 2 report; this proctor reads version 1");
  });
  it("says when the text is not JSON", () => {
    expect(() => parseCheckReport("{", "x.json")).toThrow(/^x\.json is not JSON: /);
  });
});
