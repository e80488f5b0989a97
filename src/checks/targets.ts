/**
 * What a check evaluates, validated before it evaluates: a check given the wrong thing (an empty
 * object, a hook result where a Trace belongs) is refused with a ProctorError naming the input,
 * the first wrong field and what to do — never reported as a failing check, never a silent pass.
 */
import { InvalidInputError, TranscriptError } from "../errors/proctor-error.js";
import { schemaChecker } from "../schema/schema-errors.js";
import { traceErrors } from "../trace/schema.js";

/** A kind of thing checks evaluate, with its validator and the words used to refuse it. */
export interface CheckTarget {
  /** As in "checks a Trace". */
  readonly noun: string;
  /** Schema problems, first first; empty when `value` is one. */
  errors(value: unknown): string[];
  /** What to pass instead. */
  readonly hint: string;
}

const str = { type: "string" } as const;

/** A HookRunResult as `runHook` returns it. */
export const HOOK_RUN_RESULT_SCHEMA = {
  type: "object",
  required: ["ran", "event", "command", "exitCode", "stdout", "stderr", "timedOut", "durationMs", "blocked", "blockedBy"],
  properties: {
    ran: { type: "boolean" },
    event: str,
    command: str,
    exitCode: { type: ["integer", "null"] },
    stdout: str,
    stderr: str,
    timedOut: { type: "boolean" },
    durationMs: { type: "number" },
    json: { type: "object" },
    jsonError: str,
    blocked: { type: "boolean" },
    blockedBy: { type: "array", items: { enum: ["exit-2", "permission-deny", "decision-block", "continue-false"] } },
    decision: str,
    reason: str,
  },
} as const;

const checkHookResult = schemaChecker(HOOK_RUN_RESULT_SCHEMA, "hookResult");

export const TRACE_TARGET: CheckTarget = {
  noun: "a Trace",
  // Each Trace is validated once, however many checks evaluate it (traceErrors remembers).
  errors: (value) => traceErrors(value),
  hint: "pass the Trace of a run: readTranscript(file), (await runHarness(spec)).trace, or validateTrace(JSON.parse(text))",
};

export const HOOK_RESULT_TARGET: CheckTarget = {
  noun: "a hook run result",
  errors: (value) => checkHookResult(value),
  hint: "pass what runHook(...) returns; for a whole run's Trace assert denied(tool, args) or hookFired(event) instead",
};

const looksLikeTrace = (v: unknown) => typeof v === "object" && v !== null && "toolCalls" in v && "version" in v;
const looksLikeHookResult = (v: unknown) => typeof v === "object" && v !== null && "ran" in v && "blockedBy" in v;

/** Throw unless `value` is what `label`'s target is. */
export function requireTarget(target: CheckTarget, label: string, value: unknown): void {
  const errors = target.errors(value);
  if (errors.length === 0) return;
  const isTrace = looksLikeTrace(value);
  const isHook = looksLikeHookResult(value);
  let why: string;
  if (target === HOOK_RESULT_TARGET && isTrace) why = `${label} checks ${target.noun} (from runHook), and this is a Trace`;
  else if (target === TRACE_TARGET && isHook) why = `${label} checks ${target.noun}, and this is a hook run result (use blocked() or allowed() on it)`;
  else why = `${label} checks ${target.noun}, and this is not one: ${errors[0]}${errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length === 2 ? "" : "s"})` : ""}`;
  const options = { input: label, hint: target.hint };
  throw target === TRACE_TARGET ? new TranscriptError("INVALID_TRACE", why, options) : new InvalidInputError("INVALID_INPUT", why, options);
}
