/**
 * node:test helpers. `checkEach` runs every check as its own subtest, so
 * `node --test --test-reporter=junit` shows one testcase per check; failures throw
 * `assert.AssertionError` carrying the check's message, actual and expected.
 */
import { AssertionError } from "node:assert";
import { evalChecks, evaluateChecks, type Check, type CheckResult } from "../checks/check.js";
import { renderFailures } from "../expect.js";
import { InvalidInputError } from "../errors/proctor-error.js";
import { assertHealthy } from "../health/gate.js";

/** The part of node:test's TestContext this helper needs (keeps it runner-version agnostic). */
export interface SubtestContext {
  test(name: string, fn: () => void | Promise<void>): Promise<unknown>;
}

function toAssertionError(r: CheckResult): AssertionError {
  return new AssertionError({ message: `✗ ${r.label}\n  ${r.message.replace(/\n/g, "\n  ")}`, actual: r.actual, expected: r.expected, operator: r.kind });
}

/**
 * Run each check as a subtest of `t`. Evaluates once up front (one evaluator), then reports.
 * Resolves to the results; an empty list is an error — it asserts nothing.
 */
export async function checkEach<T>(t: SubtestContext, target: T, checks: readonly Check<T>[]): Promise<CheckResult[]> {
  if (!Array.isArray(checks) || checks.length === 0) throw new InvalidInputError("INVALID_INPUT", "checkEach(t, target, checks) needs at least one check; an empty list asserts nothing", { input: "checks", hint: "pass an array of checks such as [notTool(\"Bash\")]" });
  // A run that did not happen as designed is an error of the test, not a verdict of its checks.
  assertHealthy(target, checks as readonly Check<never>[]);
  const results = await evaluateChecks(target, checks);
  for (const r of results) {
    await t.test(r.label, () => {
      if (!r.pass) throw toAssertionError(r);
    });
  }
  return results;
}

/** All checks in one assertion: throws one AssertionError listing every failure. */
export function assertAll<T>(target: T, checks: readonly Check<T>[]): CheckResult[] {
  if (!Array.isArray(checks) || checks.length === 0) throw new InvalidInputError("INVALID_INPUT", "assertAll(target, checks) needs at least one check; an empty list asserts nothing", { input: "checks", hint: "pass an array of checks such as [notTool(\"Bash\")]" });
  assertHealthy(target, checks as readonly Check<never>[]);
  const results = evalChecks(target, checks);
  const failures = results.filter((r) => !r.pass);
  if (failures.length > 0) {
    throw new AssertionError({
      message: `${failures.length} of ${results.length} checks failed:\n${renderFailures(failures)}`,
      actual: results.map((r) => `${r.pass ? "✓" : "✗"} ${r.label}`),
      expected: results.map((r) => `✓ ${r.label}`),
      operator: "checks",
    });
  }
  return results;
}
