/**
 * vitest matchers: `expect(trace).toPass(check)` and `expect(trace).toPassAll(checks)`.
 * Importing this module registers them (`import "proctor/vitest"` in a test or setup file).
 * The matchers adapt, they don't evaluate: the verdict comes from the same evaluator as
 * proctor's own `expect`, and `.not` is left to vitest.
 */
import { beforeAll, expect as vitestExpect } from "vitest";
import { loadShellParser } from "../effects/bash/parser.js";
import { loadSafetyChecks } from "../checks/safety-loader.js";
import { evalChecks, type Check, type CheckResult } from "../checks/check.js";
import { renderFailures } from "../expect.js";
import { InternalError, InvalidInputError } from "../errors/proctor-error.js";
import { healthError } from "../health/gate.js";

interface ProctorMatchers<R = unknown> {
  /** The check holds for the received Trace (or HookRunResult). */
  toPass(check: Check<never>): R;
  /** Every check holds; the failure lists each failed check with its message. */
  toPassAll(checks: readonly Check<never>[]): R;
}

declare module "vitest" {
  interface Matchers<T> extends ProctorMatchers<T> {}
}

function checkList(value: unknown): value is readonly Check<unknown>[] {
  return Array.isArray(value) && value.length > 0 && value.every((c) => typeof c?.eval === "function");
}

function tick(results: readonly CheckResult[]): string[] {
  return results.map((r) => `${r.pass ? "✓" : "✗"} ${r.label}`);
}

// Matchers are synchronous, and checks such as purity() classify shell commands: load the parser,
// and the safety checks that checkFromJSON builds on first use, before the file's tests run.
// Outside a test file (a config importing this module) there is no suite to attach to, and
// nothing to load for.
try {
  beforeAll(async () => {
    await Promise.all([loadShellParser(), loadSafetyChecks()]);
  });
} catch {
  // not collecting a test file
}

vitestExpect.extend({
  // `Check<never>` accepts a check of any target type; `received` is untyped in vitest, so the
  // check judges whatever it is given, as `evalChecks` does at run time.
  toPass(received: unknown, check: Check<never>) {
    if (typeof check?.eval !== "function") {
      throw new InvalidInputError("INVALID_INPUT", `toPass(check) needs a proctor check such as tool("Bash"); got ${String(check)}`, { input: "check" });
    }
    // A run that did not happen as designed proves nothing either way: not a pass, not a negated one.
    const unhealthy = healthError(received, { checks: [check] });
    if (unhealthy) return { pass: this.isNot, message: () => unhealthy.message };
    const [r] = evalChecks(received, [check as Check<unknown>]);
    if (!r) throw new InternalError("evalChecks returned no result for one check");
    if (this.isNot && r.inconclusive) {
      // Undecided is not a failure that `.not` can turn into a pass.
      return { pass: true, message: () => `${r.label} could not be decided, so it cannot be negated: ${r.message}` };
    }
    return {
      pass: r.pass,
      message: () => (r.pass ? `expected ${r.label} to fail, but it passed: ${r.message}` : `✗ ${r.label}\n  ${r.message.replace(/\n/g, "\n  ")}`),
      actual: r.actual,
      expected: r.expected,
    };
  },
  toPassAll(received: unknown, checks: readonly Check<never>[]) {
    if (!checkList(checks)) throw new InvalidInputError("INVALID_INPUT", "toPassAll(checks) needs a non-empty array of proctor checks; an empty list asserts nothing", { input: "checks", hint: "pass at least one check, e.g. [notTool(\"Bash\")]" });
    const unhealthy = healthError(received, { checks });
    if (unhealthy) return { pass: this.isNot, message: () => unhealthy.message };
    const results = evalChecks(received, checks as readonly Check<unknown>[]);
    const failures = results.filter((r) => !r.pass);
    const undecided = results.filter((r) => r.inconclusive);
    if (this.isNot && undecided.length > 0) {
      return { pass: true, message: () => `${undecided.length} of ${results.length} checks could not be decided, so they cannot be negated:\n${renderFailures(undecided)}` };
    }
    return {
      pass: failures.length === 0,
      message: () =>
        failures.length === 0
          ? `expected at least one of ${results.length} checks to fail, but all passed`
          : `${failures.length} of ${results.length} checks failed:\n${renderFailures(failures)}`,
      actual: tick(results),
      expected: results.map((r) => `✓ ${r.label}`),
    };
  },
});

export type { ProctorMatchers };
