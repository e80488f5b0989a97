import { observedLines as linesOf } from "../src/checks/observed.js";
import { validateTrace } from "../src/trace/schema.js";
import type { Trace } from "../src/trace/types.js";

/**
 * Each call's observed effects and the jail's refusals, one line each: the `observed` notes of a
 * `ResultSuite`. A value that is not a Trace is an error naming what is wrong with it, as the other
 * trace views say it.
 */
export function observedLines(trace: Trace): string[] {
  validateTrace(trace);
  return linesOf(trace);
}
