/**
 * `proctor run --claude A,B,…`: the claude version matrix. Each listed claude (a version, `latest`,
 * or a binary's path) is found in the project, the cache, or installed into the cache; the same
 * evals run on each; the summary of each version is printed, then each check's rate per version
 * with Fisher's exact test against the first version.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { ClaudeChoice } from "../../harness/claude/versions.js";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import type { EvalDefinition } from "../../src/eval/define.js";
import { chooseTier, runEvals, type EvalOutcome, type TierChoice } from "../../src/eval/run-evals.js";
import type { CheckReport } from "../../src/measure/types.js";
import { renderVersionMatrix, versionMatrix } from "../../src/measure/version-matrix.js";
import { renderRunSummary } from "../../reporters/summary/run-summary.js";
import { installBuiltInJudge } from "../judge.js";
import { interruptOn, loadTiers, signalExitCode } from "./run.js";

export interface MatrixRunOptions {
  readonly list: string;
  readonly definitions: readonly EvalDefinition[];
  readonly fileOf: Map<EvalDefinition, string>;
  readonly tier: TierChoice;
  readonly trials: number | undefined;
  readonly concurrency: number | undefined;
  readonly budgetUsd: number | undefined;
  readonly quiet: boolean;
  readonly alpha: number | undefined;
  readonly json: string | undefined;
  readonly junit: string | undefined;
  /** `--no-sandbox REASON`: every trial runs without claude's sandbox. */
  readonly sandboxOff?: string;
  /** `--early-stop`: every eval as if it had `earlyStop: true`. */
  readonly earlyStop?: boolean;
}

const failedStatus = (o: EvalOutcome) => o.status === "failed" || o.status === "skipped" || o.status === "incomplete" || (o.status === "not-run" && o.tier !== undefined);

/** Run the evals on each listed claude; print each version's summary and the matrix; exit 1 when a gate failed on any version. */
export async function runMatrix(options: MatrixRunOptions): Promise<number> {
  const { chooseClaude, parseClaudeList } = await import("../../harness/claude/versions.js");
  const entries = parseClaudeList(options.list);
  const choices: ClaudeChoice[] = [];
  for (const entry of entries) {
    const choice = await chooseClaude(entry, { onInstall: (v, dir) => process.stderr.write(`proctor run: installing claude ${v} into ${dir} (once; later runs reuse it)\n`) });
    if (choices.some((c) => c.version === choice.version)) {
      throw new InvalidInputError("INVALID_INPUT", `--claude: ${entry} is claude ${choice.version}, which the list already holds; list each version once`);
    }
    choices.push(choice);
    process.stdout.write(`claude ${choice.version}: ${choice.path} (${choice.source === "project" ? "the project's own" : choice.source === "cache" ? "cached" : choice.source === "installed" ? "installed now" : "given"})\n`);
  }
  await installBuiltInJudge(options.definitions.flatMap((d) => d.checks));
  const needed = new Set(options.definitions.map((d) => chooseTier(d, options.tier)).filter((t): t is "mock" | "replay" | "real" | "run" => typeof t === "string"));
  const columns: { version: string; reports: CheckReport[] }[] = [];
  let failed = false;
  for (const choice of choices) {
    const controller = new AbortController();
    const interruption = interruptOn(controller);
    const drift = new Map<string, Set<string>>();
    let outcomes: EvalOutcome[];
    try {
      const tiers = await loadTiers(options.fileOf, controller.signal, needed, { claudePath: choice.path, drift, ...(options.sandboxOff !== undefined ? { sandboxOff: options.sandboxOff } : {}) });
      outcomes = await runEvals(options.definitions, {
        tiers,
        tier: options.tier,
        trials: options.trials,
        concurrency: options.concurrency,
        budgetUsd: options.budgetUsd,
        ...(options.earlyStop ? { earlyStop: true } : {}),
        progress: options.quiet ? false : "auto",
        signal: controller.signal,
      });
    } finally {
      interruption.release();
    }
    process.stdout.write(`\n── claude ${choice.version} ──\n${renderRunSummary(outcomes)}`);
    for (const [name, notes] of drift) for (const note of notes) process.stdout.write(`${name}: ${note}\n`);
    if (interruption.signal) {
      process.stderr.write(`proctor run: interrupted by ${interruption.signal} on claude ${choice.version}; no matrix or report written\n`);
      return signalExitCode(interruption.signal);
    }
    failed ||= outcomes.some(failedStatus);
    columns.push({ version: choice.version, reports: outcomes.flatMap((o) => (o.report ? [o.report] : [])) });
  }
  process.stdout.write(`\n${renderVersionMatrix(versionMatrix(columns, options.alpha === undefined ? {} : { alpha: options.alpha }))}`);
  const all = columns.flatMap((c) => c.reports);
  if (options.json) {
    const { stringifySorted } = await import("../../reporters/baseline/file.js");
    try {
      mkdirSync(dirname(options.json), { recursive: true });
      writeFileSync(options.json, stringifySorted(all));
    } catch (error) {
      throw new InvalidInputError("INVALID_INPUT", `cannot write ${options.json}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  if (options.junit) {
    const { reportSuites } = await import("../../reporters/junit/from-reports.js");
    const { buildJunitXml, writeJunit } = await import("../../reporters/junit/xml.js");
    // One suite per eval per version: the version is in the suite's name and its claudeVersion property.
    const suites = columns.flatMap((c) => reportSuites(c.reports).map((s) => ({ ...s, name: `${s.name} [claude ${c.version}]`, cases: s.cases.map((k) => ({ ...k, className: `${k.className} [claude ${c.version}]` })) })));
    writeJunit(options.junit, buildJunitXml(suites, "proctor run --claude"));
  }
  return failed ? 1 : 0;
}
