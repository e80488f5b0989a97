/** Checks on what the agent said and what the model received. */
import type { Trace } from "../trace/types.js";
import { testRegExp } from "../match/arg-match.js";
import { defineTraceCheck, type Check, type Verdict } from "./check.js";
import { quote, describeRange } from "./describe.js";
import { InvalidCheckError, requireBounds, requireText } from "./validate.js";
import { at } from "../util/narrow.js";

/** A string matcher: substring for strings, test for RegExps. */
export function textMatches(text: string, matcher: string | RegExp): boolean {
  return typeof matcher === "string" ? text.includes(matcher) : testRegExp(matcher, text);
}

function show(matcher: string | RegExp): string {
  return typeof matcher === "string" ? JSON.stringify(matcher) : String(matcher);
}

/** The agent's final output contains a substring / matches a RegExp. */
export function output(matcher: string | RegExp): Check<Trace> {
  requireText("output", "matcher", matcher);
  return defineTraceCheck("output", { matcher }, (trace) => {
    if (trace.output === undefined) {
      const why = trace.errors[0]?.message;
      return { pass: false, message: `expected the final output to match ${show(matcher)}; the run produced no final output${why ? ` (${why})` : ""}`, expected: matcher };
    }
    if (textMatches(trace.output, matcher)) return { pass: true, message: `final output matches ${show(matcher)}` };
    return {
      pass: false,
      message: `expected the final output to match ${show(matcher)}; it was ${quote(trace.output, 300)}`,
      expected: matcher,
      actual: trace.output,
    };
  });
}

/** Every reply of the run matches. A run with no replies fails: there is nothing the rule held for. */
export function eachReply(matcher: string | Readonly<RegExp>): Readonly<Check<Trace>> {
  requireText("eachReply", "matcher", matcher);
  return defineTraceCheck("eachReply", { matcher }, (trace) => {
    if (trace.replies.length === 0) {
      return { pass: false, message: `expected every reply to match ${show(matcher)}; no replies were recorded, so there is nothing the rule held for`, expected: matcher };
    }
    const misses = trace.replies.map((r, i) => ({ r, i })).filter(({ r }) => !textMatches(r.text, matcher));
    if (misses.length === 0) return { pass: true, message: `all ${trace.replies.length} replies match ${show(matcher)}` };
    const lines = misses.slice(0, 5).map(({ r, i }) => `    reply ${i + 1}: ${quote(r.text)}`);
    return {
      pass: false,
      message: `expected every reply to match ${show(matcher)}; ${misses.length} of ${trace.replies.length} did not:\n${lines.join("\n")}`,
      expected: matcher,
      actual: misses.map(({ r }) => r.text),
    };
  });
}

/** How many replies match, within bounds. A run with no replies fails. */
export function replyCount(
  matcher: string | Readonly<RegExp>,
  opts: { readonly min?: number | undefined; readonly max?: number | undefined },
): Readonly<Check<Trace>> {
  requireText("replyCount", "matcher", matcher);
  const { min, max } = requireBounds("replyCount", opts);
  return defineTraceCheck("replyCount", { matcher, min, max }, (trace) => {
    if (trace.replies.length === 0) {
      return { pass: false, message: `expected ${describeRange(min, max)} replies matching ${show(matcher)}; no replies were recorded`, expected: { min, max } };
    }
    const n = trace.replies.filter((r) => textMatches(r.text, matcher)).length;
    const ok = (min === undefined || n >= min) && (max === undefined || n <= max);
    const listing = trace.replies.map((r, i) => `    reply ${i + 1}${textMatches(r.text, matcher) ? " ✓" : ""}: ${quote(r.text, 100)}`).join("\n");
    return ok
      ? { pass: true, message: `${n} of ${trace.replies.length} replies match ${show(matcher)} (wanted ${describeRange(min, max)})`, actual: n }
      : {
          pass: false,
          message: `expected ${describeRange(min, max)} replies matching ${show(matcher)}; ${n} of ${trace.replies.length} matched:\n${listing}`,
          expected: { min, max },
          actual: n,
        };
  });
}

/**
 * Text matching `matcher` reached the model from outside in some request: the system prompt, the
 * prompt, a tool result, hook output, a reminder — not the model's own earlier words or tool inputs
 * (`{ from: "anywhere" }` searches those too). Needs captured model requests (the mock-model
 * harness); fails closed without them.
 */
export function received(matcher: string | RegExp, options: { from?: "outside" | "anywhere" | undefined } = {}): Check<Trace> {
  requireText("received", "matcher", matcher);
  const from = options.from ?? "outside";
  if (from !== "outside" && from !== "anywhere") throw new InvalidCheckError("received", "options.from", 'must be "outside" or "anywhere"', from);
  return defineTraceCheck("received", from === "outside" ? { matcher } : { matcher, from }, (trace) => {
    const requests = trace.modelRequests;
    if (!requests || requests.length === 0) return noModelRequests(`the model to receive ${show(matcher)}`, matcher);
    if (from === "outside" && requests.some((r) => r.inbound === undefined)) {
      return {
        pass: false,
        message: `cannot tell what reached the model from outside: this trace's requests were recorded without it (an older proctor); pass received(${show(matcher)}, { from: "anywhere" }) to search the model's own words too`,
        expected: matcher,
      };
    }
    const hit = requests.findIndex((r) => (from === "outside" ? textMatches(r.inbound ?? "", matcher) : textMatches(r.system, matcher) || textMatches(r.messages, matcher)));
    if (hit !== -1) return { pass: true, message: `request ${hit + 1} (${at(requests, hit).agent}) carried ${show(matcher)}` };
    return {
      pass: false,
      message: `expected the model to receive ${show(matcher)}; none of ${requests.length} request(s) carried it (last user text: ${quote(at(requests, requests.length - 1).messages.slice(-300))})`,
      expected: matcher,
    };
  });
}

/** The agent took a number of model turns in range. Fails closed when the trace does not know. */
export function turns(opts: { min?: number | undefined; max?: number | undefined }): Check<Trace> {
  const { min, max } = requireBounds("turns", opts);
  return defineTraceCheck("turns", { min, max }, (trace) => {
    if (trace.turns === undefined) return { pass: false, message: `expected ${describeRange(min, max)} turns; the trace does not record its turn count (no result line)`, expected: { min, max } };
    const n = trace.turns;
    const ok = (min === undefined || n >= min) && (max === undefined || n <= max);
    return ok
      ? { pass: true, message: `${n} turns, within ${describeRange(min, max)}`, actual: n }
      : { pass: false, message: `expected ${describeRange(min, max)} turns; the agent took ${n}`, expected: { min, max }, actual: n };
  });
}

/** The fail-closed verdict of a check on model requests when the trace captured none. */
export function noModelRequests(expectation: string, expected: unknown): Verdict {
  return { pass: false, message: `expected ${expectation}; this trace has no recorded model requests (only the mock-model harness, runHarness, captures them)`, expected };
}
