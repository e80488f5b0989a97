/**
 * Patterns read from data run on RE2: on patterns both engines accept, RE2 finds the same match as
 * JavaScript (an independent oracle); a pattern that makes JavaScript backtrack exponentially
 * answers at once; what RE2 cannot run is refused when the check or policy is loaded.
 */
import fc from "fast-check";
import { describe, expect as vexpect, it } from "vitest";
import { checkFromJSON, isProctorError } from "../../src/index.js";
import { parsePolicy } from "../../src/safety.js";
import { LinearRegExp } from "../../src/match/linear-regexp.js";
import { makeTrace } from "../helpers/trace.js";

// A small grammar of patterns whose meaning is the same in both engines on this alphabet
// (ASCII letters, digits, space and \n; no \r, where `.` and `$` differ).
const atom = fc.constantFrom("a", "b", "c", "A", ".", "[ab]", "[^a]", "\\d", "\\w", "\\s", "1", " ");
const pattern: fc.Arbitrary<string> = fc.letrec<{ p: string }>((tie) => ({
  p: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    atom,
    fc.tuple(tie("p"), tie("p")).map(([a, b]) => a + b),
    fc.tuple(tie("p"), tie("p")).map(([a, b]) => `(?:${a}|${b})`),
    fc.tuple(tie("p"), fc.constantFrom("?", "*", "+", "{1,2}", "*?", "+?")).map(([a, q]) => `(${a})${q}`),
    tie("p").map((a) => `^${a}`),
    tie("p").map((a) => `${a}$`),
  ),
})).p;
const text = fc.stringMatching(/^[abcAB1 \n]{0,12}$/);
const flags = fc.subarray(["i", "m", "s"]).map((f) => f.join(""));

describe("regular expressions from data", () => {
  it("match where JavaScript matches, starting at the same place", () => {
    fc.assert(
      fc.property(pattern, flags, fc.array(text, { minLength: 1, maxLength: 4 }), (source, f, inputs) => {
        const js = new RegExp(source, f);
        const re2 = new LinearRegExp(source, f);
        for (const input of inputs) {
          const a = js.exec(input);
          const b = re2.exec(input);
          vexpect(b === null, `${js} on ${JSON.stringify(input)}`).toBe(a === null);
          // Same leftmost start. (The matched text may differ where a quantifier repeats an empty
          // match, e.g. /((([ab])?)*?)?/ on "b" — the engines end such loops differently — which
          // changes no yes/no verdict.)
          if (a && b) vexpect(b.index, `${js} on ${JSON.stringify(input)}`).toBe(a.index);
        }
      }),
      { numRuns: 2000, seed: 1205 },
    );
  });

  it("kept seeds", () => {
    // Lazy and greedy quantifiers choose the same leftmost-first match in both engines.
    for (const [source, input] of [["(a)+?", "aaa"], ["(?:a|ab)(c|bcd)", "abcd"], ["^(\\s)*$", " \n"]] as const) {
      vexpect(new LinearRegExp(source, "m").exec(input)?.[0]).toBe(new RegExp(source, "m").exec(input)?.[0]);
    }
    vexpect(new LinearRegExp("((([ab])?)*?)?").test("b")).toBe(true);
    vexpect(String(new LinearRegExp("rm -rf", "i"))).toBe("/rm -rf/i");
    vexpect(new LinearRegExp("x") instanceof RegExp).toBe(true);
  });

  it("(a+)+$ from a check file answers at once instead of hanging", () => {
    const check = checkFromJSON({ kind: "toolWith", name: "Bash", args: { command: { $regex: "(a+)+$" } } });
    const trace = makeTrace({ calls: [{ name: "Bash", input: { command: `${"a".repeat(50_000)}b` } }] });
    const started = performance.now();
    vexpect(check.eval(trace).pass).toBe(false);
    vexpect(performance.now() - started).toBeLessThan(2_000);
  });

  it("(a+)+$ in a policy file answers at once", () => {
    const policy = parsePolicy({ rules: [{ tool: "Bash", effect: "deny", args: { command: { $regex: "(a+)+$" } } }] });
    const started = performance.now();
    const when = policy.policy.rules[0].when!;
    vexpect(when(policy.factsFor("Bash", { command: `${"a".repeat(50_000)}!` }))).toBe(false);
    vexpect(when(policy.factsFor("Bash", { command: "aaa" }))).toBe(true);
    vexpect(performance.now() - started).toBeLessThan(2_000);
  });

  it("refuses what needs backtracking, naming the field", () => {
    const error = (() => {
      try {
        checkFromJSON({ kind: "output", matcher: { $regex: "(a)\\1" } });
      } catch (e) {
        return e;
      }
    })();
    vexpect(isProctorError(error) && error.code).toBe("INVALID_CHECK");
    vexpect((error as Error).message).toMatch(/needs backtracking/);
    vexpect(() => parsePolicy({ rules: [{ tool: "Bash", effect: "deny", args: { command: { $regex: "rm(?= -rf)" } } }] })).toThrow(/rules\[0\]\.args\.command: is not a valid regular expression \(.*needs backtracking/);
    vexpect(() => checkFromJSON({ kind: "output", matcher: { $regex: "x", $flags: "y" } })).toThrow(/flag "y" is not supported/);
  });
});
