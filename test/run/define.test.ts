/** defineEval: declaring validates and spends nothing. */
import { describe, expect, it } from "vitest";
import { defineEval, isEvalDefinition, notTool, tool } from "../../src/index.js";
import { chooseTier } from "../../src/eval/run-evals.js";

const mock = { prompt: "p", script: { turns: [{ text: "hi" }] } };

describe("defineEval", () => {
  it("fills defaults, freezes, brands, and never calls anything", () => {
    let calls = 0;
    const e = defineEval({ name: "e", mock: () => {
      calls++;
      return mock;
    }, checks: [tool("Read")] });
    expect(calls).toBe(0);
    expect(e).toMatchObject({ name: "e", trials: 10, thresholds: { min: 1 }, seed: "e", tiers: ["mock"] });
    expect(Object.isFrozen(e)).toBe(true);
    expect(isEvalDefinition(e)).toBe(true);
    expect(isEvalDefinition({ ...e })).toBe(false);
  });

  it.each([
    [{ checks: [tool("Read")], mock }, /name must be a non-empty string/],
    [{ name: "e", checks: [tool("Read")] }, /give at least one: mock/],
    [{ name: "e", mock, checks: [] }, /checks must be a non-empty array/],
    [{ name: "e", mock, checks: [{ kind: "tool" }] }, /checks\[0\] is not a check/],
    [{ name: "e", mock, checks: [tool("Read")], trials: 0 }, /trials must be a positive integer; got 0/],
    [{ name: "e", mock, checks: [tool("Read")], thresholds: { per: { "tool(Bash)": 0.5 } } }, /thresholds\.per\["tool\(Bash\)"\] matches no check/],
    [{ name: "e", mock, checks: [tool("Read")], thresholds: { min: 80 } }, /thresholds\.min must be a rate within 0\.\.1/],
    [{ name: "e", mock, checks: [tool("Read")], trails: 3 }, /trails is not a field of an eval/],
    [{ name: "e", real: { prompt: "p", script: {} }, checks: [tool("Read")] }, /real\.script has no place in the real tier/],
    [{ name: "e", mock, run: () => null, checks: [tool("Read")] }, /run cannot be combined with mock, replay or real/],
    [{ name: "e", mock: "spec.json", checks: [tool("Read")] }, /mock must be a harness spec/],
  ])("refuses %o", (spec, message) => {
    expect(() => defineEval(spec as never)).toThrow(message);
  });
});

describe("chooseTier", () => {
  const both = defineEval({ name: "both", mock, real: { prompt: "p" }, checks: [notTool("Bash")] });
  const realOnly = defineEval({ name: "real", real: { prompt: "p" }, checks: [notTool("Bash")] });
  it("auto prefers the free mock tier; the flags choose; a missing tier is not run, with the reason", () => {
    expect(chooseTier(both, "auto")).toBe("mock");
    expect(chooseTier(both, "real")).toBe("real");
    expect(chooseTier(realOnly, "auto")).toBe("real");
    expect(chooseTier(realOnly, "mock")).toEqual({ notRun: "it has no mock tier (run with --real)" });
    const replayAndReal = defineEval({ name: "r", replay: "rec.jsonl", real: { prompt: "p" }, checks: [tool("Read")] });
    expect(chooseTier(replayAndReal, "auto")).toBe("replay"); // free before paid
    expect(chooseTier(replayAndReal, "real")).toBe("real");
    expect(chooseTier(both, "replay")).toEqual({ notRun: "it has no replay tier" });
    expect(() => defineEval({ name: "r", replay: 3 as never, checks: [tool("Read")] })).toThrow(/replay must be a recording path/);
  });
});
