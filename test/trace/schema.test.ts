import { describe, expect as vexpect, it } from "vitest";
import { traceErrors } from "../../src/trace/schema.js";
import { validateTrace } from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

describe("validateTrace", () => {
  it("accepts a well-formed trace", () => {
    vexpect(traceErrors(makeTrace({ calls: [{ name: "Read" }] }))).toEqual([]);
  });
  it("names the path and what was expected, for every problem", () => {
    const bad = JSON.parse(JSON.stringify(makeTrace({ calls: [{ name: "Read" }] })));
    bad.toolCalls[0].status = "ok";
    delete bad.replies;
    bad.usage = { costUsd: -1 };
    bad.extra = true;
    vexpect(traceErrors(bad)).toEqual(
      vexpect.arrayContaining([
        'trace.toolCalls[0].status: must be one of "success", "failure", "denied", "invalid", "partial", "pending", "absent" (got "ok")',
        'trace: missing required field "replies"',
        'trace: unknown field "extra"',
        'trace.usage: missing required field "inputTokens"',
        "trace.usage.costUsd: must be >= 0 (got -1)",
      ]),
    );
    vexpect(() => validateTrace(bad)).toThrow(/not a valid Trace \(\d+ problems\)/);
  });
});
