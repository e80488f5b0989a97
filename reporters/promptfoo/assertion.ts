/**
 * The promptfoo assertion: proctor's checks as one `type: javascript` assertion. promptfoo calls
 * it with the output and a context; the checks come from the assertion's `config`, the Trace
 * from the provider's metadata (proctor's provider puts it there) or from the output itself when
 * that is a transcript or a Trace. The verdicts are evalChecks'; this only translates them.
 */
import { healthError } from "../../src/health/gate.js";
import { resolve } from "node:path";
import { evalChecks, type Check, type CheckResult } from "../../src/checks/check.js";
import { checksFromJSON } from "../../src/checks/from-json.js";
import { InvalidInputError, isProctorError } from "../../src/errors/proctor-error.js";
import { validateTrace } from "../../src/trace/schema.js";
import type { Trace } from "../../src/trace/types.js";
import { readChecksFile } from "../input/read-checks.js";
import { looksLikeTrace, traceFromText } from "../input/read-trace.js";

/** promptfoo's GradingResult, the fields proctor fills. */
export interface GradingResult {
  pass: boolean;
  score: number;
  reason: string;
  componentResults?: GradingResult[];
  namedScores?: Record<string, number>;
  assertion?: { type: string; value?: string } | null;
}

/** What promptfoo hands a javascript assertion (the parts proctor reads). */
export interface AssertionContext {
  readonly config?: Record<string, unknown>;
  readonly providerResponse?: { readonly output?: unknown; readonly metadata?: Record<string, unknown> };
  readonly metadata?: Record<string, unknown>;
  readonly vars?: Record<string, unknown>;
}

/** The assertion's `config`. */
export interface AssertionConfig {
  /** Checks in their JSON form, or the path of a JSON file holding them (relative to the working directory). */
  readonly checks: readonly unknown[] | string;
}

const fail = (reason: string): GradingResult => ({ pass: false, score: 0, reason });

const checkCache = new Map<string, Check<Trace>[]>();

/** The checks named by the config; rebuilt once per distinct config (promptfoo calls per test case). */
function checksOf(config: Record<string, unknown> | undefined): Check<Trace>[] {
  const spec = config?.checks;
  if (spec === undefined) throw new InvalidInputError("INVALID_INPUT", "the assertion has no config.checks", { input: "config.checks", hint: 'give `config: { checks: [{ kind: "notTool", name: "Bash" }] }` or a JSON file path' });
  const key = typeof spec === "string" ? `file:${resolve(spec)}` : JSON.stringify(spec);
  let checks = checkCache.get(key);
  if (!checks) {
    checks = typeof spec === "string" ? readChecksFile(spec.replace(/^file:\/\//, "")) : checksFromJSON<Trace>(spec, "config.checks");
    if (checks.length === 0) throw new InvalidInputError("INVALID_INPUT", "config.checks is empty: an empty list asserts nothing", { input: "config.checks", hint: "list at least one check" });
    checkCache.set(key, checks);
  }
  return checks;
}

/** Find the run's Trace: provider metadata first, then the output when it is a transcript or a Trace. */
export function traceFromPromptfoo(output: unknown, context: AssertionContext | undefined): Trace | undefined {
  const fromMetadata = context?.providerResponse?.metadata?.trace ?? context?.metadata?.trace;
  if (fromMetadata !== undefined) return typeof fromMetadata === "string" ? traceFromText(fromMetadata, "metadata.trace") : validateTrace(fromMetadata);
  if (looksLikeTrace(output)) return validateTrace(output);
  if (typeof output === "string" && /"type"\s*:\s*"(system|assistant|user|result)"/.test(output)) {
    const trace = traceFromText(output, "output");
    // A transcript parses to calls, replies or a result; plain text that merely mentions "type" does not.
    if (trace.toolCalls.length > 0 || trace.replies.length > 0 || trace.outcome) return trace;
  }
  return undefined;
}

function component(result: CheckResult): GradingResult {
  return {
    pass: result.pass,
    score: result.score,
    reason: result.pass ? `✓ ${result.label}` : `✗ ${result.label}: ${result.message}`,
    assertion: { type: "javascript", value: `proctor: ${result.label}` },
  };
}

/**
 * Grade one promptfoo test case with proctor checks: pass when every check holds; score the mean
 * of the checks' scores (the fraction passed, or the graded scores); one componentResult per check.
 * Bad config or a missing Trace fails the case with a reason that says what to do (never a pass).
 */
export function gradeWithChecks(output: unknown, context?: AssertionContext): GradingResult {
  let checks: Check<Trace>[];
  try {
    checks = checksOf(context?.config);
  } catch (error) {
    return fail(`proctor: ${isProctorError(error) ? error.message : (error as Error).message}`);
  }
  let trace: Trace | undefined;
  try {
    trace = traceFromPromptfoo(output, context);
  } catch (error) {
    return fail(`proctor: the Trace is unreadable: ${(error as Error).message}`);
  }
  if (!trace) {
    return fail(
      "proctor: no Trace to check — use proctor's provider (file://…/proctor/promptfoo/provider.mjs), which returns it in metadata, or a provider whose output is a claude stream-json transcript",
    );
  }
  // An unhealthy run grades nothing: it fails with the reason, whatever the checks would say.
  const unhealthy = healthError(trace, { checks: checks as readonly Check<never>[] });
  if (unhealthy) return fail(`proctor: ${unhealthy.message}`);
  const results = evalChecks(trace, checks);
  const failed = results.filter((r) => !r.pass);
  const score = results.reduce((sum, r) => sum + r.score, 0) / results.length;
  const reason = failed.length === 0 ? `all ${results.length} proctor checks passed` : `${failed.length} of ${results.length} proctor checks failed:\n${failed.map((r) => `✗ ${r.label}: ${r.message}`).join("\n")}`;
  return {
    pass: failed.length === 0,
    score,
    reason,
    componentResults: results.map(component),
    namedScores: Object.fromEntries(results.map((r) => [r.label, r.score])),
  };
}
