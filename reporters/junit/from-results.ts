/** JUnit from strict verdicts: one testsuite per trace or test, one testcase per check. */
import type { CheckResult } from "../../src/checks/check.js";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { buildJunitXml, type JunitSuite } from "./xml.js";

/** The checks evaluated against one trace (or in one test), as `expect`/`evalChecks` returned them. */
export interface ResultSuite {
  /** The suite's name: the test, the transcript file, the eval. */
  readonly name: string;
  readonly results: readonly CheckResult[];
  /** Seconds the run took (e.g. `trace.usage.durationMs / 1000`). */
  readonly timeSeconds?: number;
  /**
   * What the run was observed doing, one line each (`observedLines(trace)`: each call's effects, the
   * jail's refusals), written to each failed check's system-out beside its failure.
   */
  readonly observed?: readonly string[];
  /** Extra suite properties (the transcript path, the model, …). */
  readonly properties?: Readonly<Record<string, string | number | boolean | undefined>>;
}

/** The observed lines, the failing check's own call first. */
function observedOutput(lines: readonly string[], callIndex: number | undefined): string {
  const own = callIndex === undefined ? [] : lines.filter((l) => l.startsWith(`#${callIndex} `));
  return [...own, ...lines.filter((l) => !own.includes(l))].join("\n");
}

/**
 * Render check results as JUnit: a failed check is a `<failure>` whose text is the check's own
 * message (what was expected, what the trace shows, what to do), so CI shows it verbatim.
 */
export function renderJunitResults(suites: readonly ResultSuite[], options: { name?: string } = {}): string {
  if (!Array.isArray(suites as unknown)) throw new InvalidInputError("INVALID_INPUT", "renderJunitResults: suites must be an array of { name, results }", { input: "suites" });
  const bad = suites.findIndex((s) => typeof s?.name !== "string" || !Array.isArray(s.results));
  if (bad !== -1) throw new InvalidInputError("INVALID_INPUT", `renderJunitResults: suites[${bad}] must be { name, results } with results from evalChecks`, { input: `suites[${bad}]` });
  const rendered: JunitSuite[] = suites.map((suite) => ({
    name: suite.name,
    timeSeconds: suite.timeSeconds,
    properties: suite.properties,
    cases: suite.results.map((r) => ({
      name: r.label,
      className: suite.name,
      properties: { kind: r.kind, score: r.score === (r.pass ? 1 : 0) ? undefined : r.score, callIndex: r.callIndex },
      ...(r.pass ? {} : { failure: { text: r.message, type: r.kind } }),
      ...(!r.pass && suite.observed && suite.observed.length > 0 ? { output: observedOutput(suite.observed, r.callIndex) } : {}),
    })),
  }));
  return buildJunitXml(rendered, options.name);
}
