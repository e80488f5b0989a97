/** `toolStatus`: how a tool call ended. Needs no shell classifier, so the root entry loads it eagerly. */
import type { Trace, ToolStatus } from "../trace/types.js";
import { TOOL_STATUSES } from "../trace/types.js";
import { defineTraceCheck, type Check } from "./check.js";
import { absenceUnprovable, listCalls, summarizeTools } from "./describe.js";
import { unknownNameVerdict } from "./tools.js";
import { InvalidCheckError, requireName } from "./validate.js";
import { at } from "../util/narrow.js";

/**
 * Some call to `name` (`"*"` for any tool) ended with `status` — e.g. `toolStatus("mcp__db__query",
 * "partial")` for a tool whose result envelope said so, or `toolStatus("Bash", "denied")`.
 */
export function toolStatus(name: string, status: ToolStatus): Check<Trace> {
  requireName("toolStatus", "name", name);
  if (!TOOL_STATUSES.includes(status)) throw new InvalidCheckError("toolStatus", "status", `must be one of ${TOOL_STATUSES.join(", ")}`, status);
  return defineTraceCheck("toolStatus", { name, status }, (trace) => {
    const calls = trace.toolCalls.map((call, index) => ({ call, index })).filter(({ call }) => name === "*" || call.name === name);
    const hit = calls.find(({ call }) => call.status === status);
    if (hit) return { pass: true, message: `${hit.call.name} ended ${status} at #${hit.index}`, callIndex: hit.index };
    if (calls.length === 0) {
      return { pass: false, message: `expected a call to ${name} that ended ${status}; ${name} was never called (the agent made ${summarizeTools(trace.toolCalls)})`, expected: { name, status } };
    }
    return {
      pass: false,
      message: `expected a call to ${name} that ended ${status}; its ${calls.length} call(s) ended: ${calls.map(({ call, index }) => `#${index} ${call.status}`).join(", ")}`,
      expected: { name, status },
      actual: calls.map(({ call }) => call.status),
      callIndex: at(calls, 0).index,
    };
  });
}

/**
 * The calls to `name` (`"*"` for any tool) ended with exactly these statuses, in this order —
 * e.g. `toolStatuses("Bash", ["denied", "success"])`: refused once, then allowed. The sequence is
 * the whole story, so a run that may have gone on (incomplete, not as designed) cannot pass it.
 */
export function toolStatuses(name: string, statuses: readonly ToolStatus[]): Check<Trace> {
  requireName("toolStatuses", "name", name);
  if (!Array.isArray(statuses)) throw new InvalidCheckError("toolStatuses", "statuses", `must be an array of statuses (${TOOL_STATUSES.join(", ")})`, statuses);
  statuses.forEach((s, i) => {
    if (!TOOL_STATUSES.includes(s)) throw new InvalidCheckError("toolStatuses", `statuses[${i}]`, `must be one of ${TOOL_STATUSES.join(", ")}`, s);
  });
  const want = [...statuses];
  return defineTraceCheck("toolStatuses", { name, statuses: want }, (trace) => {
    const calls = trace.toolCalls.map((call, index) => ({ call, index })).filter(({ call }) => name === "*" || call.name === name);
    if (calls.length === 0 && want.length > 0) {
      const unknown = unknownNameVerdict("toolStatuses", trace, [name]);
      if (unknown) return unknown;
    }
    const got = calls.map(({ call }) => call.status);
    const seq = `[${got.join(", ")}]`;
    const differ = firstDifference(want, got);
    if (differ === undefined) {
      const unprovable = absenceUnprovable(trace);
      if (unprovable) return { pass: false, message: `cannot confirm the calls to ${name} ended [${want.join(", ")}] and no more: ${unprovable}`, expected: want, actual: got };
      if (want.length === 0) {
        const unknown = unknownNameVerdict("toolStatuses", trace, [name]);
        if (unknown) return unknown;
      }
      return { pass: true, message: `the ${got.length} call(s) to ${name} ended ${seq}`, actual: got };
    }
    const where = calls[differ];
    const what =
      differ >= got.length
        ? `there were only ${got.length} call(s), so position ${differ + 1} (expected ${want[differ]}) never happened`
        : differ >= want.length
          ? `call ${differ + 1} (#${where?.index}) ended ${got[differ]} after the ${want.length} expected`
          : `call ${differ + 1} (#${where?.index}) ended ${got[differ]}, expected ${want[differ]}`;
    return {
      pass: false,
      message: `expected the calls to ${name} to end [${want.join(", ")}]; they ended ${seq}: ${what}${calls.length ? `\n${listCalls(calls)}` : ` (the agent made ${summarizeTools(trace.toolCalls)})`}`,
      expected: want,
      actual: got,
      ...(where ? { callIndex: where.index } : {}),
    };
  });
}

/** The first position at which two sequences differ (one being longer counts), or undefined when equal. */
function firstDifference(a: readonly string[], b: readonly string[]): number | undefined {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return undefined;
}
