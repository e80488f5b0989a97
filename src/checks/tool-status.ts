/** `toolStatus`: how a tool call ended. Needs no shell classifier, so the root entry loads it eagerly. */
import type { Trace, ToolStatus } from "../trace/types.js";
import { TOOL_STATUSES } from "../trace/types.js";
import { defineTraceCheck, type Check } from "./check.js";
import { summarizeTools } from "./describe.js";
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
