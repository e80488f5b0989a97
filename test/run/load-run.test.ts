/** Loading eval files (.mjs natively, .ts through tsx) and running them with the real measure. */
import { describe, expect, it } from "vitest";
import { defineEval, evaluateThresholds, loadEvalFiles, runEvals, tool, type EvalTiers } from "../../src/index.js";
import { loadEvalFile } from "../../src/eval/load.js";
import { makeTrace } from "../helpers/trace.js";

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;

describe("loading eval files", () => {
  it("collects every eval a .mjs file exports (here, an array default export)", async () => {
    const loaded = await loadEvalFile(fixture("recorded.eval.mjs"));
    expect(loaded.evals.map((e) => e.name)).toEqual(["lockfile guard", "strict"]);
  });

  it("loads a TypeScript eval file on Node 20 through tsx", async () => {
    const loaded = await loadEvalFile(fixture("typed.eval.ts"));
    expect(loaded.evals.map((e) => [e.name, e.trials])).toEqual([["typed", 2]]);
  });

  it("refuses, naming the file: no evals, a throwing defineEval, a missing file, a wrong extension, duplicate names", async () => {
    await expect(loadEvalFile(fixture("none.eval.mjs"))).rejects.toThrow(/none\.eval\.mjs declares no evals: export them/);
    await expect(loadEvalFile(fixture("broken.eval.mjs"))).rejects.toThrow(/broken\.eval\.mjs: defineEval\("broken"\): checks must be a non-empty array/);
    await expect(loadEvalFile(fixture("missing.eval.mjs"))).rejects.toThrow(/missing\.eval\.mjs does not exist/);
    await expect(loadEvalFile(fixture("../define.test.ts".replace(".ts", ".txt")))).rejects.toThrow(/does not exist|must be \.ts/);
    await expect(loadEvalFiles([fixture("recorded.eval.mjs"), fixture("recorded.eval.mjs")])).rejects.toThrow(/two evals are named "lockfile guard"/);
  });
});

describe("runEvals", () => {
  const trace = makeTrace({ calls: [{ name: "Read" }], usage: { costUsd: 0.4, durationMs: 1, inputTokens: 1, outputTokens: 1, cacheCreationTokens: 0, cacheReadTokens: 0 } });

  it("gates each report with measure's thresholds", async () => {
    const [loaded] = await loadEvalFiles([fixture("recorded.eval.mjs")]);
    const outcomes = await runEvals(loaded.evals, { tiers: {}, progress: false });
    expect(outcomes.map((o) => [o.definition.name, o.tier, o.status])).toEqual([["lockfile guard", "run", "passed"], ["strict", "run", "failed"]]);
    for (const o of outcomes) expect(o.verdict).toEqual(evaluateThresholds(o.report!));
    expect(outcomes[0].report?.checks.map((c) => [c.label, c.passes, c.n])).toEqual([["notTool(Bash)", 2, 4], ["tool(Read)", 2, 4]]);
  });

  it("refuses an unavailable tier or a bad spec before any trial runs", async () => {
    let ran = 0;
    const tiers: EvalTiers = {
      mock: { run: async () => {
        ran++;
        return trace;
      }, validate: (s) => { if (!("script" in s)) throw new Error("spec.script is missing"); } },
      real: { run: async () => {
        ran++;
        return trace;
      }, unavailable: () => "ANTHROPIC_API_KEY is not set" },
    };
    const first = defineEval({ name: "first", run: () => {
        ran++;
        return trace;
      }, checks: [tool("Read")], trials: 1 });
    const real = defineEval({ name: "real", real: { prompt: "p" }, checks: [tool("Read")] });
    await expect(runEvals([first, real], { tiers, progress: false })).rejects.toMatchObject({ code: "NO_API_KEY", message: expect.stringContaining('eval "real" runs on the real tier, but ANTHROPIC_API_KEY is not set') });
    const badMock = defineEval({ name: "bad", mock: { prompt: "p" } as never, checks: [tool("Read")] });
    await expect(runEvals([first, badMock], { tiers, progress: false })).rejects.toThrow(/eval "bad": spec\.script is missing/);
    expect(ran).toBe(0);
  });

  it("hands each trial its own spec (per-trial functions see the trial's seeded random)", async () => {
    const seen: number[] = [];
    const tiers: EvalTiers = { mock: { run: async (spec) => {
          seen.push(Number(spec.prompt));
          return trace;
        } } };
    const e = defineEval({ name: "per-trial", mock: ({ trial }) => ({ prompt: String(trial), script: { turns: [] } }), checks: [tool("Read")], trials: 3 });
    await runEvals([e], { tiers, progress: false });
    expect(seen.sort()).toEqual([0, 1, 2]);
  });

  it("shares --budget-usd across evals: a later eval is not run once it is spent", async () => {
    const make = (name: string) => defineEval({ name, run: () => trace, checks: [tool("Read")], trials: 5 });
    const outcomes = await runEvals([make("a"), make("b")], { tiers: {}, budgetUsd: 1, progress: false });
    expect(outcomes[0].report?.stopped?.reason).toBe("budget");
    expect(outcomes[0].report!.usage.costUsd).toBeGreaterThanOrEqual(0.8);
    expect(outcomes[1]).toMatchObject({ status: "not-run", note: expect.stringContaining("budget of $1 was spent") });
  });

  it("with a shard, reports are partial and not gated", async () => {
    const e = defineEval({ name: "s", run: () => trace, checks: [tool("Read")], trials: 8 });
    const [o] = await runEvals([e], { tiers: {}, shard: "2/4", progress: false });
    expect(o.status).toBe("partial");
    expect(o.verdict).toBeUndefined();
    expect(o.report?.trials.ranges).toEqual([[2, 4]]);
  });
});
