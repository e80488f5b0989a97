import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { HarnessSpec } from "../../../harness/claude/spec.js";
import { ProctorError } from "../../errors/proctor-error.js";
import type { EvalDefinition, MockSpec, RealSpec } from "../../eval/define.js";
import { findEvalFiles, loadEvalFiles } from "../../eval/load.js";
import { chooseTier, runEvals, type EvalTiers, type TierChoice } from "../../eval/run-evals.js";
import type { TrialContext } from "../../measure/measure.js";
import type { Trace } from "../../trace/types.js";
import type { Baseline } from "../../../reporters/baseline/format.js";
import type { BaselineDiff } from "../../../reporters/baseline/diff.js";
import { renderRunSummary } from "../../../reporters/summary/run-summary.js";
import { parseCommandArgs } from "../args.js";
import type { Command } from "../command.js";

const USAGE = `proctor run [FILES_OR_DIRS…] [--mock|--real] [--trials N] [--concurrency C] [--shard i/n]
            [--junit FILE] [--json FILE] [--baseline FILE [--update-baseline] [--alpha A]] [--budget-usd X] [--list]`;

/** Where `proctor run` looks when given no files: a project's evals, else its examples (this repo's default). */
const DEFAULT_DIRS = ["evals", "examples"];

function positive(text: string | undefined, flag: string, integer: boolean): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!(n > 0) || (integer && !Number.isInteger(n))) throw new ProctorError("INVALID_INPUT", `${flag} must be a positive ${integer ? "integer" : "number"}; got ${JSON.stringify(text)}`);
  return n;
}

// Writers and the harness are imported only when a run needs them: a run over recorded
// transcripts starts in a fraction of the time.
const baselineModules = async () => ({ ...(await import("../../../reporters/baseline/format.js")), ...(await import("../../../reporters/baseline/file.js")), ...(await import("../../../reporters/baseline/diff.js")) });

/** The tiers, wired to the harness: imported only now, so `proctor run --list` spawns nothing. */
async function loadTiers(fileOf: Map<EvalDefinition, string>, signal: AbortSignal, needed: ReadonlySet<string>): Promise<EvalTiers> {
  if (!needed.has("mock") && !needed.has("real")) return {};
  const harness = await import("../../../harness/index.js");
  const { validateSpec } = await import("../../../harness/claude/spec.js");
  // Relative paths in a spec (fixture, plugins, script files) are relative to the eval file.
  const withCwd = <S extends { cwd?: string }>(spec: S, definition: EvalDefinition): S => ({ ...spec, cwd: spec.cwd ?? dirname(fileOf.get(definition) ?? process.cwd()) });
  const collect = async (result: { trace: Trace; cleanup(): Promise<void> }) => {
    try {
      return result.trace;
    } finally {
      await result.cleanup();
    }
  };
  return {
    mock: {
      run: async (spec: MockSpec, _context: TrialContext, definition: EvalDefinition) => collect(await harness.runHarness({ ...withCwd(spec as HarnessSpec, definition), signal })),
      // Validated as it will run: relative paths (plugins, fixture) against the eval file.
      validate: (spec, definition) => validateSpec(withCwd(spec as HarnessSpec, definition)),
    },
    real: {
      run: async (spec: RealSpec, _context: TrialContext, definition: EvalDefinition) => collect(await harness.runEval({ ...withCwd(spec, definition), signal })),
      validate: (spec, definition) => harness.validateEvalSpec(withCwd(spec, definition)),
      unavailable: () =>
        harness.apiKeyMissing(process.env, undefined) ? "ANTHROPIC_API_KEY is not set: the real tier calls the real API and costs money — set the key, or run with --mock" : undefined,
    },
  };
}

async function writeJson(file: string, value: unknown): Promise<void> {
  const { stringifySorted } = await import("../../../reporters/baseline/file.js");
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, stringifySorted(value));
  } catch (error) {
    throw new ProctorError("INVALID_INPUT", `cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/**
 * Run eval files: measure each eval on its tier, print the summary, write JUnit / JSON, hold the
 * reports to a baseline. Exit 0 all gates held, 1 a gate failed / an eval was skipped / a check
 * regressed, 2 bad input (including a real run without a key).
 */
const run: Command = async (argv) => {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      mock: { type: "boolean" },
      real: { type: "boolean" },
      trials: { type: "string" },
      concurrency: { type: "string" },
      shard: { type: "string" },
      junit: { type: "string" },
      json: { type: "string" },
      baseline: { type: "string" },
      "update-baseline": { type: "boolean" },
      alpha: { type: "string" },
      "budget-usd": { type: "string" },
      list: { type: "boolean" },
      quiet: { type: "boolean", short: "q" },
    },
    USAGE,
  );
  if (values.mock && values.real) throw new ProctorError("INVALID_INPUT", `--mock and --real exclude each other\nusage: ${USAGE}`);
  const tier: TierChoice = values.mock ? "mock" : values.real ? "real" : "auto";
  const trials = positive(values.trials, "--trials", true);
  const concurrency = positive(values.concurrency, "--concurrency", true);
  const budgetUsd = positive(values["budget-usd"], "--budget-usd", false);
  const alpha = values.alpha === undefined ? undefined : Number(values.alpha);
  if (alpha !== undefined && !(alpha > 0 && alpha < 1)) throw new ProctorError("INVALID_INPUT", `--alpha must be within (0, 1), like 0.05; got ${JSON.stringify(values.alpha)}`);
  if (values["update-baseline"] && !values.baseline) throw new ProctorError("INVALID_INPUT", "--update-baseline needs --baseline FILE");
  if (values.shard && values.baseline) throw new ProctorError("INVALID_INPUT", "--baseline with --shard: a shard's report is partial — merge the shards (proctor merge), then `proctor baseline --check`");
  const baselineFile = values.baseline;
  let baseline: Baseline | undefined;
  if (baselineFile && !values["update-baseline"]) {
    if (!existsSync(baselineFile)) throw new ProctorError("INVALID_INPUT", `baseline ${baselineFile} does not exist`, { detail: "  record one first: proctor run … --baseline FILE --update-baseline" });
    baseline = (await baselineModules()).readBaseline(baselineFile);
  }

  let paths = positionals;
  if (paths.length === 0) {
    const found = DEFAULT_DIRS.find((dir) => existsSync(dir) && statSync(dir).isDirectory() && findEvalFiles(dir).length > 0);
    if (!found) throw new ProctorError("INVALID_INPUT", `no eval files given, and none in ./${DEFAULT_DIRS.join(" or ./")}\nusage: ${USAGE}`);
    process.stderr.write(`proctor run: no eval files given — running the *.eval.* files in ./${found}\n`);
    paths = [found];
  }
  const loaded = await loadEvalFiles(paths);
  const definitions = loaded.flatMap((l) => l.evals);
  const fileOf = new Map(loaded.flatMap((l) => l.evals.map((e) => [e, l.file] as const)));

  if (values.list) {
    for (const l of loaded) for (const e of l.evals) process.stdout.write(`${e.name}  (${e.tiers.join(", ")} · ${e.trials} trials · ${e.checks.length} checks)  ${l.file}\n`);
    return 0;
  }

  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  let outcomes;
  try {
    const needed = new Set(definitions.map((d) => chooseTier(d, tier)).filter((t): t is "mock" | "real" | "run" => typeof t === "string"));
    const tiers = await loadTiers(fileOf, controller.signal, needed);
    outcomes = await runEvals(definitions, {
      tiers,
      tier,
      trials,
      concurrency,
      budgetUsd,
      shard: values.shard,
      progress: values.quiet ? false : "auto",
      signal: controller.signal,
    });
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
  if (outcomes.every((o) => o.status === "not-run")) {
    process.stdout.write(renderRunSummary(outcomes));
    throw new ProctorError("INVALID_INPUT", `no eval ran: ${outcomes[0]?.note ?? "nothing to run"}`);
  }

  process.stdout.write(renderRunSummary(outcomes));
  const reports = outcomes.flatMap((o) => (o.report ? [o.report] : []));
  let diff: BaselineDiff | undefined;
  if (baselineFile && values["update-baseline"]) {
    const { createBaseline, readBaseline, writeBaseline } = await baselineModules();
    const previous = existsSync(baselineFile) ? readBaseline(baselineFile) : undefined;
    writeBaseline(baselineFile, createBaseline(reports, previous));
    process.stdout.write(`baseline ${baselineFile} updated: ${reports.map((r) => r.name).join(", ")}\n`);
  } else if (baseline) {
    const { diffBaseline, renderBaselineDiff } = await baselineModules();
    diff = diffBaseline(baseline, reports, alpha === undefined ? {} : { alpha });
    process.stdout.write(`\nagainst baseline ${baselineFile}:\n${renderBaselineDiff(diff)}`);
  }
  // One eval: its CheckReport (what `proctor merge` reads); several: an array of them.
  // Always an array, one report per eval that ran: the shape doesn't change with the number of evals.
  if (values.json) await writeJson(values.json, reports);
  if (values.junit) {
    const { diffSuites, reportSuites } = await import("../../../reporters/junit/from-reports.js");
    const { buildJunitXml, writeJunit } = await import("../../../reporters/junit/xml.js");
    writeJunit(values.junit, buildJunitXml([...reportSuites(reports), ...(diff ? diffSuites(diff) : [])], "proctor run"));
  }

  const failed = outcomes.some((o) => o.status === "failed" || o.status === "skipped" || o.status === "incomplete" || (o.status === "not-run" && o.tier !== undefined));
  return failed || diff?.regressed ? 1 : 0;
};
export default run;
