/**
 * `measureArms`: A/B over the same checks — each arm measured with the same trials and seed,
 * interleaved under one concurrency limit (so drift in the API or the machine hits every arm
 * alike), then every other arm compared with the first.
 */
import { InvalidInputError } from "../errors/proctor-error.js";
import type { Trace } from "../trace/types.js";
import { compareReports, type CompareOptions, type ReportComparison } from "./compare-reports.js";
import { measure, type MeasureOptions } from "./measure.js";
import type { CheckReport } from "./types.js";
import { at } from "../util/narrow.js";

/**
 * Options of measureArms: measure's, with one `run` per arm. The budget applies to each arm;
 * `keepTraces: "t.jsonl"` writes `t.<arm>.jsonl`; progress is off unless asked for.
 */
export interface MeasureArmsOptions<T = Trace> extends Omit<MeasureOptions<T>, "run" | "limit" | "name"> {
  /** Arm name → run. The first arm is the baseline the others are compared with. */
  readonly arms: Readonly<Record<string, MeasureOptions<T>["run"]>>;
  /** Comparison options (alpha, correction). */
  readonly compare?: CompareOptions;
}

/** Reports per arm and each other arm's comparison with the first. */
export interface ArmsResult {
  readonly baseline: string;
  readonly reports: Readonly<Record<string, CheckReport>>;
  /** Keyed by the non-baseline arm's name. */
  readonly comparisons: Readonly<Record<string, ReportComparison>>;
}

/** Measure every arm and compare each with the first: `{ arms: { baseline, candidate } }`. */
export async function measureArms<T = Trace>(options: MeasureArmsOptions<T>): Promise<ArmsResult> {
  const names = Object.keys(options.arms ?? {});
  if (names.length < 2) throw new InvalidInputError("INVALID_INPUT", `measureArms needs at least two arms, like { arms: { baseline, candidate } }; got ${names.length === 0 ? "none" : names.join(", ")}`);
  for (const name of names) {
    if (typeof options.arms[name] !== "function") throw new InvalidInputError("INVALID_INPUT", `measureArms: arms.${name} must be a run function (trial, context) => Trace`);
  }
  const { arms, compare, ...shared } = options;
  const limit = (await import("p-limit")).default(options.concurrency ?? 1);
  const traces = (name: string) => (shared.keepTraces ? { keepTraces: shared.keepTraces.replace(/(\.jsonl)?$/, `.${name}$1`) } : {});
  const runs = Object.entries(arms);
  const reports = await Promise.all(runs.map(([name, run]) => measure<T>({ ...shared, ...traces(name), run, name, limit, progress: options.progress ?? false })));
  const named = runs.map(([n], i) => [n, at(reports, i)] as const);
  // At least two arms (checked above): the first is the baseline.
  const [baseline, first] = at(named, 0);
  const byName = Object.fromEntries(named);
  const comparisons = Object.fromEntries(named.slice(1).map(([n, report]) => [n, compareReports(first, report, compare)]));
  return { baseline, reports: byName, comparisons };
}
