/**
 * Trigger suites: does a skill or subagent fire on the prompts it should, and stay quiet on the
 * ones it should not? Routing is what plugin authors ask about most, and it is a classifier: it is
 * scored as one (precision, recall, with intervals) over should-trigger / should-not-trigger
 * prompts, and a collision matrix says which prompt fired which of the installed skills and
 * agents, so two plugins fighting over the same prompts show up as a row with two marks.
 *
 * A trial whose run did not happen as designed (a plugin not loaded, the model never asked, a cut
 * stream) is not "did not trigger": it is errored, and counts on neither side.
 */
import { absenceUnprovable } from "../checks/describe.js";
import { answersTo } from "../checks/names.js";
import { requireArray, requireObject } from "../errors/arguments.js";
import { InvalidInputError } from "../errors/proctor-error.js";
import { requireTarget, TRACE_TARGET } from "../checks/targets.js";
import { wilsonInterval, type Interval } from "../stats/proportion.js";
import type { Trace } from "../trace/types.js";

/** What is being routed to: a skill (`Skill` calls) or a subagent type (`Agent` dispatches). `plugin:name` or a bare name. */
export type TriggerTarget = { readonly skill: string } | { readonly subagent: string };

export interface TriggerSuite {
  readonly name: string;
  readonly target: TriggerTarget;
  /** Prompts on which the target must fire. */
  readonly shouldTrigger: readonly string[];
  /** Prompts on which it must not (near misses are the useful ones). */
  readonly shouldNotTrigger: readonly string[];
}

/** Declare a trigger suite; validated here so a typo fails at load, not after the trials ran. */
export function defineTriggerSuite(suite: TriggerSuite): TriggerSuite {
  requireObject("defineTriggerSuite", "suite", suite, "a suite such as { name, target: { skill }, shouldTrigger, shouldNotTrigger }");
  const where = `defineTriggerSuite(${JSON.stringify(suite?.name ?? "?")})`;
  if (typeof suite?.name !== "string" || suite.name === "") throw new InvalidInputError("INVALID_INPUT", `${where}: name must be a non-empty string`);
  const t = suite.target as Record<string, unknown> | undefined;
  const id = t && (typeof t.skill === "string" ? t.skill : typeof t.subagent === "string" ? t.subagent : undefined);
  if (!id || Object.keys(t ?? {}).length !== 1) throw new InvalidInputError("INVALID_INPUT", `${where}: target must be { skill: "name" } or { subagent: "type" }`);
  for (const side of ["shouldTrigger", "shouldNotTrigger"] as const) {
    const list = suite[side];
    if (!Array.isArray(list) || list.some((p) => typeof p !== "string" || p.trim() === "")) throw new InvalidInputError("INVALID_INPUT", `${where}: ${side} must be a list of non-empty prompts`);
  }
  if (suite.shouldTrigger.length === 0) throw new InvalidInputError("INVALID_INPUT", `${where}: shouldTrigger is empty, so recall cannot be measured; add prompts the target must fire on`);
  if (suite.shouldNotTrigger.length === 0) throw new InvalidInputError("INVALID_INPUT", `${where}: shouldNotTrigger is empty, so precision means nothing (firing on everything would score 1); add near-miss prompts`);
  const both = suite.shouldTrigger.find((p) => suite.shouldNotTrigger.includes(p));
  if (both !== undefined) throw new InvalidInputError("INVALID_INPUT", `${where}: the prompt ${JSON.stringify(both)} is in shouldTrigger and shouldNotTrigger`);
  return suite;
}

/** Every skill and subagent a run fired (skills that resolved without error, subagents dispatched), as recorded. */
export function firedTargets(trace: Trace): string[] {
  requireTarget(TRACE_TARGET, "firedTargets()", trace);
  const fired = new Set<string>();
  for (const s of trace.skills) if (s.status === "success") fired.add(`skill:${s.name}`);
  for (const a of trace.subagents) fired.add(`subagent:${a.type}`);
  return [...fired].sort();
}

/** Did this run fire the target? A bare name matches any plugin's `plugin:name`, as Claude Code resolves it. */
export function triggerFired(trace: Trace, target: TriggerTarget): boolean {
  requireTarget(TRACE_TARGET, "triggerFired()", trace);
  requireObject("triggerFired", "target", target, "{ skill: name } or { subagent: type }");
  if ("skill" in target) return trace.skills.some((s) => s.status === "success" && answersTo(target.skill, s.name));
  return trace.subagents.some((a) => answersTo(target.subagent, a.type));
}

/** One trial of one prompt. */
export interface TriggerTrial {
  readonly prompt: string;
  readonly expected: boolean;
  readonly trial: number;
  /** Undefined when the trial errored. */
  readonly fired?: boolean;
  /** Every skill and subagent it fired (`skill:name`, `subagent:type`). */
  readonly firedTargets: readonly string[];
  /** Why the trial is not counted: the run failed or did not happen as designed. */
  readonly error?: string;
}

export interface TriggerReport {
  readonly name: string;
  readonly target: TriggerTarget;
  /** Counted trials: true/false positives/negatives. */
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
  readonly tn: number;
  readonly errored: number;
  /** tp / (tp + fp); undefined when the target never fired. */
  readonly precision?: number;
  /** tp / (tp + fn); undefined when no should-trigger trial was counted. */
  readonly recall?: number;
  /** Wilson intervals of the two rates, over trials (prompts repeat across trials). */
  readonly precisionInterval?: Interval;
  readonly recallInterval?: Interval;
  readonly trials: readonly TriggerTrial[];
  /** Prompt × fired target: how often each prompt fired each skill or subagent, over its counted trials. */
  readonly collisions: CollisionMatrix;
}

/** Which prompt fired which skill or subagent. */
export interface CollisionMatrix {
  /** Column names, sorted: `skill:name`, `subagent:type`. */
  readonly targets: readonly string[];
  readonly rows: readonly { readonly prompt: string; readonly counted: number; readonly fired: Readonly<Record<string, number>> }[];
}

/** Score trials already run. */
export function scoreTriggers(suite: TriggerSuite, trials: readonly TriggerTrial[]): TriggerReport {
  requireObject("scoreTriggers", "suite", suite, "the suite the trials ran");
  requireArray("scoreTriggers", "trials", trials, "the trials measureTriggers ran");
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  let errored = 0;
  for (const t of trials) {
    if (t.fired === undefined) errored++;
    else if (t.expected) t.fired ? tp++ : fn++;
    else t.fired ? fp++ : tn++;
  }
  const precision = tp + fp > 0 ? tp / (tp + fp) : undefined;
  const recall = tp + fn > 0 ? tp / (tp + fn) : undefined;
  return {
    name: suite.name,
    target: suite.target,
    tp,
    fp,
    fn,
    tn,
    errored,
    ...(precision !== undefined ? { precision, precisionInterval: wilsonInterval(tp, tp + fp) } : {}),
    ...(recall !== undefined ? { recall, recallInterval: wilsonInterval(tp, tp + fn) } : {}),
    trials,
    collisions: collisionMatrix(trials),
  };
}

/** The collision matrix of any set of trials (one suite's, or several suites' over the same installed plugins). */
export function collisionMatrix(trials: readonly Pick<TriggerTrial, "prompt" | "firedTargets" | "fired">[]): CollisionMatrix {
  requireArray("collisionMatrix", "trials", trials, "trials from measureTriggers (report.trials)");
  const targets = new Set<string>();
  const rows = new Map<string, { counted: number; fired: Record<string, number> }>();
  for (const t of trials) {
    const row = rows.get(t.prompt) ?? { counted: 0, fired: {} };
    rows.set(t.prompt, row);
    if (t.fired === undefined) continue;
    row.counted++;
    for (const name of t.firedTargets) {
      targets.add(name);
      row.fired[name] = (row.fired[name] ?? 0) + 1;
    }
  }
  return { targets: [...targets].sort(), rows: [...rows].map(([prompt, r]) => ({ prompt, ...r })) };
}

export interface MeasureTriggersOptions {
  /** Run the agent on one prompt and return its Trace (a harness run, a replay, a real run). */
  readonly run: (prompt: string, trial: number) => Trace | Promise<Trace>;
  /** Trials per prompt. @default 1 */
  readonly trials?: number;
  /** @default 1 */
  readonly concurrency?: number;
}

/** Run every prompt of the suite `trials` times and score it. */
export async function measureTriggers(suite: TriggerSuite, options: MeasureTriggersOptions): Promise<TriggerReport> {
  defineTriggerSuite(suite);
  requireObject("measureTriggers", "options", options, "{ run: (prompt) => Trace, trials }");
  const trials = options.trials ?? 1;
  if (!Number.isInteger(trials) || trials < 1) throw new InvalidInputError("INVALID_INPUT", `measureTriggers: trials must be a whole number ≥ 1; got ${String(trials)}`);
  if (typeof options.run !== "function") throw new InvalidInputError("INVALID_INPUT", "measureTriggers: run must be a function (prompt, trial) => Trace");
  const limit = (await import("p-limit")).default(options.concurrency ?? 1);
  const jobs = [...suite.shouldTrigger.map((p) => [p, true] as const), ...suite.shouldNotTrigger.map((p) => [p, false] as const)].flatMap(([prompt, expected]) =>
    Array.from({ length: trials }, (_, trial) => ({ prompt, expected, trial })),
  );
  const results = await Promise.all(
    jobs.map((job) =>
      limit(async (): Promise<TriggerTrial> => {
        let trace: Trace;
        try {
          trace = await options.run(job.prompt, job.trial);
        } catch (error) {
          return { ...job, firedTargets: [], error: `the run failed: ${(error as Error).message?.split("\n")[0] ?? String(error)}` };
        }
        const didFire = triggerFired(trace, suite.target);
        // Firing is seen in the record; not firing is an absence, which an unhealthy run cannot show.
        const unprovable = didFire ? undefined : absenceUnprovable(trace);
        if (unprovable) return { ...job, firedTargets: firedTargets(trace), error: unprovable };
        return { ...job, fired: didFire, firedTargets: firedTargets(trace) };
      }),
    ),
  );
  return scoreTriggers(suite, results);
}

const pct = (x: number | undefined) => (x === undefined ? "—" : `${(x * 100).toFixed(1)}%`);

/** A report as text: the two rates, the misses by prompt, and the collision matrix. */
export function renderTriggerReport(report: TriggerReport): string {
  requireObject("renderTriggerReport", "report", report, "what measureTriggers returned");
  const id = "skill" in report.target ? `skill ${report.target.skill}` : `subagent ${report.target.subagent}`;
  const ci = (i: Interval | undefined) => (i ? ` (95% CI ${pct(i.low)}–${pct(i.high)})` : "");
  const lines = [
    `${report.name} — ${id}`,
    `  precision ${pct(report.precision)}${ci(report.precisionInterval)} · recall ${pct(report.recall)}${ci(report.recallInterval)} · tp ${report.tp} fp ${report.fp} fn ${report.fn} tn ${report.tn}${report.errored ? ` · ${report.errored} errored (not counted)` : ""}`,
  ];
  for (const t of report.trials) {
    if (t.error) lines.push(`  ! ${JSON.stringify(t.prompt)} trial ${t.trial}: ${t.error}`);
    else if (t.fired !== t.expected) lines.push(`  ✗ ${t.expected ? "missed" : "fired on"} ${JSON.stringify(t.prompt)} (trial ${t.trial})`);
  }
  const m = report.collisions;
  if (m.targets.length) {
    lines.push("  collisions (times fired / trials counted):");
    for (const row of m.rows) {
      const cells = m.targets.filter((t) => row.fired[t]).map((t) => `${t} ${row.fired[t]}/${row.counted}`);
      lines.push(`    ${JSON.stringify(row.prompt)}: ${cells.length ? cells.join(", ") : "nothing"}${cells.length > 1 ? "  ← collision" : ""}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
