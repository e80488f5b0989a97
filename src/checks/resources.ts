/** Resource checks: cost, time and tokens. A trace without usage fails them — no evidence is not a pass. */
import type { Usage } from "../trace/types.js";
import { defineCheck, type Check } from "./check.js";
import { InvalidCheckError, requireNumber } from "./validate.js";

/** Anything carrying a run's usage (a Trace is one). */
export interface UsageTrace {
  readonly usage?: Usage;
}

function bound(
  kind: string,
  field: string,
  limit: number,
  measure: (u: Usage) => number | undefined,
  unit: (n: number) => string,
  what: string,
): Check<UsageTrace> {
  requireNumber(kind, field, limit);
  return defineCheck<UsageTrace>(kind, { [field]: limit }, (trace) => {
    if (!trace.usage) return { pass: false, message: `expected ${what} ≤ ${unit(limit)}; the trace records no usage (a killed run, or a source without a result line)`, expected: limit };
    const n = measure(trace.usage);
    if (n === undefined) return { pass: false, message: `expected ${what} ≤ ${unit(limit)}; the trace's usage does not record ${what} (this agent reports tokens, not ${what})`, expected: limit };
    return n <= limit
      ? { pass: true, message: `${what} ${unit(n)} ≤ ${unit(limit)}`, actual: n }
      : { pass: false, message: `expected ${what} ≤ ${unit(limit)}; the run used ${unit(n)} (${overBy(n, limit)})`, expected: limit, actual: n };
  });
}

/** `60% over`, rounded up so a run just over the limit never reads as 0% over. */
function overBy(n: number, limit: number): string {
  return limit === 0 ? "the limit is 0" : `${Math.ceil(((n - limit) / limit) * 100)}% over`;
}

const usd = (n: number) => `$${n.toFixed(4)}`;
const ms = (n: number) => `${Math.round(n)} ms`;
const tok = (n: number) => `${n} tokens`;

/** The run cost at most `maxUsd`. */
export function cost(opts: { maxUsd: number }): Check<UsageTrace> {
  return bound("cost", "maxUsd", opts?.maxUsd, (u) => u.costUsd, usd, "cost");
}

/** The run took at most `maxMs` of wall-clock time. */
export function latency(opts: { maxMs: number }): Check<UsageTrace> {
  return bound("latency", "maxMs", opts?.maxMs, (u) => u.durationMs, ms, "duration");
}

/** The run used at most `max` total (input + output) tokens. */
export function tokens(opts: { max: number }): Check<UsageTrace> {
  return bound("tokens", "max", opts?.max, (u) => u.inputTokens + u.outputTokens, tok, "input + output tokens");
}

/** At most `max` fresh (uncached) input tokens — the honest input side of a cost claim. */
export function inputTokens(opts: { max: number }): Check<UsageTrace> {
  return bound("inputTokens", "max", opts?.max, (u) => u.inputTokens, tok, "fresh input tokens");
}

/** At most `max` output tokens. */
export function outputTokens(opts: { max: number }): Check<UsageTrace> {
  return bound("outputTokens", "max", opts?.max, (u) => u.outputTokens, tok, "output tokens");
}

/** Bound prompt-cache writes (`maxCreation`) and reads (`maxRead`); each bound checked only when given. */
export function cacheTokens(opts: { maxCreation?: number | undefined; maxRead?: number | undefined }): Check<UsageTrace> {
  const { maxCreation, maxRead } = opts ?? {};
  if (maxCreation === undefined && maxRead === undefined) throw new InvalidCheckError("cacheTokens", "maxCreation/maxRead", "needs at least one bound", opts);
  if (maxCreation !== undefined) requireNumber("cacheTokens", "maxCreation", maxCreation);
  if (maxRead !== undefined) requireNumber("cacheTokens", "maxRead", maxRead);
  return defineCheck<UsageTrace>("cacheTokens", { maxCreation, maxRead }, (trace) => {
    if (!trace.usage) return { pass: false, message: "expected bounded cache tokens; the trace records no usage" };
    const { cacheCreationTokens: c, cacheReadTokens: r } = trace.usage;
    const over: string[] = [];
    if (maxCreation !== undefined && c > maxCreation) over.push(`cache writes ${c} > ${maxCreation}`);
    if (maxRead !== undefined && r > maxRead) over.push(`cache reads ${r} > ${maxRead}`);
    return over.length === 0
      ? { pass: true, message: `cache writes ${c}, reads ${r} within bounds`, actual: { creation: c, read: r } }
      : { pass: false, message: `cache tokens over budget: ${over.join("; ")}`, expected: { maxCreation, maxRead }, actual: { creation: c, read: r } };
  });
}
