/**
 * `mergeReports`: combine the partial reports of shards exactly — counts add, outcomes interleave
 * by trial index, usage sums as integers, every statistic is recomputed from the merged counts
 * by the same code `measure` uses. 4 shards merged equal one unsharded run, number for number.
 * A merge knows its shard set: shards given twice or holding trials outside their slice are
 * refused, and a merge that lacks shards says so in `incomplete` (it never passes a gate).
 */
import { InvalidInputError } from "../errors/proctor-error.js";
import { summariseCheck, summariseUsage, keepLowest, UNITS, type UsageCounts } from "./summarise.js";
import { validateCheckReport } from "./schema.js";
import { formatShard, parseShard, shardTrials } from "./shard.js";
import { REPORT_VERSION, type CheckReport, type IncompleteInfo, type TrialFailure } from "./types.js";
import { requireArray } from "../errors/arguments.js";
import { healthSummary } from "./health-summary.js";
import { mergeAblation } from "./merge-ablation.js";

function mismatch(what: string, detail: string): never {
  throw new InvalidInputError("INVALID_INPUT", `cannot merge: ${what}`, { detail });
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Refuse to merge reports of different measurements: a merge of unlike things would print wrong numbers. */
function requireCompatible(reports: readonly CheckReport[], names: readonly string[]): void {
  const [first] = reports;
  if (!first) return;
  reports.forEach((r, i) => {
    const who = `${nameAt(names, 0)} vs ${nameAt(names, i)}`;
    if (r.name !== first.name) mismatch("the reports are of different evals", `  ${who}: ${JSON.stringify(first.name)} vs ${JSON.stringify(r.name)}`);
    if (r.metadata.proctorVersion !== first.metadata.proctorVersion) {
      mismatch("the reports were written by different proctor versions", `  ${who}: ${first.metadata.proctorVersion} vs ${r.metadata.proctorVersion} — re-run every shard with one version`);
    }
    if (r.failureExamples !== first.failureExamples) {
      mismatch("the reports keep different numbers of failure examples", `  ${who}: ${first.failureExamples ?? "unrecorded"} vs ${r.failureExamples ?? "unrecorded"} — run every shard with one failureExamples`);
    }
    if (r.trials.requested !== first.trials.requested) mismatch("the reports asked for different trial counts", `  ${who}: ${first.trials.requested} vs ${r.trials.requested}`);
    if (!same(r.seed, first.seed)) mismatch("the reports used different seeds (their trials are not slices of one run)", `  ${who}: ${JSON.stringify(first.seed)} vs ${JSON.stringify(r.seed)}`);
    if (r.confidence !== first.confidence) mismatch("the reports use different confidence levels", `  ${who}: ${first.confidence} vs ${r.confidence}`);
    if (!same(r.k, first.k)) mismatch("the reports computed pass@k for different k", `  ${who}: ${JSON.stringify(first.k)} vs ${JSON.stringify(r.k)}`);
    if (!same(r.thresholds, first.thresholds)) mismatch("the reports record different thresholds", `  ${who}`);
    const labels = (x: CheckReport) => x.checks.map((c) => c.label);
    if (!same(labels(r), labels(first))) mismatch("the reports have different checks", `  ${nameAt(names, 0)}: ${labels(first).join(", ")}\n  ${nameAt(names, i)}: ${labels(r).join(", ")}`);
    // Same labels, so both lists have the same length: zip them.
    r.checks.forEach((c, j) => {
      const theirs = first.checks[j]?.check;
      if (!same(c.check, theirs)) mismatch(`check ${JSON.stringify(c.label)} differs between the reports`, `  ${who}: ${JSON.stringify(theirs)} vs ${JSON.stringify(c.check)}`);
    });
  });
}

/** The shards a report covers: its own, or the ones it was merged from; [] for an unsharded run. */
function shardsOf(r: CheckReport): string[] {
  return r.mergedFrom ? r.mergedFrom.filter((s) => /^\d+\/\d+$/.test(s)) : r.shard ? [formatShard(r.shard)] : [];
}

/**
 * The shard set of `reports`: one split, each shard at most once, each shard's trials inside its
 * slice. Returns the shards of the split that are missing (none for unsharded reports).
 */
function checkShardSet(reports: readonly CheckReport[], names: readonly string[]): string[] {
  const listed = reports.map((r, i) => ({ shards: shardsOf(r), name: nameAt(names, i), report: r }));
  const sharded = listed.filter((l) => l.shards.length > 0);
  const [firstSharded] = sharded;
  if (!firstSharded) return [];
  const unsharded = listed.find((l) => l.shards.length === 0);
  if (unsharded) mismatch("an unsharded report cannot merge with shards", `  ${unsharded.name} ran every trial; ${firstSharded.name} is shard ${firstSharded.shards[0]}`);
  const counts = new Set(sharded.flatMap((l) => l.shards.map((s) => parseShard(s).count)));
  if (counts.size > 1) mismatch("the shards come from different splits", `  ${listed.map((l) => `${l.name}: ${l.shards.join(", ")}`).join("\n  ")}`);
  const seen = new Map<string, string>();
  for (const l of sharded) {
    for (const s of l.shards) {
      if (seen.has(s)) mismatch(`shard ${s} is given twice`, `  ${seen.get(s)} and ${l.name} both hold shard ${s}: an overlapping set would count its trials twice`);
      seen.set(s, l.name);
    }
    if (l.report.shard && !l.report.mergedFrom) {
      const slice = shardTrials(l.report.trials.requested, l.report.shard);
      const outside = l.report.trials.ranges.find(([a, b]) => a < slice.start || b > slice.end);
      if (outside) mismatch(`${l.name} holds trials outside shard ${formatShard(l.report.shard)}`, `  trials ${outside[0]}–${outside[1] - 1}, but shard ${formatShard(l.report.shard)} of ${l.report.trials.requested} is trials ${slice.start}–${slice.end - 1}`);
    }
  }
  const [count = 0] = counts;
  return Array.from({ length: count }, (_, i) => `${i + 1}/${count}`).filter((s) => !seen.has(s));
}

/** An input's own cut (budget, abort), whether it says so in `incomplete` or, merged or older, only in `stopped`. */
function cutShort(r: CheckReport): { reason: "budget" | "aborted"; message: string } | undefined {
  if (r.incomplete && r.incomplete.reason !== "missing-shards") return { reason: r.incomplete.reason, message: r.incomplete.message };
  if (r.stopped && r.stopped.reason !== "early-stop" && r.trials.skipped > 0) return { reason: r.stopped.reason, message: `${r.trials.ran} of ${r.trials.planned} planned trials ran (${r.stopped.message})` };
  return undefined;
}

/** What a merge lacks: its missing shards (the whole set decides, not the inputs'), and any input cut short. */
function mergedIncompleteness(reports: readonly CheckReport[], missing: readonly string[]): IncompleteInfo | undefined {
  const cuts = reports.flatMap((r) => cutShort(r) ?? []);
  const also = cuts.map((c) => `; ${c.message}`).join("");
  if (missing.length > 0) {
    return { reason: "missing-shards", message: `shard${missing.length === 1 ? "" : "s"} ${missing.join(", ")} missing: their trials never ran in this merge${also}`, missingShards: missing };
  }
  const [firstCut] = cuts;
  if (!firstCut) return undefined;
  return { reason: firstCut.reason, message: cuts.map((c) => c.message).join("; ") };
}

/** Merge the reports of disjoint trial slices (shards) of one measurement. `names` label them in errors. */
export function mergeReports(reports: readonly CheckReport[], names?: readonly string[]): CheckReport {
  if (!Array.isArray(reports as unknown)) throw new InvalidInputError("INVALID_INPUT", "mergeReports(reports) needs an array of reports", { input: "reports", hint: "pass the reports measure() returned, or the files proctor run --json wrote, parsed" });
  names ??= reports.map((_, i) => `report ${i + 1}`);
  const [first] = reports;
  if (!first) throw new InvalidInputError("INVALID_INPUT", "cannot merge: no reports given");
  // Objects handed over in code get the same schema check as files read by `proctor merge`.
  for (const [i, r] of reports.entries()) validateCheckReport(r, nameAt(names, i));
  requireCompatible(reports, names);
  const missing = checkShardSet(reports, names);
  // Every trial index must come from exactly one report.
  const slices = reports
    .flatMap((r, i) => r.trials.ranges.map(([start, end]) => ({ start, end, report: i, source: r })))
    .sort((a, b) => a.start - b.start);
  slices.forEach((s, i) => {
    const prev = slices[i - 1];
    if (prev && s.start < prev.end) {
      mismatch(`trial ${s.start} is in two reports`, `  ${nameAt(names, prev.report)} and ${nameAt(names, s.report)} overlap — the same shard given twice, or shards of different splits`);
    }
  });
  // Each report's outcome strings are in its own range order: cut them into per-range pieces.
  const offsets = reports.map(() => 0);
  const pieces = slices.map((s) => {
    const from = offsets[s.report] ?? 0;
    const to = from + s.end - s.start;
    offsets[s.report] = to;
    return { ...s, from, to };
  });
  const ranges: [number, number][] = [];
  for (const s of slices) {
    const last = ranges[ranges.length - 1];
    if (last && last[1] === s.start) last[1] = s.end;
    else ranges.push([s.start, s.end]);
  }

  // The configured count; reports written before it was recorded fall back to the longest list.
  const examples = first.failureExamples ?? Math.max(0, ...reports.flatMap((r) => r.checks.map((c) => c.failures.length)));
  // requireCompatible made every report's checks line up with `first`'s, label for label.
  const checkAt = (r: CheckReport, j: number) => r.checks[j] ?? mismatch("the reports have different checks", `  check ${j + 1} is missing`);
  const checks = first.checks.map((c, j) => {
    const failures: TrialFailure[] = [];
    for (const r of reports) for (const f of checkAt(r, j).failures) keepLowest(failures, f, examples);
    return summariseCheck(
      {
        label: c.label,
        kind: c.kind,
        check: c.check,
        n: sum(reports.map((r) => checkAt(r, j).n)),
        passes: sum(reports.map((r) => checkAt(r, j).passes)),
        scoreUnits: sum(reports.map((r) => Math.round(checkAt(r, j).scoreSum * UNITS))),
        outcomes: pieces.map((p) => checkAt(p.source, j).outcomes.slice(p.from, p.to)).join(""),
        failures,
      },
      first.confidence,
      first.k,
    );
  });
  const usage: UsageCounts = {
    costUnits: sum(reports.map((r) => Math.round(r.usage.costUsd * UNITS))),
    inputTokens: sum(reports.map((r) => r.usage.inputTokens)),
    outputTokens: sum(reports.map((r) => r.usage.outputTokens)),
    cacheCreationTokens: sum(reports.map((r) => r.usage.cacheCreationTokens)),
    cacheReadTokens: sum(reports.map((r) => r.usage.cacheReadTokens)),
    trialsWithUsage: sum(reports.map((r) => r.usage.trialsWithUsage)),
  };
  const t = reports.map((r) => r.trials);
  const stops = reports.flatMap((r, i) => (r.stopped ? [{ ...r.stopped, message: `${r.shard ? `shard ${formatShard(r.shard)}` : nameAt(names, i)}: ${r.stopped.message}` }] : []));
  const [firstStop] = stops;
  const skips = reports.flatMap((r) => (r.skipped ? [r.skipped.reason] : []));
  const [firstSkip] = skips;
  const union = (pick: (r: CheckReport) => readonly string[]) => [...new Set(reports.flatMap(pick))].sort();
  const incomplete = mergedIncompleteness(reports, missing);
  const ablation = mergeAblation(reports, names, first.confidence);
  const merged: CheckReport = {
    version: REPORT_VERSION,
    ...(first.name === undefined ? {} : { name: first.name }),
    ...(first.seed === undefined ? {} : { seed: first.seed }),
    confidence: first.confidence,
    k: first.k,
    trials: {
      requested: first.trials.requested,
      planned: sum(t.map((x) => x.planned)),
      ran: sum(t.map((x) => x.ran)),
      completed: sum(t.map((x) => x.completed)),
      errored: sum(t.map((x) => x.errored)),
      skipped: sum(t.map((x) => x.skipped)),
      ranges,
    },
    checks,
    errors: reports.flatMap((r) => r.errors).sort((a, b) => a.trial - b.trial),
    ...healthSummary(reports.flatMap((r) => r.errors)),
    usage: summariseUsage(usage),
    ...(first.thresholds ? { thresholds: first.thresholds } : {}),
    ...(firstStop ? { stopped: { reason: firstStop.reason, ...(firstStop.limit ? { limit: firstStop.limit } : {}), message: stops.map((s) => s.message).join("; ") } } : {}),
    ...(firstSkip !== undefined && skips.length === reports.length ? { skipped: { reason: firstSkip } } : {}),
    ...(incomplete ? { incomplete } : {}),
    ...(first.failureExamples !== undefined ? { failureExamples: first.failureExamples } : {}),
    ...(ablation ? { ablation } : {}),
    mergedFrom: reports.flatMap((r, i) => (r.mergedFrom ? r.mergedFrom : [r.shard ? formatShard(r.shard) : nameAt(names, i)])),
    metadata: { proctorVersion: first.metadata.proctorVersion, agentVersions: union((r) => r.metadata.agentVersions), models: union((r) => r.metadata.models) },
    timing: {
      startedAt: reports.map((r) => r.timing.startedAt).sort()[0] ?? first.timing.startedAt,
      finishedAt: reports.map((r) => r.timing.finishedAt).sort().reverse()[0] ?? first.timing.finishedAt,
      wallMs: Math.max(...reports.map((r) => r.timing.wallMs)),
      agentMs: sum(reports.map((r) => r.timing.agentMs)),
    },
  };
  return merged;
}

/** The label of report `i` in errors: its given name, or its position when `names` is short. */
function nameAt(names: readonly string[], i: number): string {
  return names[i] ?? `report ${i + 1}`;
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

/** The shards of the split a set of reports lacks — so `proctor merge` can say a merge is partial. */
export function missingShards(reports: readonly CheckReport[]): string[] {
  requireArray("missingShards", "reports", reports, "a list of check reports");
  const have = reports.flatMap(shardsOf);
  const count = have.map((s) => /^\d+\/(\d+)$/.exec(s)?.[1]).find(Boolean);
  if (!count) return [];
  return Array.from({ length: Number(count) }, (_, i) => `${i + 1}/${count}`).filter((s) => !have.includes(s));
}
