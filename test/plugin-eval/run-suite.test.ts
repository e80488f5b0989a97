/**
 * The suite runner's bookkeeping over runs whose evidence is given (the tiers are the harness's,
 * tested against the real binary elsewhere): arms, with-only graders, judge votes, errored runs,
 * and the aggregate-result.json it writes.
 */
import { describe, expect, it } from "vitest";
import { evidenceFromStream } from "../../src/plugin-eval/grade.js";
import { graderOf } from "../../src/plugin-eval/export.js";
import { readPluginEvalSuite } from "../../src/plugin-eval/read.js";
import { aggregateResult, runPluginEvalSuite } from "../../src/plugin-eval/run-suite.js";
import type { Trace } from "../../src/trace/types.js";

const FIXTURE = new URL("../fixtures/plugin-eval/greeter/evals", import.meta.url).pathname;
const trace = (): Trace => ({ version: 1, source: { kind: "synthetic" }, complete: true, toolCalls: [], subagents: [], skills: [], hooks: [], replies: [], errors: [] });
const line = (o: unknown) => JSON.stringify(o);
const assistant = (content: unknown[], parent: string | null = null) => line({ type: "assistant", message: { id: `m${Math.random()}`, content }, parent_tool_use_id: parent });

describe("evidenceFromStream", () => {
  it("reads every tool_use (subagents' too) in order, and the last assistant text", () => {
    const stdout = [
      line({ type: "system", subtype: "init" }),
      assistant([{ type: "tool_use", id: "a", name: "Agent", input: { prompt: "p" } }]),
      assistant([{ type: "text", text: "inner" }], "a"),
      assistant([{ type: "tool_use", id: "b", name: "Bash", input: { command: "ls" } }], "a"),
      "not json",
      assistant([{ type: "text", text: "final" }]),
      line({ type: "result", result: "final" }),
    ].join("\n");
    const e = evidenceFromStream(stdout, ["b.txt", "a.txt"]);
    expect(e.toolCalls.map((c) => [c.name, c.inputText])).toEqual([
      ["Agent", '{"prompt":"p"}'],
      ["Bash", '{"command":"ls"}'],
    ]);
    expect(e.lastMessage).toBe("final");
    expect(e.created).toEqual(["a.txt", "b.txt"]);
    expect(e.events).toHaveLength(6);
  });
});

describe("runPluginEvalSuite", () => {
  it("runs both arms, leaves with-only graders out of the without arm and the score, and scores an errored run 0", async () => {
    const suite = readPluginEvalSuite(FIXTURE);
    const hello = { ...suite, cases: suite.cases.filter((c) => c.case.name === "hello") };
    const asked: string[] = [];
    const outcome = await runPluginEvalSuite(hello, {
      ablation: true,
      runs: 3,
      judge: () => async (prompt) => {
        asked.push(prompt);
        return "PASS";
      },
      runTrial: async (_c, arm, trial) => {
        if (arm === "with" && trial === 2) throw new Error("the run crashed");
        const stdout = [
          assistant([{ type: "tool_use", id: "s", name: "Skill", input: { skill: "greeter:greet" } }]),
          line({ type: "user", message: { content: [{ type: "tool_result", tool_use_id: "s", content: arm === "with" ? "Launching skill: greeter:greet" : "Unknown skill" }] } }),
          assistant([{ type: "text", text: "Hello, Alex!" }]),
        ].join("\n");
        return { trace: trace(), evidence: evidenceFromStream(stdout, []) };
      },
    });
    const c = outcome.cases[0]!;
    expect(c.arms.with.map((r) => r.score)).toEqual([1, 1, 0]);
    expect(c.arms.with[2]!.error).toContain("the run crashed");
    expect(c.arms.with[0]!.graders.find((g) => g.name === "skill-fired")).toMatchObject({ passed: true, withOnly: true, scored: false });
    // Without the plugin: skill-fired is not run; the trace regex (weight 1 of 4) fails.
    expect(c.arms.without!.map((r) => r.graders.map((g) => g.name))).toEqual(Array(3).fill(["friendly", "greets-by-name", "skill-launched"]));
    expect(c.arms.without!.map((r) => r.score)).toEqual([0.75, 0.75, 0.75]);
    expect(c.aggregates).toEqual({ score: 2 / 3, passRate: 2 / 3, scoreWithout: 0.75, passRateWithout: 0, delta: 2 / 3 - 0.75 });
    // Three votes per llm grading, in claude's prompt.
    expect(asked).toHaveLength(3 * 5);
    expect(asked[0]).toBe("You are grading the output of a coding agent against a criterion.\n\nCriterion:\nThe reply greets Alex by name.\n\n\nAgent output (last_message):\nHello, Alex!\n\n\nRespond with exactly one word: PASS or FAIL.");
    const json = aggregateResult(outcome, { startedAt: "t", durationSeconds: 1, costUsd: 0 }) as { cases: { aggregates: unknown; runsPerCase: number }[]; aggregates: unknown };
    expect(json.cases[0]).toMatchObject({ runsPerCase: 3, aggregates: c.aggregates });
    expect(json.aggregates).toEqual({ casesTotal: 1, casesPassed: 0, overallScore: 2 / 3, overallPassRate: 2 / 3, meanDelta: 2 / 3 - 0.75 });
  });
});

describe("graderOf (export)", () => {
  it("maps the checks that have a grader with the same meaning, and no others", () => {
    expect(graderOf({ kind: "notTool", name: "Bash" }, "n")).toEqual({ type: "tool_used", name: "n", weight: 1, tool: "Bash", min: 0, max: 0, arm: "both" });
    expect(graderOf({ kind: "output", matcher: "a.b" }, "o")).toMatchObject({ type: "regex", pattern: "a\\.b", match: "contains", target: "last_message" });
    expect(graderOf({ kind: "output", matcher: { $regex: "x+", $flags: "gi" } }, "o")).toMatchObject({ pattern: "x+", flags: "i" });
    expect(graderOf({ kind: "skill", id: "greet" }, "s")).toEqual({ type: "tool_used", name: "s", weight: 1, tool: "Skill", input_match: '"skill":"(?:[^"]*:)?greet"' });
    expect(graderOf({ kind: "notTool", name: "Bash", args: { command: "rm" } }, "x")).toBeUndefined();
    expect(graderOf({ kind: "toolCount", name: "*", max: 3 }, "x")).toBeUndefined();
    expect(graderOf({ kind: "wrote", path: "a" }, "x")).toBeUndefined();
  });
});
