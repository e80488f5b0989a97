/** The strict verdict: evaluate every check, throw one error listing every failure. */
import { ProctorError, InvalidInputError } from "./errors/proctor-error.js";
import { evalChecks, type Check, type CheckResult } from "./checks/check.js";
import { assertHealthy } from "./health/gate.js";

/** Thrown by `expect`/`assertChecks`; carries every per-check result. */
export class ChecksFailedError extends ProctorError {
  declare readonly code: "CHECKS_FAILED";
  readonly results: readonly CheckResult[];
  readonly failures: readonly CheckResult[];
  constructor(results: readonly CheckResult[]) {
    const failures = results.filter((r) => !r.pass);
    super("CHECKS_FAILED", `${failures.length} of ${results.length} checks failed`, { detail: renderFailures(failures) });
    this.name = "ChecksFailedError";
    this.results = results;
    this.failures = failures;
  }
}

/** `  ✗ label\n      message` for each failure. */
export function renderFailures(failures: readonly CheckResult[]): string {
  return failures.map((f) => `  ✗ ${f.label}\n      ${f.message.replace(/\n/g, "\n      ")}`).join("\n");
}

/**
 * Evaluate all checks (never short-circuits) and throw a ChecksFailedError listing every failure.
 * Returns the results when all hold. An empty list of checks is an error: it asserts nothing. A
 * Trace of an unhealthy run throws its RunUnhealthyError (`RUN_UNHEALTHY`) before any check runs.
 */
export function assertChecks<T>(target: T, checks: readonly Check<T>[]): CheckResult[] {
  if (!Array.isArray(checks) || checks.length === 0) {
    throw new InvalidInputError("INVALID_INPUT", "expect(target, checks) needs at least one check; an empty list asserts nothing");
  }
  // A run that did not happen as designed (a plugin that never loaded, a server that never
  // started) is no evidence either way: its error, never a pass or a failed check.
  assertHealthy(target, checks as readonly Check<never>[]);
  const results = evalChecks(target, checks);
  if (results.some((r) => !r.pass)) throw new ChecksFailedError(results);
  return results;
}

/** The strict verdict for tests: `expect(trace, [notTool("Bash")])`. Same engine as `assertChecks`. */
export const expect: <T>(target: T, checks: readonly Check<T>[]) => CheckResult[] = assertChecks;
