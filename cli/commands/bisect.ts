/**
 * `proctor bisect EVAL_FILE --from V --to V`: which claude release first changed an eval's rate?
 * A binary search over the published versions between the two ends (npm view), each probed
 * version installed once into the cache, a few trials per step; each step's rates and p-values are
 * printed, and the conclusion says how sure it is (src/measure/bisect.ts).
 */
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { defineEval, type EvalDefinition } from "../../src/eval/define.js";
import { evalFileOf, loadEvalFiles } from "../../src/eval/load.js";
import { chooseTier, runEvals, type TierChoice } from "../../src/eval/run-evals.js";
import { bisectVersions, type BisectStep } from "../../src/measure/bisect.js";
import { compareVersions } from "../../src/measure/claude-versions.js";
import type { Counts } from "../../src/stats/fisher.js";
import { parseCommandArgs } from "../args.js";
import type { Command } from "../command.js";
import { installBuiltInJudge } from "../judge.js";
import { interruptOn, loadTiers, signalExitCode } from "./run.js";

const USAGE = `proctor bisect EVAL_FILE [--eval NAME] (--from V --to V|latest | --versions A,B,…) [--check LABEL]
              [--trials N] [--max-trials M] [--alpha A] [--mock|--replay|--real]`;

const pct = (c: Counts) => `${c.n === 0 ? "–" : `${((c.passes / c.n) * 100).toFixed(0)}%`} (${c.passes}/${c.n})`;

function stepLine(step: BisectStep): string {
  const tests = step.pOld === undefined ? "" : `  p vs old end ${step.pOld.toPrecision(2)}, vs new end ${(step.pNew ?? 1).toPrecision(2)}`;
  const side = step.side === "old end" || step.side === "new end" ? step.side : `like the ${step.side} end${step.uncertain ? " (uncertain: no test decided it; put on the nearer side)" : ""}`;
  return `  claude ${step.version.padEnd(9)} ${pct(step.counts).padEnd(12)} ${side}${tests}`;
}

const bisect: Command = async (argv) => {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      eval: { type: "string" },
      from: { type: "string" },
      to: { type: "string" },
      versions: { type: "string" },
      check: { type: "string" },
      trials: { type: "string" },
      "max-trials": { type: "string" },
      alpha: { type: "string" },
      mock: { type: "boolean" },
      replay: { type: "boolean" },
      real: { type: "boolean" },
    },
    USAGE,
  );
  const int = (text: string | undefined, flag: string) => {
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) throw new InvalidInputError("INVALID_INPUT", `${flag} must be a positive integer; got ${JSON.stringify(text)}`);
    return n;
  };
  const trials = int(values.trials, "--trials") ?? 5;
  const maxTrials = int(values["max-trials"], "--max-trials") ?? trials * 4;
  const alpha = values.alpha === undefined ? 0.05 : Number(values.alpha);
  if (!(alpha > 0 && alpha < 1)) throw new InvalidInputError("INVALID_INPUT", `--alpha must be within (0, 1), like 0.05; got ${JSON.stringify(values.alpha)}`);
  if ([values.mock, values.real, values.replay].filter(Boolean).length > 1) throw new InvalidInputError("INVALID_INPUT", `--mock, --replay and --real exclude each other\nusage: ${USAGE}`);
  const tier: TierChoice = values.mock ? "mock" : values.real ? "real" : values.replay ? "replay" : "auto";
  if (positionals.length !== 1) throw new InvalidInputError("INVALID_INPUT", `expected one eval file\nusage: ${USAGE}`);
  if (values.versions === undefined && (values.from === undefined || values.to === undefined)) throw new InvalidInputError("INVALID_INPUT", `give the range: --from V --to V (or latest), or --versions A,B,…\nusage: ${USAGE}`);

  const loaded = await loadEvalFiles(positionals);
  const evals = loaded.flatMap((l) => l.evals);
  const fileOf = evalFileOf(loaded);
  const chosen = values.eval === undefined ? (evals.length === 1 ? evals[0] : undefined) : evals.find((e) => e.name === values.eval);
  if (!chosen) throw new InvalidInputError("INVALID_INPUT", values.eval === undefined ? `${positionals[0]} holds ${evals.length} evals; name one with --eval (${evals.map((e) => JSON.stringify(e.name)).join(", ")})` : `no eval named ${JSON.stringify(values.eval)}; the evals are ${evals.map((e) => JSON.stringify(e.name)).join(", ")}`);
  const definition: EvalDefinition = chosen;
  const t = chooseTier(definition, tier);
  if (typeof t !== "string") throw new InvalidInputError("INVALID_INPUT", `${definition.name}: ${t.notRun}`);

  const versions = await import("../../harness/claude/versions.js");
  let list: string[];
  if (values.versions !== undefined) list = versions.parseClaudeList(values.versions);
  else {
    const from = values.from as string;
    const to = values.to === "latest" ? await versions.latestClaudeVersion() : (values.to as string);
    const published = await versions.publishedClaudeVersions();
    for (const v of [from, to]) if (!published.includes(v)) throw new InvalidInputError("INVALID_INPUT", `claude ${v} is not a published version (npm view ${versions.CLAUDE_PACKAGE} versions)`);
    if (compareVersions(from, to) >= 0) throw new InvalidInputError("INVALID_INPUT", `--from ${from} must be older than --to ${to}`);
    list = published.filter((v) => compareVersions(v, from) >= 0 && compareVersions(v, to) <= 0);
  }
  if (list.length < 2) throw new InvalidInputError("INVALID_INPUT", "bisect needs at least two versions");
  process.stdout.write(`bisecting ${definition.name} over ${list.length} claude versions (${list[0]} … ${list[list.length - 1]}); at most ${Math.ceil(Math.log2(list.length - 1)) + 2} versions probed, ${trials} trials a round, up to ${maxTrials} a version\n`);

  await installBuiltInJudge(definition.checks);
  // The eval's own spec (without what defineEval derives), to re-declare it with a fresh seed per round.
  const spec = Object.fromEntries(Object.entries(definition).filter(([k]) => k !== "tiers"));
  const paths = new Map<string, { path: string; version: string }>();
  const rounds = new Map<string, number>();
  const controller = new AbortController();
  const interruption = interruptOn(controller);
  const probe = async (entry: string, n: number): Promise<Record<string, Counts>> => {
    if (controller.signal.aborted) throw new InvalidInputError("INVALID_INPUT", "bisect interrupted");
    let choice = paths.get(entry);
    if (!choice) {
      choice = await versions.chooseClaude(entry, { onInstall: (v, dir) => process.stderr.write(`proctor bisect: installing claude ${v} into ${dir}\n`) });
      paths.set(entry, choice);
    }
    // A fresh seed each round: topping a version up repeats no trial.
    const round = (rounds.get(entry) ?? 0) + 1;
    rounds.set(entry, round);
    const seeded = defineEval({ ...spec, seed: `${definition.seed}#${choice.version}#${round}` } as Parameters<typeof defineEval>[0]);
    const tiers = await loadTiers(new Map([[seeded, fileOf.get(definition) ?? process.cwd()]]), controller.signal, new Set([t]), { claudePath: choice.path });
    const [outcome] = await runEvals([seeded], { tiers, tier, trials: n, progress: false, signal: controller.signal });
    const report = outcome?.report;
    if (!report || report.skipped) throw new InvalidInputError("INVALID_INPUT", `claude ${choice.version}: the eval measured nothing (${report?.skipped?.reason ?? outcome?.note ?? "not run"})`);
    if (report.trials.errored > 0) process.stderr.write(`proctor bisect: claude ${choice.version}: ${report.trials.errored} trial(s) errored (${report.errors[0]?.message.split("\n")[0] ?? ""}); they count as no evidence\n`);
    return Object.fromEntries(report.checks.map((c) => [c.label, { passes: c.passes, n: c.n }]));
  };
  try {
    const result = await bisectVersions(list, probe, {
      trials,
      maxTrials,
      alpha,
      ...(values.check !== undefined ? { check: values.check } : {}),
      onStep: (step) => process.stdout.write(`${stepLine(step)}\n`),
    });
    process.stdout.write(`following ${result.check}: ends differ with Fisher p = ${result.pEnds.toPrecision(2)}\n`);
    process.stdout.write(`${result.status === "found" ? `first changed in claude ${result.firstNew} (last like the old end: ${result.lastOld})\n` : ""}${result.note}\n`);
    return result.status === "found" && result.confidence !== undefined ? 0 : 1;
  } catch (error) {
    if (interruption.signal) return signalExitCode(interruption.signal);
    throw error;
  } finally {
    interruption.release();
  }
};
export default bisect;
