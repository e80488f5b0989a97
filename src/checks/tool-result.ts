/** `toolResult`: what a tool answered — the result text the agent got back from a call. */
import type { Trace } from "../trace/types.js";
import { defineTraceCheck, type Check } from "./check.js";
import { absenceUnprovable, quote, summarizeTools } from "./describe.js";
import { textMatches } from "./text.js";
import { callsNamed, unknownNameVerdict } from "./tools.js";
import { InvalidCheckError, requireName, requireText } from "./validate.js";
import { at } from "../util/narrow.js";

/** Options of `toolResult`. */
export interface ToolResultOptions {
  /**
   * Every call to the tool (at least one) must have returned matching text, not just one: a call
   * with no result fails it, and so does a run that may have made more calls (incomplete).
   * @default false
   */
  readonly all?: boolean | undefined;
}

function show(matcher: string | RegExp): string {
  return typeof matcher === "string" ? JSON.stringify(matcher) : String(matcher);
}

/**
 * Some call to `name` (`"*"` for any tool) returned result text containing `matcher` (a
 * substring) or matching it (a RegExp) — e.g. `toolResult("mcp__db__query", /3 rows/)`. With
 * `{ all: true }` every call to it did. A call that got no result back never matches.
 */
export function toolResult(name: string, matcher: string | RegExp, options: ToolResultOptions = {}): Check<Trace> {
  requireName("toolResult", "name", name);
  requireText("toolResult", "matcher", matcher);
  if (typeof options !== "object" || options === null) throw new InvalidCheckError("toolResult", "options", "must be an object like { all: true }", options);
  if (options.all !== undefined && typeof options.all !== "boolean") throw new InvalidCheckError("toolResult", "options.all", "must be true or false", options.all);
  const all = options.all === true;
  return defineTraceCheck("toolResult", all ? { name, matcher, all } : { name, matcher }, (trace) => {
    const calls = callsNamed(trace, name);
    const wanted = `${all ? "every" : "a"} call to ${name} to return text matching ${show(matcher)}`;
    if (calls.length === 0) {
      const unknown = unknownNameVerdict("toolResult", trace, [name]);
      if (unknown) return unknown;
      return { pass: false, message: `expected ${wanted}; ${name} was never called (the agent made ${summarizeTools(trace.toolCalls)})`, expected: { name, matcher } };
    }
    const matches = calls.map(({ call }) => call.result !== undefined && textMatches(call.result, matcher));
    const describe = (i: number): string => {
      const { call, index } = at(calls, i);
      return `    #${index} ${call.name} → ${call.status}: ${call.result === undefined ? "no result came back" : quote(call.result, 200)}`;
    };
    if (!all) {
      const hit = matches.indexOf(true);
      if (hit !== -1) return { pass: true, message: `#${at(calls, hit).index} ${name} returned text matching ${show(matcher)}`, callIndex: at(calls, hit).index };
      return {
        pass: false,
        message: `expected ${wanted}; none of its ${calls.length} call(s) did:\n${calls.slice(0, 8).map((_, i) => describe(i)).join("\n")}`,
        expected: { name, matcher },
        actual: calls.map(({ call }) => call.result ?? null),
        callIndex: at(calls, 0).index,
      };
    }
    const misses = matches.flatMap((ok, i) => (ok ? [] : [i]));
    if (misses.length > 0) {
      return {
        pass: false,
        message: `expected ${wanted}; ${misses.length} of ${calls.length} did not:\n${misses.slice(0, 8).map(describe).join("\n")}`,
        expected: { name, matcher },
        actual: misses.map((i) => at(calls, i).call.result ?? null),
        callIndex: at(calls, at(misses, 0)).index,
      };
    }
    const unprovable = absenceUnprovable(trace);
    if (unprovable) return { pass: false, message: `cannot confirm ${wanted}: ${unprovable}` };
    return { pass: true, message: `all ${calls.length} call(s) to ${name} returned text matching ${show(matcher)}` };
  });
}
