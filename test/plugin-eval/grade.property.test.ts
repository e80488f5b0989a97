/**
 * The graders against brute-force readings of their documented semantics (docs/plugin-eval-format.md),
 * written without the code's own shortcuts: a hand-rolled glob matcher, a scan for order, a count by
 * exec with lastIndex, a score from the definition.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { globRegExp, gradeRegex, gradeToolOrder, gradeToolUsed, isPassVote, type RunEvidence } from "../../src/plugin-eval/grade.js";
import { caseAggregates, gradersFor, isWithOnly, runScore } from "../../src/plugin-eval/score.js";
import type { Grader, RegexGrader } from "../../src/plugin-eval/types.js";

const RUNS = Number(process.env.PROCTOR_PROPERTY_RUNS ?? 200);

/** The documented glob by backtracking over the pattern: `*` any non-slash run, `**\/` any leading dirs, `**` anything, `?` one char. */
function globOracle(glob: string, path: string): boolean {
  const go = (g: number, p: number): boolean => {
    if (g === glob.length) return p === path.length;
    if (glob.startsWith("**/", g)) {
      // zero dirs, or any prefix ending in "/"
      if (go(g + 3, p)) return true;
      for (let q = p; q < path.length; q++) if (path[q] === "/" && go(g + 3, q + 1)) return true;
      return false;
    }
    if (glob.startsWith("**", g)) {
      for (let q = p; q <= path.length; q++) if (go(g + 2, q)) return true;
      return false;
    }
    const ch = glob[g];
    if (ch === "*") {
      for (let q = p; q <= path.length; q++) {
        if (go(g + 1, q)) return true;
        if (path[q] === "/") return false;
      }
      return false;
    }
    if (ch === "?") return p < path.length && path[p] !== "\n" && go(g + 1, p + 1);
    return path[p] === ch && go(g + 1, p + 1);
  };
  return go(0, 0);
}

const segment = fc.stringMatching(/^[ab.]{0,3}$/);
const pathArb = fc.array(segment, { minLength: 1, maxLength: 4 }).map((xs) => xs.join("/"));
const globArb = fc.array(fc.constantFrom("a", "b", ".", "/", "*", "**", "**/", "?"), { maxLength: 6 }).map((xs) => xs.join(""));

const evidence = (calls: { name: string; input: unknown }[] = [], lastMessage = ""): RunEvidence => ({
  toolCalls: calls.map((c) => ({ ...c, inputText: JSON.stringify(c.input) })),
  lastMessage,
  created: [],
});

describe("plugin eval graders (property)", () => {
  it("file_exists globs match what the documented glob matches", () => {
    fc.assert(
      fc.property(globArb, pathArb, (glob, path) => {
        expect(globRegExp(glob).test(path)).toBe(globOracle(glob, path));
      }),
      { numRuns: RUNS * 5 },
    );
  });

  const tools = fc.constantFrom("Read", "Write", "Bash");
  const calls = fc.array(fc.record({ name: tools, input: fc.record({ n: fc.integer({ min: 0, max: 3 }) }) }), { maxLength: 8 });
  const ref = fc.record({ tool: tools, input_match: fc.option(fc.constantFrom('"n":1', '"n":[12]', "n"), { nil: undefined }) });

  it("tool_order: passes iff the first call matching either side matches only `before` and a later call matches `after`", () => {
    fc.assert(
      fc.property(calls, ref, ref, (cs, before, after) => {
        // What each input_match admits, by the call's n.
        const admits: Record<string, (n: number) => boolean> = { '"n":1': (n) => n === 1, '"n":[12]': (n) => n === 1 || n === 2, n: () => true };
        const matches = (c: { name: string; input: { n: number } }, r: typeof before) => c.name === r.tool && (r.input_match === undefined || admits[r.input_match]!(c.input.n));
        let oracle = false;
        for (let i = 0; i < cs.length; i++) {
          const b = matches(cs[i]!, before);
          const a = matches(cs[i]!, after);
          if (!a && !b) continue;
          oracle = !a && b && cs.slice(i + 1).some((c) => matches(c, after));
          break;
        }
        const g = { type: "tool_order", name: "o", weight: 1, before, after } as const;
        expect(gradeToolOrder(g, evidence(cs)).passed).toBe(oracle);
      }),
      { numRuns: RUNS },
    );
  });

  it("tool_used: passes iff min ≤ (calls of the tool whose input JSON the regex finds) ≤ max", () => {
    fc.assert(
      fc.property(calls, tools, fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }), fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }), fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }), (cs, tool, n, min, max) => {
        const input_match = n === undefined ? undefined : `"n":${n}[,}]`;
        let count = 0;
        for (const c of cs) if (c.name === tool && (n === undefined || (c.input as { n: number }).n === n)) count++;
        const g = { type: "tool_used", name: "u", weight: 1, tool, input_match, min, max } as const;
        expect(gradeToolUsed(g, evidence(cs)).passed).toBe(count >= (min ?? 1) && count <= (max ?? Number.POSITIVE_INFINITY));
      }),
      { numRuns: RUNS },
    );
  });

  it("regex count:N counts non-overlapping matches with g added; contains and not_contains are each other's negation", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[abAB\n]{0,12}$/), fc.constantFrom("a", "ab", "a*", "^b", "b$", "A"), fc.constantFrom("", "i", "m", "g", "gi", "im"), fc.integer({ min: 0, max: 5 }), (text, pattern, flags, n) => {
        const base: RegexGrader = { type: "regex", name: "r", weight: 1, target: "last_message", pattern, flags, match: "contains" };
        const run = evidence([], text);
        // Count by hand: exec with lastIndex, stepping past empty matches.
        const re = new RegExp(pattern, flags.includes("g") ? flags : `${flags}g`);
        let count = 0;
        for (let m = re.exec(text); m !== null; m = re.exec(text)) {
          count++;
          if (m[0] === "") re.lastIndex++;
        }
        expect(gradeRegex({ ...base, match: `count:${n}` }, run).passed).toBe(count === n);
        const contains = gradeRegex(base, run).passed;
        expect(contains).toBe(count > 0);
        expect(gradeRegex({ ...base, match: "not_contains" }, run).passed).toBe(!contains);
      }),
      { numRuns: RUNS },
    );
  });

  it("a judge reply is a PASS vote iff it has the word PASS and not the word FAIL", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("PASS", "pass", "FAIL", "Fail", "PASSED", "xPASS", " ", ".", "\n", "ok"), { maxLength: 5 }), (parts) => {
        const text = parts.join("");
        const words = text.split(/[^A-Za-z0-9_]+/).map((w) => w.toUpperCase());
        expect(isPassVote(text)).toBe(words.includes("PASS") && !words.includes("FAIL"));
      }),
      { numRuns: RUNS },
    );
  });

  const graderArb: fc.Arbitrary<Grader> = fc.oneof(
    fc.record({ type: fc.constant("tool_used" as const), name: fc.string(), weight: fc.integer({ min: 1, max: 4 }), tool: fc.constantFrom("Skill", "Bash"), arm: fc.constantFrom(undefined, "with-only" as const, "both" as const) }),
    fc.record({ type: fc.constant("file_exists" as const), name: fc.string(), weight: fc.integer({ min: 1, max: 4 }), path: fc.constant("x"), exists: fc.boolean(), arm: fc.constantFrom(undefined, "with-only" as const, "both" as const) }),
  ) as fc.Arbitrary<Grader>;

  it("arms and scores follow the definition: with-only graders (and an unmarked tool_used Skill) are unscored under ablation and skipped without the plugin, unless every grader is one", () => {
    fc.assert(
      fc.property(fc.array(graderArb, { minLength: 1, maxLength: 6 }), fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), fc.constantFrom(undefined, "with" as const, "without" as const), (graders, passes, arm) => {
        const indicator = (g: Grader) => g.arm === "with-only" || (g.arm === undefined && g.type === "tool_used" && g.tool === "Skill");
        const every = graders.every(indicator);
        const chosen = gradersFor(graders, arm);
        const expectedRun = arm === "without" && !every ? graders.filter((g) => !indicator(g)) : graders;
        expect(chosen.map((c) => c.grader)).toEqual(expectedRun);
        for (const c of chosen) expect(c.scored).toBe(arm === undefined || every || !indicator(c.grader));
        for (const g of graders) expect(isWithOnly(g)).toBe(indicator(g));
        const results = chosen.map((c, i) => ({ passed: passes[i]!, weight: c.grader.weight, withOnly: !c.scored }));
        let num = 0;
        let den = 0;
        for (const r of results) {
          if (r.withOnly) continue;
          den += r.weight;
          if (r.passed) num += r.weight;
        }
        expect(runScore(results)).toBeCloseTo(den === 0 ? 0 : num / den, 12);
      }),
      { numRuns: RUNS },
    );
  });

  it("case aggregates: mean score, share of runs scoring 1, delta = with − without", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(0, 0.25, 0.5, 1), { minLength: 1, maxLength: 5 }), fc.array(fc.constantFrom(0, 0.5, 1), { maxLength: 5 }), (w, wo) => {
        const a = caseAggregates(w, wo);
        const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
        expect(a.score).toBeCloseTo(mean(w), 12);
        expect(a.passRate).toBeCloseTo(w.filter((x) => x === 1).length / w.length, 12);
        if (wo.length === 0) expect(a.delta).toBeUndefined();
        else expect(a.delta).toBeCloseTo(mean(w) - mean(wo), 12);
      }),
      { numRuns: RUNS },
    );
  });
});
