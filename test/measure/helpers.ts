/** Synthetic trials for measure tests: traces that use Bash with a known probability. */
import type { Trace, TrialContext } from "../../src/index.js";
import { makeTrace, usage } from "../helpers/trace.js";

/** A trial that reaches for Bash with probability p (seeded by the context), else only Read. */
export function bashSometimes(p: number) {
  return (_trial: number, ctx: TrialContext): Trace =>
    makeTrace({
      calls: ctx.random.chance(p) ? [{ name: "Bash", input: { command: "ls" } }] : [{ name: "Read", input: { file_path: "a.txt" } }],
      usage,
      source: { kind: "synthetic", agentVersion: "2.1.197", model: "claude-test" },
    });
}

/** The report without its clock fields: what must be identical between two runs with one seed. */
export function withoutClock<R extends { timing: unknown }>(report: R): Omit<R, "timing"> {
  const { timing: _timing, ...rest } = report;
  return rest;
}
