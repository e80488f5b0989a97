/**
 * Trigger suites: does a skill (or subagent) fire when it should, and stay quiet when it should
 * not? Prompts that should trigger it and prompts that should not, scored from the runs' Traces as
 * precision and recall; and a collision matrix across the skills and agents of several plugins —
 * which prompt fires which — because two plugins' descriptions competing for one prompt is what
 * routing goes wrong on.
 *
 * Triggering is the model's choice. On the mock tier the script decides which skill is called, so
 * a mock run measures nothing about routing; score real-API runs or replays of recorded ones. The
 * scoring here only reads Traces, whatever produced them.
 */
import { answersTo } from "../checks/names.js";
import { InvalidInputError } from "../errors/proctor-error.js";
import { wilsonInterval, type Interval } from "../stats/proportion.js";
import type { Trace } from "../trace/types.js";

/** What `defineTriggerSuite` takes: exactly one of `skill` and `agent`. */
export interface TriggerSuiteSpec {
  /** The skill id (`name` or `plugin:name`) that should fire. */
  readonly skill?: string;
  /** The subagent type that should be dispatched. */
  readonly agent?: string;
  /** Prompts on which it should fire. */
  readonly shouldTrigger: readonly string[];
  /** Prompts on which it should not. */
  readonly shouldNotTrigger: readonly string[];
}

/** A declared trigger suite. */
export interface TriggerSuite extends TriggerSuiteSpec {
  /** `skill:NAME` or `agent:TYPE`. */
  readonly target: string;
}

function bad(message: string): never {
  throw new InvalidInputError("INVALID_INPUT", `defineTriggerSuite: ${message}`, { input: "suite" });
}

/** Declare a trigger suite; refuses empty lists, duplicate prompts and a prompt on both lists. */
export function defineTriggerSuite(spec: TriggerSuiteSpec): TriggerSuite {
  if (typeof spec !== "object" || spec === null) bad("needs { skill, shouldTrigger: [...], shouldNotTrigger: [...] }");
  const named = [spec.skill, spec.agent].filter((x) => x !== undefined);
  if (named.length !== 1 || typeof named[0] !== "string" || named[0] === "") bad("give exactly one of skill (a skill id) or agent (a subagent type)");
  const lists = { shouldTrigger: spec.shouldTrigger, shouldNotTrigger: spec.shouldNotTrigger };
  for (const [field, list] of Object.entries(lists)) {
    if (!Array.isArray(list) || list.length === 0) bad(`${field} must be a non-empty array of prompts (without it, ${field === "shouldTrigger" ? "recall" : "precision"} means nothing)`);
    list.forEach((p, i) => {
      if (typeof p !== "string" || p.trim() === "") bad(`${field}[${i}] must be a non-empty prompt`);
    });
    if (new Set(list).size !== list.length) bad(`${field} lists a prompt twice`);
  }
  const both = spec.shouldTrigger.find((p) => spec.shouldNotTrigger.includes(p));
  if (both !== undefined) bad(`${JSON.stringify(both)} is in both shouldTrigger and shouldNotTrigger`);
  const target = spec.skill !== undefined ? `skill:${spec.skill}` : `agent:${spec.agent}`;
  return Object.freeze({ ...spec, shouldTrigger: [...spec.shouldTrigger], shouldNotTrigger: [...spec.shouldNotTrigger], target });
}

/** Did `target` (`skill:ID` or `agent:TYPE`) fire in this run? A skill counts when invoked at all, whatever its status. */
export function fired(trace: Trace, target: string): boolean {
  const colon = target.indexOf(":");
  const kind = target.slice(0, colon);
  const id = target.slice(colon + 1);
  if (kind === "skill") return trace.skills.some((s) => answersTo(id, s.name));
  if (kind === "agent") return trace.subagents.some((a) => answersTo(id, a.type));
  throw new InvalidInputError("INVALID_INPUT", `trigger target ${JSON.stringify(target)} must be skill:ID or agent:TYPE`, { input: "target" });
}

/** One run of one prompt. */
export interface TriggerObservation {
  readonly prompt: string;
  readonly trace: Trace;
}

/** One prompt's runs. */
export interface PromptScore {
  readonly prompt: string;
  readonly shouldTrigger: boolean;
  readonly runs: number;
  readonly fired: number;
}

/** Precision and recall of one suite over its runs (every run of every prompt counts once). */
export interface TriggerScore {
  readonly target: string;
  /** Fired on a should-trigger prompt. */
  readonly truePositives: number;
  /** Fired on a should-not-trigger prompt. */
  readonly falsePositives: number;
  /** Stayed quiet on a should-trigger prompt. */
  readonly falseNegatives: number;
  readonly trueNegatives: number;
  /** TP / (TP + FP); null when it never fired (no evidence either way). */
  readonly precision: number | null;
  /** TP / (TP + FN). */
  readonly recall: number;
  /** Wilson intervals at `confidence` (precision's is [0, 1] when it never fired). */
  readonly precisionInterval: Interval;
  readonly recallInterval: Interval;
  readonly prompts: readonly PromptScore[];
}

/**
 * Score a suite from runs of its prompts. Every prompt needs at least one run (a prompt never run
 * is missing evidence, not a pass) and every run must be of a prompt the suite lists.
 */
export function scoreTriggerSuite(suite: TriggerSuite, observations: readonly TriggerObservation[], confidence = 0.95): TriggerScore {
  if (!Array.isArray(observations as unknown)) throw new InvalidInputError("INVALID_INPUT", "scoreTriggerSuite(suite, observations) needs an array of { prompt, trace }", { input: "observations" });
  const prompts = new Map<string, { shouldTrigger: boolean; runs: number; fired: number }>();
  for (const p of suite.shouldTrigger) prompts.set(p, { shouldTrigger: true, runs: 0, fired: 0 });
  for (const p of suite.shouldNotTrigger) prompts.set(p, { shouldTrigger: false, runs: 0, fired: 0 });
  observations.forEach((o, i) => {
    const entry = prompts.get(o?.prompt);
    if (!entry) throw new InvalidInputError("INVALID_INPUT", `observations[${i}]: ${JSON.stringify(o?.prompt).slice(0, 80)} is not a prompt of the ${suite.target} suite`, { input: `observations[${i}].prompt` });
    entry.runs++;
    if (fired(o.trace, suite.target)) entry.fired++;
  });
  const unrun = [...prompts].filter(([, e]) => e.runs === 0).map(([p]) => p);
  if (unrun.length > 0) {
    throw new InvalidInputError("INVALID_INPUT", `scoreTriggerSuite: ${unrun.length} prompt${unrun.length === 1 ? " was" : "s were"} never run — missing evidence is not a score`, {
      input: "observations",
      detail: unrun.map((p) => `  ${JSON.stringify(p).slice(0, 100)}`).join("\n"),
    });
  }
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (const e of prompts.values()) {
    if (e.shouldTrigger) {
      tp += e.fired;
      fn += e.runs - e.fired;
    } else {
      fp += e.fired;
      tn += e.runs - e.fired;
    }
  }
  return {
    target: suite.target,
    truePositives: tp,
    falsePositives: fp,
    falseNegatives: fn,
    trueNegatives: tn,
    precision: tp + fp === 0 ? null : tp / (tp + fp),
    recall: tp / (tp + fn),
    precisionInterval: wilsonInterval(tp, tp + fp, confidence),
    recallInterval: wilsonInterval(tp, tp + fn, confidence),
    prompts: [...prompts].map(([prompt, e]) => ({ prompt, ...e })),
  };
}

/** Which prompt fires which skill or agent, as a rate over its runs. */
export interface CollisionMatrix {
  readonly prompts: readonly string[];
  /** Columns: `skill:ID` / `agent:TYPE`. */
  readonly targets: readonly string[];
  /** rates[prompt][target]: the fraction of the prompt's runs in which the target fired. */
  readonly rates: readonly (readonly number[])[];
  readonly runs: readonly number[];
  /** Prompts on which more than one target fired in the same run, with the targets. */
  readonly collisions: readonly { readonly prompt: string; readonly targets: readonly string[]; readonly runs: number }[];
}

/**
 * The collision matrix over runs of many prompts. `targets` defaults to every skill and agent any
 * run fired (as recorded: `plugin:skill` names keep plugins apart).
 */
export function collisionMatrix(observations: readonly TriggerObservation[], targets?: readonly string[]): CollisionMatrix {
  if (!Array.isArray(observations as unknown)) throw new InvalidInputError("INVALID_INPUT", "collisionMatrix(observations) needs an array of { prompt, trace }", { input: "observations" });
  const columns = targets
    ? [...targets]
    : [...new Set(observations.flatMap((o) => [...o.trace.skills.map((s) => `skill:${s.name}`), ...o.trace.subagents.map((a) => `agent:${a.type}`)]))].sort();
  const prompts = [...new Set(observations.map((o) => o.prompt))];
  const index = new Map(prompts.map((p, i) => [p, i]));
  const counts = prompts.map(() => columns.map(() => 0));
  const runs = prompts.map(() => 0);
  const together = new Map<string, Map<string, number>>();
  for (const o of observations) {
    const i = index.get(o.prompt) as number;
    runs[i] = (runs[i] as number) + 1;
    const hit = columns.filter((t) => fired(o.trace, t));
    for (const t of hit) {
      const row = counts[i] as number[];
      const j = columns.indexOf(t);
      row[j] = (row[j] as number) + 1;
    }
    if (hit.length > 1) {
      const key = hit.join("\u0000");
      const byPrompt = together.get(o.prompt) ?? new Map<string, number>();
      byPrompt.set(key, (byPrompt.get(key) ?? 0) + 1);
      together.set(o.prompt, byPrompt);
    }
  }
  const collisions = [...together].flatMap(([prompt, sets]) => [...sets].map(([key, n]) => ({ prompt, targets: key.split("\u0000"), runs: n })));
  return { prompts, targets: columns, rates: counts.map((row, i) => row.map((c) => c / (runs[i] as number))), runs, collisions };
}

/** The matrix as text: one row per prompt, a percentage per target, collisions listed below. */
export function renderCollisionMatrix(m: CollisionMatrix, width = 40): string {
  const cut = (p: string) => (p.length > width ? `${p.slice(0, width - 1)}…` : p.padEnd(width));
  const head = `${"prompt".padEnd(width)}  ${m.targets.map((t) => t.padStart(Math.max(6, t.length))).join("  ")}`;
  const rows = m.prompts.map((p, i) => `${cut(p)}  ${m.targets.map((t, j) => `${Math.round(((m.rates[i] as number[])[j] as number) * 100)}%`.padStart(Math.max(6, t.length))).join("  ")}`);
  const notes = m.collisions.map((c) => `collision: ${JSON.stringify(c.prompt).slice(0, 60)} fired ${c.targets.join(" and ")} together in ${c.runs} run${c.runs === 1 ? "" : "s"}`);
  return `${[head, ...rows, ...notes].join("\n")}\n`;
}
