/**
 * Bisecting claude versions: which release first changed a check's pass rate? A binary search over
 * the versions between a good and a bad end, a few trials per step, each step's call made by
 * Fisher's exact test against both ends — and honest about it: a step the trials cannot decide is
 * topped up with more trials, then, if still undecided, decided by the nearer rate and marked
 * uncertain. The conclusion's confidence is a Bonferroni bound over the tests that decided it.
 * The search assumes one change between the ends; a rate that changed and changed back between two
 * probed versions is not seen (the report says so).
 */
import { InvalidInputError } from "../errors/proctor-error.js";
import { fisherExact, type Counts } from "../stats/fisher.js";

/** What one version measured: passes and trials per check label. */
export type Probe = (version: string, trials: number) => Promise<Readonly<Record<string, Counts>>>;

/** One measured version of the search. */
export interface BisectStep {
  readonly version: string;
  /** Index in the version list. */
  readonly index: number;
  readonly counts: Counts;
  /** Fisher's p against the old end and against the new end (absent for the ends themselves). */
  readonly pOld?: number;
  readonly pNew?: number;
  /** Which side the version was put on; `old`/`new` with `uncertain` when no test decided it. */
  readonly side: "old end" | "new end" | "old" | "new";
  readonly uncertain: boolean;
}

export interface BisectResult {
  /** `found`: the first version with the new rate; `no-change`: the ends do not differ significantly. */
  readonly status: "found" | "no-change";
  readonly check: string;
  readonly steps: readonly BisectStep[];
  /** The last version measured like the old end, and the first like the new end. */
  readonly lastOld?: string;
  readonly firstNew?: string;
  /** Fisher's p between the two ends. */
  readonly pEnds: number;
  /** A lower bound on the chance the conclusion is right (1 − Σ deciding p-values); undefined when a step was uncertain. */
  readonly confidence?: number;
  readonly note: string;
}

export interface BisectOptions {
  /** Trials per version per round. @default 5 */
  readonly trials?: number;
  /** The most trials one version gets while a step stays undecided. @default 4 × trials */
  readonly maxTrials?: number;
  /** Significance level of each step's test. @default 0.05 */
  readonly alpha?: number;
  /** The check to follow; default the one whose rate differs most significantly between the ends. */
  readonly check?: string;
  /** Told after each measured version. */
  readonly onStep?: (step: BisectStep) => void;
}

const add = (a: Counts, b: Counts): Counts => ({ passes: a.passes + b.passes, n: a.n + b.n });
const rateOf = (c: Counts) => (c.n === 0 ? 0.5 : c.passes / c.n);

/** Find the first of `versions` (oldest first) whose rate for the check differs from the first's. */
export async function bisectVersions(versions: readonly string[], probe: Probe, options: BisectOptions = {}): Promise<BisectResult> {
  if (!Array.isArray(versions) || versions.length < 2) throw new InvalidInputError("INVALID_INPUT", `bisect needs at least two versions (an old and a new end); got ${Array.isArray(versions) ? versions.length : typeof versions}`);
  const trials = options.trials ?? 5;
  const maxTrials = Math.max(trials, options.maxTrials ?? trials * 4);
  const alpha = options.alpha ?? 0.05;
  if (!(Number.isInteger(trials) && trials > 0)) throw new InvalidInputError("INVALID_INPUT", `bisect: trials must be a positive integer; got ${trials}`);
  if (!(alpha > 0 && alpha < 1)) throw new InvalidInputError("INVALID_INPUT", `bisect: alpha must be within (0, 1); got ${alpha}`);
  const steps: BisectStep[] = [];
  const oldV = versions[0] as string;
  const newV = versions[versions.length - 1] as string;

  // The ends: measured, topped up until they differ significantly or the trials run out.
  let oldAll = await probe(oldV, trials);
  let newAll = await probe(newV, trials);
  const pick = (): string => {
    if (options.check !== undefined) {
      if (!(options.check in oldAll) || !(options.check in newAll)) throw new InvalidInputError("INVALID_INPUT", `bisect: no check labelled ${JSON.stringify(options.check)}; the checks are ${Object.keys(newAll).join(", ")}`);
      return options.check;
    }
    const labels = Object.keys(newAll).filter((l) => l in oldAll);
    if (labels.length === 0) throw new InvalidInputError("INVALID_INPUT", "bisect: the two ends share no check");
    return labels.map((l) => [l, fisherExact(oldAll[l] as Counts, newAll[l] as Counts)] as const).sort((x, y) => x[1] - y[1])[0]?.[0] as string;
  };
  let check = pick();
  let pEnds = fisherExact(oldAll[check] as Counts, newAll[check] as Counts);
  // Bounded by rounds, not by n: trials that error add no n, and must not loop forever.
  const maxRounds = Math.max(1, Math.floor(maxTrials / trials));
  let endRounds = 1;
  while (pEnds >= alpha && endRounds < maxRounds) {
    endRounds++;
    const [moreOld, moreNew] = [await probe(oldV, trials), await probe(newV, trials)];
    oldAll = Object.fromEntries(Object.entries(oldAll).map(([l, c]) => [l, moreOld[l] ? add(c, moreOld[l]) : c]));
    newAll = Object.fromEntries(Object.entries(newAll).map(([l, c]) => [l, moreNew[l] ? add(c, moreNew[l]) : c]));
    if (options.check === undefined) check = pick();
    pEnds = fisherExact(oldAll[check] as Counts, newAll[check] as Counts);
  }
  const oldC = oldAll[check] as Counts;
  const newC = newAll[check] as Counts;
  const ends: BisectStep[] = [
    { version: oldV, index: 0, counts: oldC, side: "old end", uncertain: false },
    { version: newV, index: versions.length - 1, counts: newC, side: "new end", uncertain: false },
  ];
  for (const e of ends) {
    steps.push(e);
    options.onStep?.(e);
  }
  const pct = (c: Counts) => `${((c.passes / Math.max(1, c.n)) * 100).toFixed(0)}% (${c.passes}/${c.n})`;
  if (pEnds >= alpha) {
    return { status: "no-change", check, steps, pEnds, note: `${check}: ${oldV} ${pct(oldC)} and ${newV} ${pct(newC)} do not differ significantly (Fisher p = ${pEnds.toPrecision(2)} ≥ ${alpha}): nothing to bisect — more trials might show a smaller change` };
  }

  let lo = 0;
  let hi = versions.length - 1;
  const deciding: number[] = [pEnds];
  let uncertain = 0;
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    const version = versions[mid] as string;
    let counts: Counts = { passes: 0, n: 0 };
    let pOld = 1;
    let pNew = 1;
    let side: "old" | "new" | undefined;
    for (let round = 0; round < maxRounds; round++) {
      const c = (await probe(version, trials))[check];
      if (!c) throw new InvalidInputError("INVALID_INPUT", `bisect: ${version} measured no check labelled ${JSON.stringify(check)}`);
      counts = add(counts, c);
      pOld = fisherExact(counts, oldC);
      pNew = fisherExact(counts, newC);
      // Put on a side when it differs from the other end and not from its own.
      if (pNew < alpha && pOld >= alpha) side = "old";
      else if (pOld < alpha && pNew >= alpha) side = "new";
      if (side) break;
    }
    const sure = side !== undefined;
    if (!sure) uncertain++;
    else deciding.push(side === "old" ? pNew : pOld);
    const chosen = side ?? (Math.abs(rateOf(counts) - rateOf(oldC)) <= Math.abs(rateOf(counts) - rateOf(newC)) ? "old" : "new");
    const step: BisectStep = { version, index: mid, counts, pOld, pNew, side: chosen, uncertain: !sure };
    steps.push(step);
    options.onStep?.(step);
    if (chosen === "old") lo = mid;
    else hi = mid;
  }
  const lastOld = versions[lo] as string;
  const firstNew = versions[hi] as string;
  const sum = deciding.reduce((a, b) => a + b, 0);
  const confidence = uncertain === 0 ? Math.max(0, 1 - sum) : undefined;
  const note =
    uncertain === 0
      ? `${check} changed between ${lastOld} and ${firstNew}: ${firstNew} is the first version with the new rate; every step was decided by Fisher's exact test at alpha ${alpha}, so the chance any step was decided wrongly is at most Σp = ${sum.toPrecision(2)} (confidence ≥ ${((confidence ?? 0) * 100).toFixed(1)}%), assuming one change between the ends`
      : `${check} most likely changed between ${lastOld} and ${firstNew}, but ${uncertain} step${uncertain === 1 ? "" : "s"} could not be decided with ${maxTrials} trials and ${uncertain === 1 ? "was" : "were"} put on the nearer side: no confidence is claimed — raise --trials (or --max-trials) to decide ${uncertain === 1 ? "it" : "them"}`;
  return { status: "found", check, steps, lastOld, firstNew, pEnds, ...(confidence !== undefined ? { confidence } : {}), note };
}
