/**
 * judged() without a custom judge: the built-in claude judge (one tool-less `claude -p` run, here
 * against the mock model) grades the output; its prompt, answer and cost stay in the CheckResult.
 * An asynchronous judge that nothing awaited, a judge that cannot run, an answer that is not a
 * verdict: each fails, saying why — never a pass.
 */
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claudeJudge, gradingPrompt } from "../../harness/index.js";
import { startMockModel, type MockModel } from "../../mock-model/index.js";
import { evalChecks, evaluateChecks, judged, setDefaultJudge, type JudgeInput } from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

let mock: MockModel;
beforeAll(async () => {
  mock = await startMockModel();
});
afterAll(async () => {
  setDefaultJudge(undefined);
  await mock.close();
});

/** The judge's run sends no tools, which the mock answers as a side request: its sideReply is the judge's answer. */
function judgeAnswering(answer: string) {
  const run = mock.addRun({ turns: [], sideReply: answer });
  return { run, judge: claudeJudge({ baseUrl: mock.url, apiKey: run.apiKey }) };
}

describe("the built-in claude judge", () => {
  it("grades through the real claude binary; the prompt, answer and cost are kept with the verdict", async () => {
    const { run, judge } = judgeAnswering('{"pass": true, "score": 0.9, "reason": "it thanks the user"}');
    const trace = makeTrace({ output: "Done, thank you for waiting!" });
    const [r] = await evaluateChecks(trace, [judged("thanks the user", { judge, min: 0.5 })]);
    expect(r).toMatchObject({ pass: true, score: 0.9, message: "judged 0.90 against the rubric: it thanks the user" });
    expect(r.judge?.prompt).toBe(gradingPrompt({ output: "Done, thank you for waiting!", rubric: "thanks the user" }));
    expect(r.judge?.answer).toContain('"score": 0.9');
    expect(r.judge?.costUsd).toBeTypeOf("number");
    expect(run.sideRequests.at(-1)?.messages).toContain("<rubric>\nthanks the user\n</rubric>");
  });

  it("fails when the judge's answer is not a verdict, or the score is under the minimum", async () => {
    const trace = makeTrace({ output: "ok" });
    const bad = judgeAnswering("I think it is fine.");
    const [r1] = await evaluateChecks(trace, [judged("polite", { judge: bad.judge })]);
    expect(r1.pass).toBe(false);
    expect(r1.message).toMatch(/the judge failed: the judge's answer is not a verdict/);
    const low = judgeAnswering('{"pass": true, "score": 0.2}');
    const [r2] = await evaluateChecks(trace, [judged("polite", { judge: low.judge, min: 0.5 })]);
    expect(r2).toMatchObject({ pass: false, score: 0.2 });
  });

  it("without an API key grading fails with the reason", async () => {
    const judge = claudeJudge({ apiKey: "" });
    const [r] = await evaluateChecks(makeTrace({ output: "ok" }), [judged("polite", { judge })]);
    expect(r.pass).toBe(false);
    expect(r.message).toMatch(/the judge failed: .*ANTHROPIC_API_KEY/);
  });

  it("an asynchronous judge that nothing awaited fails, saying what awaits it; the default judge is used when none is passed", async () => {
    setDefaultJudge(async () => ({ pass: true, score: 1 }));
    const trace = makeTrace({ output: "ok" });
    const [sync] = evalChecks(trace, [judged("anything")]);
    expect(sync.pass).toBe(false);
    expect(sync.message).toMatch(/asynchronously.*evaluateChecks\(\), measure\(\) or proctor run\/check/);
    const [awaited] = await evaluateChecks(trace, [judged("anything")]);
    expect(awaited.pass).toBe(true);
    setDefaultJudge(undefined);
    expect(evalChecks(trace, [judged("anything")])[0].message).toMatch(/no judge configured.*claudeJudge/);
  });
});

describe("what a judge is given", () => {
  /** A trace whose every call input counts how often it is serialised. */
  function countingTrace(n: number) {
    const seen = { serialised: 0 };
    const calls = Array.from({ length: n }, (_, i) => ({
      name: i % 2 ? "Read" : "Bash",
      input: {
        toJSON: () => {
          seen.serialised++;
          return { i };
        },
      } as unknown as Record<string, unknown>,
    }));
    return { trace: makeTrace({ output: "done", calls }), seen };
  }

  it("a judge that reads only the output never pays for writing out the calls", () => {
    const { trace, seen } = countingTrace(50);
    const [r] = evalChecks(trace, [judged("is it done?", { judge: ({ output }) => ({ pass: output === "done", score: 1 }) })]);
    expect(r.pass).toBe(true);
    expect(seen.serialised).toBe(0);
  });

  it("`calls` is every call as name(input), in order, written once however often it is read; spread, JSON and assignment see a plain property", () => {
    const { trace, seen } = countingTrace(3);
    const given: JudgeInput[] = [];
    const judge = (input: JudgeInput) => {
      given.push(input);
      return { pass: true, score: 1 };
    };
    evalChecks(trace, [judged("r", { judge })]);
    const [input] = given;
    expect(input.calls).toEqual(['Bash({"i":0})', 'Read({"i":1})', 'Bash({"i":2})']);
    expect(input.calls).toBe(input.calls);
    expect(seen.serialised).toBe(3);
    expect({ ...input }).toEqual({ output: "done", rubric: "r", calls: ['Bash({"i":0})', 'Read({"i":1})', 'Bash({"i":2})'] });
    expect(JSON.parse(JSON.stringify(input)).calls).toHaveLength(3);
    expect(Object.keys(input)).toContain("calls");
    input.calls = ["x"];
    expect(input.calls).toEqual(["x"]);
    expect(seen.serialised).toBe(3);
  });

  it("a judge that freezes its input still reads `calls`", () => {
    const { trace } = countingTrace(2);
    const [r] = evalChecks(trace, [judged("r", { judge: (input) => ({ pass: Object.freeze(input).calls?.length === 2, score: 1 }) })]);
    expect(r.pass).toBe(true);
  });

  it("a judge that blanks `calls` (undefined, null, []) before passing its input on passes them on blank", () => {
    for (const blank of [undefined, null, []]) {
      const { trace, seen } = countingTrace(4);
      const sent: string[] = [];
      const judge = (input: JudgeInput) => {
        (input as { calls?: unknown }).calls = blank;
        sent.push(JSON.stringify(input));
        return { pass: true, score: 1 };
      };
      evalChecks(trace, [judged("r", { judge })]);
      expect(sent[0]).not.toContain("Bash(");
      expect(seen.serialised).toBe(0);
    }
  });

  it("after its first read `calls` is a plain data property; a copy made with the accessor keeps its own value", () => {
    const { trace } = countingTrace(2);
    const given: JudgeInput[] = [];
    const judge = (input: JudgeInput) => {
      given.push(input);
      return { pass: true, score: 1 };
    };
    evalChecks(trace, [judged("r", { judge }), judged("s", { judge })]);
    const [read, copied] = given;
    if (read === undefined || copied === undefined) throw new Error("the judge was not called twice");
    void read.calls;
    expect(Object.getOwnPropertyDescriptor(read, "calls")).toMatchObject({ value: ['Bash({"i":0})', 'Read({"i":1})'], writable: true, enumerable: true });
    expect(inspect(read)).toContain("Bash(");
    const clone = Object.create(Object.getPrototypeOf(copied), Object.getOwnPropertyDescriptors(copied)) as JudgeInput;
    clone.calls = ["redacted"];
    expect(copied.calls).toEqual(['Bash({"i":0})', 'Read({"i":1})']);
    expect(clone.calls).toEqual(["redacted"]);
  });

  it("a call input that cannot be written out fails the check when the judge reads the calls, never passes on them", () => {
    const trace = makeTrace({ output: "done", calls: [{ name: "Bash", input: { n: 1n } as unknown as Record<string, unknown> }] });
    const reads = judged("r", { judge: (input) => ({ pass: (input.calls?.length ?? 0) > 0, score: 1 }) });
    const [r] = evalChecks(trace, [reads]);
    expect(r.pass).toBe(false);
    expect(r.message).toMatch(/BigInt/);
    // A judge that grades the output alone grades it: the calls it never reads are not its evidence.
    const [o] = evalChecks(trace, [judged("r", { judge: ({ output }) => ({ pass: output === "done", score: 1 }) })]);
    expect(o.pass).toBe(true);
  });

  it("a judge that assigns `calls` before reading it never writes them out", () => {
    const { trace, seen } = countingTrace(5);
    const judge = (input: JudgeInput) => {
      input.calls = [];
      return { pass: input.calls.length === 0, score: 1 };
    };
    evalChecks(trace, [judged("r", { judge })]);
    expect(seen.serialised).toBe(0);
  });
});
